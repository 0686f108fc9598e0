// Real activity on every kind of chain for the explorer's browser test: an X-Chain transfer, AVAX
// moved from X to C (an export and an atomic import), a subnet converted to an L1 on the P-Chain,
// tokens, a forwarded value and a failed tx on the C-Chain and on an L1, and ICM messages between them.
import { readFileSync } from 'node:fs';
import { call } from '../helpers.js';
import { type Activity, EWOQ, makeActivity } from './data.js';
import { type Abi, getAddress } from 'viem';
import { evmClients, ewoq, MESSENGER, SEND_TOPIC, sendMessageData, until } from './evm.js';
import { type IcmActivity, makeIcm } from './icm.js';
import { fixture } from './solc.js';
import { A, EWOQ_KEY, nodeAsL1Validator, Wallet } from './pvm.js';

const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
/** Bob: the X-Chain transfer's recipient (a fixed key's address). */
const BOB_KEY = new Uint8Array(32).fill(7);

export interface ExplorerActivity {
  xTransfer: string;
  /** 2 AVAX exported from X to C, and imported on C to ewoq's EVM address. */
  xExport: string;
  cImport: string;
  /** Bob's X-Chain address. */
  bob: string;
  subnetID: string;
  /** The L1's chain, created on the converted subnet. */
  convertedChainID: string;
  conversionTx: string;
  c: Activity;
  l1: Activity;
  icm: IcmActivity;
  /** A message through the messenger at 0x253b…, delivered by the node's relayer. */
  relayed: string;
  cChainID: string;
  l1ChainID: string;
}

export async function makeExplorerActivity(uri: string, genesisFile: string): Promise<ExplorerActivity> {
  const w = await new Wallet(uri).init();
  const bobAddr = A.secp256k1.publicKeyBytesToAddress(A.secp256k1.getPublicKey(BOB_KEY));
  const bob = A.utils.format('X', 'local', bobAddr);
  const xTransfer = await w.issueX(
    A.avm.newBaseTx(w.ctx, [w.addr], await w.xUTXOs(), [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 12_500_000_000n, [bobAddr])]),
  );

  // AVAX from X to C: an X-Chain ExportTx, then the C-Chain's atomic ImportTx to ewoq's EVM address.
  const cID = (await call(`${uri}/ext/info`, 'info.getBlockchainID', { alias: 'C' })).blockchainID as string;
  const xExport = await w.issueX(
    A.avm.newExportTx(w.ctx, cID, [w.addr], await w.xUTXOs(), [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 2_000_000_000n, [w.addr])]),
  );
  const cApi = new A.evm.EVMApi(uri);
  const { utxos: fromX } = await cApi.getUTXOs({ addresses: [w.cAddr], sourceChain: 'X' });
  const importTx = A.evm.newImportTxFromBaseFee(w.ctx, A.utils.hexToBuffer(EWOQ), [w.addr], fromX, w.ctx.xBlockchainID, await cApi.getBaseFee());
  await A.addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] });
  const cImport = (await cApi.issueSignedTx(importTx.getSignedTx())).txID as string;

  const subnetID = await w.issueP(A.pvm.e.newCreateSubnetTx({ ...(await w.common()), subnetOwners: [w.addr] }, w.ctx));
  const genesis = JSON.parse(readFileSync(genesisFile, 'utf8'));
  genesis.config.chainId = 77777;
  const convertedChainID = await w.issueP(
    A.pvm.e.newCreateChainTx(
      { ...(await w.common()), subnetId: subnetID, chainName: 'convl1', vmId: SUBNET_EVM, fxIds: [], genesisData: genesis, subnetAuth: [0] },
      w.ctx,
    ),
    [EWOQ_KEY],
  );
  const validator = await nodeAsL1Validator(w);
  const conversionTx = await w.issueP(
    A.pvm.e.newConvertSubnetToL1Tx(
      {
        ...(await w.common()),
        subnetId: subnetID,
        chainId: convertedChainID,
        address: A.utils.hexToBuffer('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'),
        validators: [validator],
        subnetAuth: [0],
      },
      w.ctx,
    ),
    [EWOQ_KEY],
  );

  const c = await makeActivity(`${uri}/ext/bc/C/rpc`, 43112);
  const l1 = await makeActivity(`${uri}/ext/bc/myl1/rpc`, 99999);
  const id = async (alias: string) => (await call(`${uri}/ext/info`, 'info.getBlockchainID', { alias })).blockchainID as string;
  const cChainID = await id('C');
  const l1ChainID = await id('myl1');
  const icm = await makeIcm(uri, A.utils.base58check.decode(cChainID), A.utils.base58check.decode(l1ChainID));
  const relayed = await relayedMessage(uri, cChainID, l1ChainID);
  return { xTransfer, xExport, cImport, bob, subnetID, convertedChainID, conversionTx, c, l1, icm, relayed, cChainID, l1ChainID };
}

/** A message from ewoq on C to a receiver on the L1, sent through the messenger and delivered by the relayer: its ID. */
async function relayedMessage(uri: string, cChainID: string, l1ChainID: string): Promise<string> {
  const C = evmClients(uri, 'C', 43112);
  const L1 = evmClients(uri, 'myl1', 99999);
  const receiver = fixture('IcmReceiver');
  const deployed = await L1.client.waitForTransactionReceipt({
    hash: await L1.wallet.deployContract({ abi: receiver.abi as Abi, bytecode: receiver.bytecode, chain: L1.chain, account: ewoq }),
  });
  const data = sendMessageData(l1ChainID, getAddress(deployed.contractAddress!), '0x68656c6c6f');
  const sent = await C.client.waitForTransactionReceipt({ hash: await C.wallet.sendTransaction({ to: MESSENGER, data, chain: C.chain, account: ewoq }) });
  const id = sent.logs.find((l) => l.topics[0] === SEND_TOPIC)!.topics[1]!;
  const delivered = await until(
    async () =>
      ((await call(`${uri}/ext/emulator`, 'emulator.icmMessages', { source: cChainID })).messages as Array<{ id: string; state: string }>).find(
        (m) => m.id === id,
      ),
    (m) => m?.state === 'delivered',
  );
  if (delivered?.state !== 'delivered') throw new Error(`the relayer did not deliver ${id}: ${JSON.stringify(delivered)}`);
  return id;
}
