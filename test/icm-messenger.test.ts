// ICM through the emulator's own TeleporterMessenger (contracts/icm): the committed artifact equals
// the compiler's output; then, against an in-process node with the C-Chain and an L1, the runtime is
// placed at 0x253b… as avalanche-cli's genesis does (code, slots 0 and 1 = 1), and messages are sent
// and relayed by hand the way icm-relayer does (aggregate signature, receiveCrossChainMessage(0, reward)
// with the signed message as the warp predicate, gas = requiredGasLimit + the relayer's overhead). The
// expectations (selectors, topics, the message ID, error texts) are docs/research/icm.md's, computed
// here independently of the contract.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  type Abi,
  decodeErrorResult,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type Log,
  parseAbiParameters,
  type TransactionReceipt,
  toEventSelector,
  toFunctionSelector,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCB58, encodeCB58 } from '../src/encoding/cb58.js';
import { addressedCall, unsignedMessage } from '../src/vms/components/warp/message.js';
import { MESSENGER_ABI, MESSENGER_RUNTIME } from '../src/vms/evm/icm/messenger.js';
import { post, rpc, startTestNode, type TestNode, tempDir } from './helpers.js';
import { predicateChunks } from './support/known.js';
import { evmClients, ewoq, MESSENGER } from './support/evm.js';
import { compileSources, fixture } from './support/solc.js';

const ICM_DIR = resolve(import.meta.dirname, '../contracts/icm');
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const WARP: Hex = '0x0200000000000000000000000000000000000005';
const abi = MESSENGER_ABI as unknown as Abi;
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ''), 'hex'));

/** TeleporterMessage's canonical ABI type (docs/research/icm.md §2.1). */
const MESSAGE_TYPE = parseAbiParameters('(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)');

interface Receipt {
  receivedMessageNonce: bigint;
  relayerRewardAddress: Hex;
}
interface Message {
  messageNonce: bigint;
  originSenderAddress: Hex;
  destinationBlockchainID: Hex;
  destinationAddress: Hex;
  requiredGasLimit: bigint;
  allowedRelayerAddresses: readonly Hex[];
  receipts: readonly Receipt[];
  message: Hex;
}

/** abi.encode(TeleporterMessage), built from the type string rather than the contract's ABI. */
const encodeMessage = (m: Message) =>
  encodeAbiParameters(MESSAGE_TYPE, [
    [
      m.messageNonce,
      m.originSenderAddress,
      m.destinationBlockchainID,
      m.destinationAddress,
      m.requiredGasLimit,
      m.allowedRelayerAddresses,
      m.receipts.map((r) => [r.receivedMessageNonce, r.relayerRewardAddress] as const),
      m.message,
    ],
  ]);

/** ICM's message ID: keccak256(abi.encode(messenger, source, destination, nonce)). */
const messageID = (source: Hex, destination: Hex, nonce: bigint) =>
  keccak256(encodeAbiParameters(parseAbiParameters('address, bytes32, bytes32, uint256'), [MESSENGER, source, destination, nonce]));

/**
 * icm-relayer's gas limit for receiveCrossChainMessage (gas_utils.go, Granite costs): the receiver's
 * gas, then the predicate (512 per chunk, twice), 35 per AddressedCall byte, 2,500 per receipt, 250 per
 * signer, VerifyPredicateBase + GetVerifiedWarpMessageBase, and 250,000 for the messenger itself.
 */
function relayerGasLimit(requiredGasLimit: bigint, signedLength: number, addressedCallLength: number, receipts: number, signers: number): bigint {
  const chunks = Math.floor((signedLength + 1 + 31) / 32);
  return requiredGasLimit + BigInt(chunks * 512 * 2 + addressedCallLength * 35 + receipts * 2_500 + signers * 250 + 125_000 + 750 + 250_000);
}

/** What a test sends: the destination, the receiver and the message, the rest defaulted. */
interface SendInput {
  destination: Hex;
  to: Hex;
  message: Hex;
  gas?: bigint;
  fee?: { token: Hex; amount: bigint };
  allowed?: Hex[];
}

/** sendCrossChainMessage's calldata for `input` (no fee, 100,000 gas and any relayer by default). */
function sendData(input: SendInput): Hex {
  return encodeFunctionData({
    abi,
    functionName: 'sendCrossChainMessage',
    args: [
      {
        destinationBlockchainID: input.destination,
        destinationAddress: input.to,
        feeInfo: { feeTokenAddress: input.fee?.token ?? '0x0000000000000000000000000000000000000000', amount: input.fee?.amount ?? 0n },
        requiredGasLimit: input.gas ?? 100_000n,
        allowedRelayerAddresses: input.allowed ?? [],
        message: input.message,
      },
    ],
  });
}

describe('the committed messenger artifact', () => {
  it('equals what solc makes of contracts/icm today (regenerate: node scripts/compile-icm.mjs)', () => {
    const files = readdirSync(ICM_DIR)
      .filter((f) => f.endsWith('.sol'))
      .sort();
    const compiled = compileSources(Object.fromEntries(files.map((f) => [f, readFileSync(join(ICM_DIR, f), 'utf8')])));
    const messenger = compiled['TeleporterMessenger.sol']!.TeleporterMessenger!;
    expect(messenger.deployedBytecode).toBe(MESSENGER_RUNTIME);
    expect(JSON.stringify(messenger.abi)).toBe(JSON.stringify(MESSENGER_ABI));
    // Fits the EIP-170 limit.
    expect((MESSENGER_RUNTIME.length - 2) / 2).toBeLessThanOrEqual(24_576);
  });

  it("has ITeleporterMessenger v1.0.0's selectors and topics", () => {
    const selectors = Object.fromEntries(
      abi.filter((f) => f.type === 'function').map((f) => [(f as { name: string }).name, toFunctionSelector(f as never).slice(2)]),
    );
    expect(selectors).toEqual({
      WARP_MESSENGER: 'b771b3bc',
      addFeeAmount: '8ac0fd04',
      blockchainID: 'd127dc9b',
      calculateMessageID: 'a8898181',
      checkRelayerRewardAmount: 'c473eef8',
      getFeeInfo: 'e69d606a',
      getMessageHash: '399b77da',
      getNextMessageID: 'df20e8bc',
      getReceiptAtIndex: '892bf412',
      getReceiptQueueSize: '2bc8b0bf',
      getRelayerRewardAddress: '2e27c223',
      initializeBlockchainID: '0af5b4ff',
      messageNonce: 'ecc70428',
      messageReceived: 'ebc3b1ba',
      receiptQueues: 'e6e67bd5',
      receiveCrossChainMessage: 'ccb5f809',
      receivedFailedMessageHashes: '860a3b06',
      redeemRelayerRewards: '22296c3a',
      retryMessageExecution: 'fc2d6197',
      retrySendCrossChainMessage: '8245a1b0',
      sendCrossChainMessage: '62448850',
      sendSpecifiedReceipts: 'a9a85614',
      sentMessageInfo: '2ca40f55',
    });
    const topics = Object.fromEntries(abi.filter((e) => e.type === 'event').map((e) => [(e as { name: string }).name, toEventSelector(e as never).slice(2)]));
    expect(topics).toEqual({
      AddFeeAmount: 'c1bfd1f1208927dfbd414041dcb5256e6c9ad90dd61aec3249facbd34ff7b3e1',
      BlockchainIDInitialized: '1eac640109dc937d2a9f42735a05f794b39a5e3759d681951d671aabbce4b104',
      MessageExecuted: '34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c',
      MessageExecutionFailed: '4619adc1017b82e02eaefac01a43d50d6d8de4460774bc370c3ff0210d40c985',
      ReceiptReceived: 'd13a7935f29af029349bed0a2097455b91fd06190a30478c575db3f31e00bf57',
      ReceiveCrossChainMessage: '292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34',
      RelayerRewardsRedeemed: '3294c84e5b0f29d9803655319087207bc94f4db29f7927846944822773780b88',
      SendCrossChainMessage: '2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8',
    });
  });

  it("computes the digest's message-ID vector and the relayer's gas example", () => {
    expect(messageID(`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`, 1n)).toBe('0x935e96d77ef577de76c5bd79564a3cf9f8cfdf14d9272274dff30733453483eb');
    // A 5-byte C → L1 message, no receipts, one signer: signed 597 bytes, AddressedCall 450.
    expect(relayerGasLimit(0n, 597, 450, 0, 1)).toBe(411_206n);
  });
});

describe('messages between the C-Chain and an L1 through the messenger at 0x253b…, relayed by hand', () => {
  let node: TestNode;
  /** Where deliveries are paid: a fresh account, funded later on C to redeem. */
  const reward = privateKeyToAccount(generatePrivateKey());
  const receiverFixture = fixture('IcmReceiver');
  const receiverAbi = receiverFixture.abi as Abi;
  let cID: Hex;
  let l1ID: Hex;
  let l1Subnet: string;
  let receiver: Hex;

  const clients = (alias: string, id: number) => evmClients(node.uri, alias, id);
  const C = () => clients('C', 43112);
  const L1 = () => clients('myl1', 99999);
  type Side = ReturnType<typeof C>;

  const blockchainIDOf = async (alias: string): Promise<string> =>
    (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias })).json.result.blockchainID;

  /** Places the runtime as avalanche-cli's genesis does: the code, and the two guard slots at 1. */
  async function place(url: string) {
    const ok = async (method: string, params: unknown[]) => expect((await rpc(url, method, params)).json.error).toBeUndefined();
    await ok('anvil_setCode', [MESSENGER, MESSENGER_RUNTIME]);
    await ok('anvil_setStorageAt', [MESSENGER, '0x0', `0x${'1'.padStart(64, '0')}`]);
    await ok('anvil_setStorageAt', [MESSENGER, '0x1', `0x${'1'.padStart(64, '0')}`]);
  }

  async function transact(
    side: Side,
    to: Hex,
    data: Hex,
    options: { account?: typeof ewoq; gas?: bigint; accessList?: { address: Hex; storageKeys: Hex[] }[] } = {},
  ) {
    const account = options.account ?? ewoq;
    const hash = await side.walletOf(account).sendTransaction({ to, data, gas: options.gas, accessList: options.accessList, chain: side.chain, account });
    return side.client.waitForTransactionReceipt({ hash });
  }
  const callMessenger = (side: Side, functionName: string, args: unknown[] = []) =>
    side.client.readContract({ address: MESSENGER, abi, functionName, args }) as Promise<unknown>;

  /** The messenger's events in a receipt, decoded, in log order. */
  const events = (receipt: TransactionReceipt) =>
    receipt.logs
      .filter((l: Log) => getAddress(l.address) === MESSENGER)
      .map((l: Log) => {
        const { eventName, args } = decodeEventLog({ abi, data: l.data, topics: l.topics as [Hex, ...Hex[]] });
        return { eventName, args: args as unknown as Record<string, unknown>, topics: l.topics };
      });

  /** sendCrossChainMessage from `account` on `side`. */
  async function send(side: Side, input: SendInput, account = ewoq) {
    const data = sendData(input);
    const receipt = await transact(side, MESSENGER, data, { account });
    expect(receipt.status).toBe('success');
    const sent = events(receipt).find((e) => e.eventName === 'SendCrossChainMessage')!;
    return { receipt, id: sent.topics[1] as Hex, message: sent.args.message as Message, fee: sent.args.feeInfo };
  }

  /** Signs a send's warp message as icm-relayer does and builds the delivery tx's pieces. */
  async function signed(source: Side, receipt: TransactionReceipt, signingSubnet: string) {
    const warpID = receipt.logs.find((l) => getAddress(l.address) === getAddress(WARP))!.topics[2]!;
    const reply = await post(
      source.url,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessageAggregateSignature', params: [encodeCB58(fromHex(warpID)), 67, signingSubnet] }),
    );
    expect(reply.json.error).toBeUndefined();
    const bytes = fromHex(reply.json.result);
    const unsigned = fromHex(
      (await post(source.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessage', params: [encodeCB58(fromHex(warpID))] }))).json.result,
    );
    // After the unsigned message: the signature's type ID (4 bytes), the signers' bitset (length-prefixed), then the BLS signature.
    const bitset = bytes.subarray(
      unsigned.length + 8,
      unsigned.length + 8 + new DataView(bytes.buffer, bytes.byteOffset + unsigned.length + 4, 4).getUint32(0),
    );
    const signers = [...bitset].reduce((n, b) => n + b.toString(2).replaceAll('0', '').length, 0);
    const accessList = [{ address: WARP, storageKeys: predicateChunks(bytes).map((c) => `0x${hexOf(c)}` as Hex) }];
    // The AddressedCall is the unsigned message less its codec version, network ID, chain ID and length prefix.
    return { bytes, accessList, signers, addressedCallLength: unsigned.length - 42 };
  }

  /** receiveCrossChainMessage(0, reward) on `destination`, with icm-relayer's access list and gas. */
  async function relay(
    source: Side,
    destination: Side,
    sent: { receipt: TransactionReceipt; message: Message },
    signingSubnet: string,
    account = ewoq,
    rewardAddress: Hex = reward.address,
  ) {
    const s = await signed(source, sent.receipt, signingSubnet);
    const gas = relayerGasLimit(sent.message.requiredGasLimit, s.bytes.length, s.addressedCallLength, sent.message.receipts.length, s.signers);
    const data = encodeFunctionData({ abi, functionName: 'receiveCrossChainMessage', args: [0, rewardAddress] });
    const receipt = await transact(destination, MESSENGER, data, { account, gas, accessList: s.accessList });
    return { receipt, gas, data, accessList: s.accessList };
  }

  /** The Error(string) text an eth_call of `data` reverts with. */
  async function revertText(side: Side, data: Hex, from: Hex, accessList?: { address: Hex; storageKeys: Hex[] }[], to: Hex = MESSENGER) {
    const reply = await rpc(side.url, 'eth_call', [{ from, to, data, accessList, gas: '0x989680' }, 'latest']);
    expect(reply.json.error).toBeDefined();
    const decoded = decodeErrorResult({ abi: [], data: reply.json.error.data as Hex });
    return decoded.args[0] as string;
  }

  beforeAll(async () => {
    const configDir = tempDir();
    for (const chain of ['myl1', 'C']) {
      mkdirSync(join(configDir, chain));
      writeFileSync(join(configDir, chain, 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
    }
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE], chainConfigDir: configDir, icm: false });
    cID = `0x${hexOf(decodeCB58(await blockchainIDOf('C')))}`;
    const l1 = await blockchainIDOf('myl1');
    l1ID = `0x${hexOf(decodeCB58(l1))}`;
    l1Subnet = (await rpc(`${node.uri}/ext/bc/P`, 'platform.validatedBy', { blockchainID: l1 })).json.result.subnetID;
    await place(C().url);
    await place(L1().url);
    const l1Side = L1();
    const deployed = await l1Side.client.waitForTransactionReceipt({
      hash: await l1Side.wallet.deployContract({ abi: receiverAbi, bytecode: receiverFixture.bytecode, chain: l1Side.chain, account: ewoq }),
    });
    receiver = getAddress(deployed.contractAddress!);
  });
  afterAll(() => node.stop());

  it('is placed on both chains, its ID lazily unset until first use', async () => {
    for (const side of [C(), L1()]) {
      expect(await side.client.getCode({ address: MESSENGER })).toBe(MESSENGER_RUNTIME);
      expect(await callMessenger(side, 'blockchainID')).toBe(`0x${'0'.repeat(64)}`);
      expect(await callMessenger(side, 'WARP_MESSENGER')).toBe(getAddress(WARP));
      expect(await callMessenger(side, 'calculateMessageID', [`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`, 1n])).toBe(
        '0x935e96d77ef577de76c5bd79564a3cf9f8cfdf14d9272274dff30733453483eb',
      );
    }
    const data = encodeFunctionData({ abi, functionName: 'getNextMessageID', args: [l1ID] });
    expect(await revertText(C(), data, ewoq.address)).toBe('TeleporterMessenger: zero blockchain ID');
  });

  let first: Awaited<ReturnType<typeof send>>;

  it('sends C → L1: SendCrossChainMessage with the ICM message ID, and the warp log carrying abi.encode(TeleporterMessage)', async () => {
    first = await send(C(), { destination: l1ID, to: receiver, message: '0x68656c6c6f' });
    const expectedID = messageID(cID, l1ID, 1n);
    const logs = events(first.receipt);
    expect(logs.map((e) => e.eventName)).toEqual(['BlockchainIDInitialized', 'SendCrossChainMessage']);
    expect(logs[0]!.topics[1]).toBe(cID);
    expect(logs[1]!.topics).toEqual([
      toEventSelector('SendCrossChainMessage(bytes32,bytes32,(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes),(address,uint256))'),
      expectedID,
      l1ID,
    ]);
    const message: Message = {
      messageNonce: 1n,
      originSenderAddress: ewoq.address,
      destinationBlockchainID: l1ID,
      destinationAddress: receiver,
      requiredGasLimit: 100_000n,
      allowedRelayerAddresses: [],
      receipts: [],
      message: '0x68656c6c6f',
    };
    expect(first.message).toEqual(message);
    expect(first.fee).toEqual({ feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n });

    // The warp precompile's log, last: the unsigned message from the messenger, wrapping the encoded message.
    const warpLog = first.receipt.logs.at(-1)!;
    expect(getAddress(warpLog.address)).toBe(getAddress(WARP));
    const unsigned = unsignedMessage(12345, fromHex(cID), addressedCall(fromHex(MESSENGER), fromHex(encodeMessage(message))));
    expect(warpLog.topics).toEqual([
      toEventSelector('SendWarpMessage(address,bytes32,bytes)'),
      `0x${MESSENGER.slice(2).toLowerCase().padStart(64, '0')}`,
      `0x${hexOf(sha256(unsigned))}`,
    ]);
    expect(warpLog.data.slice(2 + 128, 2 + 128 + unsigned.length * 2)).toBe(hexOf(unsigned));

    expect(await callMessenger(C(), 'messageNonce')).toBe(1n);
    expect(await callMessenger(C(), 'getMessageHash', [expectedID])).toBe(keccak256(encodeMessage(message)));
    expect(await callMessenger(C(), 'getNextMessageID', [l1ID])).toBe(messageID(cID, l1ID, 2n));
  });

  it('delivers it on the L1 as icm-relayer would, executes the receiver, and refuses a second delivery', async () => {
    const { receipt, gas, data, accessList } = await relay(C(), L1(), first, l1Subnet);
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBeLessThan(gas);
    const id = messageID(cID, l1ID, 1n);
    const logs = events(receipt);
    expect(logs.map((e) => e.eventName)).toEqual(['BlockchainIDInitialized', 'ReceiveCrossChainMessage', 'MessageExecuted']);
    expect(logs[1]!.topics).toEqual([logs[1]!.topics[0], id, cID, `0x${ewoq.address.slice(2).toLowerCase().padStart(64, '0')}`]);
    expect(logs[1]!.args.rewardRedeemer).toBe(reward.address);
    expect(logs[1]!.args.message).toEqual(first.message);
    expect(logs[2]!.topics.slice(1)).toEqual([id, cID]);

    const read = (functionName: string) => L1().client.readContract({ address: receiver, abi: receiverAbi, functionName });
    expect(await read('lastSourceBlockchainID')).toBe(cID);
    expect(await read('lastOriginSenderAddress')).toBe(ewoq.address);
    expect(await read('lastMessage')).toBe('0x68656c6c6f');
    expect(await read('received')).toBe(1n);
    expect(await callMessenger(L1(), 'messageReceived', [id])).toBe(true);
    expect(await callMessenger(L1(), 'getRelayerRewardAddress', [id])).toBe(reward.address);
    expect(await callMessenger(L1(), 'getReceiptQueueSize', [cID])).toBe(1n);
    expect(await callMessenger(L1(), 'getReceiptAtIndex', [cID, 0n])).toEqual({ receivedMessageNonce: 1n, relayerRewardAddress: reward.address });

    expect(await revertText(L1(), data, ewoq.address, accessList)).toBe('TeleporterMessenger: message already received');
    // As a mined tx too: it reverts, and the receiver is not called again.
    const again = await transact(L1(), MESSENGER, data, { gas, accessList });
    expect(again.status).toBe('reverted');
    expect(await read('received')).toBe(1n);
  });
  it('records a failing execution (MessageExecutionFailed) and lets anyone retry it once the receiver works', async () => {
    const setFailing = (on: boolean) =>
      transact(L1(), receiver, encodeFunctionData({ abi: receiverAbi, functionName: 'setFailing', args: [on] })).then((r) => expect(r.status).toBe('success'));
    await setFailing(true);
    const sent = await send(C(), { destination: l1ID, to: receiver, message: '0x0102' });
    const id = messageID(cID, l1ID, 2n);
    expect(sent.id).toBe(id);
    const { receipt } = await relay(C(), L1(), sent, l1Subnet);
    expect(receipt.status).toBe('success');
    const logs = events(receipt);
    expect(logs.map((e) => e.eventName)).toEqual(['ReceiveCrossChainMessage', 'MessageExecutionFailed']);
    expect(logs[1]!.topics.slice(1)).toEqual([id, cID]);
    expect(logs[1]!.args.message).toEqual(sent.message);
    // The delivery stands: received, its receipt queued, the failure kept for a retry.
    expect(await callMessenger(L1(), 'messageReceived', [id])).toBe(true);
    expect(await callMessenger(L1(), 'getReceiptQueueSize', [cID])).toBe(2n);
    expect(await callMessenger(L1(), 'receivedFailedMessageHashes', [id])).toBe(keccak256(encodeMessage(sent.message)));

    const retry = (message: Message) => encodeFunctionData({ abi, functionName: 'retryMessageExecution', args: [cID, message] });
    expect(await revertText(L1(), retry(sent.message), ewoq.address)).toBe('TeleporterMessenger: retry execution failed');
    expect(await revertText(L1(), retry({ ...sent.message, message: '0x0103' }), ewoq.address)).toBe('TeleporterMessenger: invalid message hash');
    await setFailing(false);
    // Anyone may retry: here an account that neither sent nor relayed it.
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect((await rpc(L1().url, 'anvil_setBalance', [stranger.address, '0xde0b6b3a7640000'])).json.error).toBeUndefined();
    const retried = await transact(L1(), MESSENGER, retry(sent.message), { account: stranger });
    expect(retried.status).toBe('success');
    expect(events(retried).map((e) => [e.eventName, ...e.topics.slice(1)])).toEqual([['MessageExecuted', id, cID]]);
    expect(await L1().client.readContract({ address: receiver, abi: receiverAbi, functionName: 'lastMessage' })).toBe('0x0102');
    expect(await L1().client.readContract({ address: receiver, abi: receiverAbi, functionName: 'received' })).toBe(2n);
    expect(await callMessenger(L1(), 'receivedFailedMessageHashes', [id])).toBe(`0x${'0'.repeat(64)}`);
    expect(await revertText(L1(), retry(sent.message), ewoq.address)).toBe('TeleporterMessenger: message not found');
  });
  let token: Hex;
  const relayer2 = privateKeyToAccount(generatePrivateKey());

  it('takes a fee in an ERC-20 on send (and more through addFeeAmount), held until the receipt comes back', async () => {
    const tokenFixture = fixture('TestToken');
    const tokenAbi = tokenFixture.abi as Abi;
    const c = C();
    token = getAddress(
      (
        await c.client.waitForTransactionReceipt({
          hash: await c.wallet.deployContract({
            abi: tokenAbi,
            bytecode: tokenFixture.bytecode,
            args: ['Fee', 'FEE', 10n ** 24n],
            chain: c.chain,
            account: ewoq,
          }),
        })
      ).contractAddress!,
    );
    const approve = await transact(c, token, encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [MESSENGER, 10n ** 21n] }));
    expect(approve.status).toBe('success');

    const sent = await send(c, { destination: l1ID, to: receiver, message: '0x03', fee: { token, amount: 1_000n } });
    const id = messageID(cID, l1ID, 3n);
    // The token's Transfer comes before the messenger's event, the warp log last.
    expect(sent.receipt.logs.map((l) => [getAddress(l.address), l.topics[0]])).toEqual([
      [token, toEventSelector('Transfer(address,address,uint256)')],
      [
        MESSENGER,
        toEventSelector(
          'SendCrossChainMessage(bytes32,bytes32,(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes),(address,uint256))',
        ),
      ],
      [getAddress(WARP), toEventSelector('SendWarpMessage(address,bytes32,bytes)')],
    ]);
    expect(sent.fee).toEqual({ feeTokenAddress: token, amount: 1_000n });
    expect(await callMessenger(c, 'getFeeInfo', [id])).toEqual([token, 1_000n]);
    expect(await c.client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [MESSENGER] })).toBe(1_000n);

    const add = await transact(c, MESSENGER, encodeFunctionData({ abi, functionName: 'addFeeAmount', args: [id, token, 500n] }));
    expect(events(add).map((e) => [e.eventName, e.topics[1], e.args.updatedFeeInfo])).toEqual([
      ['AddFeeAmount', id, { feeTokenAddress: token, amount: 1_500n }],
    ]);
    const addData = (fee: Hex, amount: bigint, message: Hex = id) => encodeFunctionData({ abi, functionName: 'addFeeAmount', args: [message, fee, amount] });
    expect(await revertText(c, addData(token, 0n), ewoq.address)).toBe('TeleporterMessenger: zero additional fee amount');
    expect(await revertText(c, addData(receiver, 1n), ewoq.address)).toBe('TeleporterMessenger: invalid fee asset contract address');
    expect(await revertText(c, addData(token, 1n, messageID(cID, l1ID, 99n)), ewoq.address)).toBe('TeleporterMessenger: message not found');

    const { receipt } = await relay(C(), L1(), sent, l1Subnet);
    expect(events(receipt).map((e) => e.eventName)).toEqual(['ReceiveCrossChainMessage', 'MessageExecuted']);
  });

  it('refuses a relayer outside allowedRelayerAddresses, and takes the listed one', async () => {
    const sent = await send(C(), { destination: l1ID, to: receiver, message: '0x04', allowed: [relayer2.address] });
    expect(sent.message.allowedRelayerAddresses).toEqual([relayer2.address]);
    const s = await signed(C(), sent.receipt, l1Subnet);
    const data = encodeFunctionData({ abi, functionName: 'receiveCrossChainMessage', args: [0, reward.address] });
    expect(await revertText(L1(), data, ewoq.address, s.accessList)).toBe('TeleporterMessenger: unauthorized relayer');
    expect((await rpc(L1().url, 'anvil_setBalance', [relayer2.address, '0xde0b6b3a7640000'])).json.error).toBeUndefined();
    const { receipt } = await relay(C(), L1(), sent, l1Subnet, relayer2);
    expect(receipt.status).toBe('success');
    const logs = events(receipt);
    expect(logs.map((e) => e.eventName)).toEqual(['ReceiveCrossChainMessage', 'MessageExecuted']);
    expect(logs[0]!.topics[3]).toBe(`0x${relayer2.address.slice(2).toLowerCase().padStart(64, '0')}`);
  });

  it('refuses a delivery with less gas than requiredGasLimit left, so the relayer can retry with more', async () => {
    const sent = await send(C(), { destination: l1ID, to: receiver, message: '0x05', gas: 2_000_000n });
    const s = await signed(C(), sent.receipt, l1Subnet);
    const data = encodeFunctionData({ abi, functionName: 'receiveCrossChainMessage', args: [0, reward.address] });
    const reply = await rpc(L1().url, 'eth_call', [{ from: ewoq.address, to: MESSENGER, data, accessList: s.accessList, gas: '0x1e8480' }, 'latest']);
    expect(decodeErrorResult({ abi: [], data: reply.json.error.data as Hex }).args[0]).toBe('TeleporterMessenger: insufficient gas');
    const { receipt } = await relay(C(), L1(), sent, l1Subnet);
    expect(events(receipt).map((e) => e.eventName)).toEqual(['ReceiveCrossChainMessage', 'MessageExecuted']);
  });

  it('carries the receipts back on the next L1 → C message: ReceiptReceived on C, and the relayer redeems its fee', async () => {
    const l1 = L1();
    expect(await callMessenger(l1, 'getReceiptQueueSize', [cID])).toBe(5n);
    // A second receiver, on C.
    const c = C();
    const cReceiver = getAddress(
      (
        await c.client.waitForTransactionReceipt({
          hash: await c.wallet.deployContract({ abi: receiverAbi, bytecode: receiverFixture.bytecode, chain: c.chain, account: ewoq }),
        })
      ).contractAddress!,
    );
    const back = await send(l1, { destination: cID, to: cReceiver, message: '0xbacc' });
    expect(back.id).toBe(messageID(l1ID, cID, 1n));
    // At most five receipts ride on one message, oldest first.
    expect(back.message.receipts).toEqual([1n, 2n, 3n, 4n, 5n].map((n) => ({ receivedMessageNonce: n, relayerRewardAddress: reward.address })));
    expect(await callMessenger(l1, 'getReceiptQueueSize', [cID])).toBe(0n);

    const { receipt } = await relay(l1, c, back, '');
    expect(receipt.status).toBe('success');
    const logs = events(receipt);
    expect(logs.map((e) => e.eventName)).toEqual([
      'ReceiptReceived',
      'ReceiptReceived',
      'ReceiptReceived',
      'ReceiptReceived',
      'ReceiptReceived',
      'ReceiveCrossChainMessage',
      'MessageExecuted',
    ]);
    const zero = '0x0000000000000000000000000000000000000000';
    const rewardTopic = `0x${reward.address.slice(2).toLowerCase().padStart(64, '0')}`;
    expect(logs.slice(0, 5).map((e) => [...e.topics.slice(1), e.args.feeInfo])).toEqual(
      [1n, 2n, 3n, 4n, 5n].map((n) => [
        messageID(cID, l1ID, n),
        l1ID,
        rewardTopic,
        { feeTokenAddress: n === 3n ? token : zero, amount: n === 3n ? 1_500n : 0n },
      ]),
    );
    expect(await c.client.readContract({ address: cReceiver, abi: receiverAbi, functionName: 'lastSourceBlockchainID' })).toBe(l1ID);
    expect(await callMessenger(c, 'getMessageHash', [messageID(cID, l1ID, 3n)])).toBe(`0x${'0'.repeat(64)}`);
    expect(await callMessenger(c, 'checkRelayerRewardAmount', [reward.address, token])).toBe(1_500n);
    // Retrying the send of an acknowledged message finds nothing.
    const retrySend = encodeFunctionData({ abi, functionName: 'retrySendCrossChainMessage', args: [first.message] });
    expect(await revertText(c, retrySend, ewoq.address)).toBe('TeleporterMessenger: message not found');

    expect((await rpc(c.url, 'anvil_setBalance', [reward.address, '0xde0b6b3a7640000'])).json.error).toBeUndefined();
    const redeemData = encodeFunctionData({ abi, functionName: 'redeemRelayerRewards', args: [token] });
    const redeemed = await transact(c, MESSENGER, redeemData, { account: reward });
    expect(redeemed.status).toBe('success');
    expect(events(redeemed).map((e) => [e.eventName, ...e.topics.slice(1), e.args.amount])).toEqual([
      ['RelayerRewardsRedeemed', rewardTopic, `0x${token.slice(2).toLowerCase().padStart(64, '0')}`, 1_500n],
    ]);
    const tokenAbi = fixture('TestToken').abi as Abi;
    expect(await c.client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [reward.address] })).toBe(1_500n);
    expect(await callMessenger(c, 'checkRelayerRewardAmount', [reward.address, token])).toBe(0n);
    expect(await revertText(c, redeemData, reward.address)).toBe('TeleporterMessenger: no reward to redeem');
  });
  it('refuses what the real messenger refuses, with its texts', async () => {
    const c = C();
    const l1 = L1();
    const receive = encodeFunctionData({ abi, functionName: 'receiveCrossChainMessage', args: [0, reward.address] });
    // No warp predicate in the tx.
    expect(await revertText(l1, receive, ewoq.address)).toBe('TeleporterMessenger: invalid warp message');
    // A warp message that some other sender (here an EOA) sent.
    const warpAbi = [
      {
        type: 'function',
        name: 'sendWarpMessage',
        stateMutability: 'nonpayable',
        inputs: [{ name: 'payload', type: 'bytes' }],
        outputs: [{ name: '', type: 'bytes32' }],
      },
    ] as const;
    const direct = await transact(c, WARP, encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: [encodeMessage(first.message)] }));
    expect(await revertText(l1, receive, ewoq.address, (await signed(c, direct, l1Subnet)).accessList)).toBe(
      'TeleporterMessenger: invalid origin sender address',
    );
    // A message for another chain (C itself), shown to the L1.
    const elsewhere = await send(c, { destination: cID, to: receiver, message: '0x07' });
    expect(await revertText(l1, receive, ewoq.address, (await signed(c, elsewhere.receipt, l1Subnet)).accessList)).toBe(
      'TeleporterMessenger: invalid destination chain ID',
    );
    // A fee without a token.
    const noToken = sendData({
      destination: l1ID,
      to: receiver,
      message: '0x',
      gas: 0n,
      fee: { token: '0x0000000000000000000000000000000000000000', amount: 1n },
    });
    expect(await revertText(c, noToken, ewoq.address)).toBe('TeleporterMessenger: zero fee asset contract address');
    // Views that require something to exist.
    const unknown = messageID(l1ID, cID, 999n);
    expect(await revertText(c, encodeFunctionData({ abi, functionName: 'getRelayerRewardAddress', args: [unknown] }), ewoq.address)).toBe(
      'TeleporterMessenger: message not received',
    );
    expect(await revertText(c, encodeFunctionData({ abi, functionName: 'getReceiptAtIndex', args: [l1ID, 1n] }), ewoq.address)).toBe(
      'ReceiptQueue: index out of bounds',
    );
    expect(await callMessenger(c, 'getReceiptAtIndex', [l1ID, 0n])).toEqual({ receivedMessageNonce: 1n, relayerRewardAddress: reward.address });
  });

  it('re-emits an outstanding message with retrySendCrossChainMessage: the same warp message again', async () => {
    const c = C();
    const sent = await send(c, { destination: l1ID, to: receiver, message: '0x08' });
    const warpID = (r: TransactionReceipt) => r.logs.find((l) => getAddress(l.address) === getAddress(WARP))!.topics[2];
    const data = (message: Message) => encodeFunctionData({ abi, functionName: 'retrySendCrossChainMessage', args: [message] });
    const again = await transact(c, MESSENGER, data(sent.message));
    expect(again.status).toBe('success');
    expect(events(again).map((e) => [e.eventName, ...e.topics.slice(1), e.args.message])).toEqual([['SendCrossChainMessage', sent.id, l1ID, sent.message]]);
    expect(warpID(again)).toBe(warpID(sent.receipt));
    expect(await revertText(c, data({ ...sent.message, requiredGasLimit: 1n }), ewoq.address)).toBe('TeleporterMessenger: invalid message hash');
    // It carries the receipt C owes the L1 for the L1 → C message, which pays out there.
    expect(sent.message.receipts).toEqual([{ receivedMessageNonce: 1n, relayerRewardAddress: reward.address }]);
    // Either copy delivers it, once.
    const { receipt } = await relay(c, L1(), { receipt: again, message: sent.message }, l1Subnet);
    expect(events(receipt).map((e) => [e.eventName, e.topics[1]])).toEqual([
      ['ReceiptReceived', messageID(l1ID, cID, 1n)],
      ['ReceiveCrossChainMessage', sent.id],
      ['MessageExecuted', sent.id],
    ]);
    const s = await signed(c, sent.receipt, l1Subnet);
    expect(
      await revertText(L1(), encodeFunctionData({ abi, functionName: 'receiveCrossChainMessage', args: [0, reward.address] }), ewoq.address, s.accessList),
    ).toBe('TeleporterMessenger: message already received');
  });

  it('sends chosen receipts with sendSpecifiedReceipts: a receipt-only message, executing nothing, paying nothing twice', async () => {
    const l1 = L1();
    const specified = (source: Hex, ids: Hex[]) =>
      encodeFunctionData({
        abi,
        functionName: 'sendSpecifiedReceipts',
        args: [source, ids, { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n }, []],
      });
    expect(await revertText(l1, specified(cID, [messageID(cID, l1ID, 999n)]), ewoq.address)).toBe('TeleporterMessenger: receipt not found');
    expect(await revertText(l1, specified(l1ID, [messageID(cID, l1ID, 1n)]), ewoq.address)).toBe('TeleporterMessenger: message ID not from source blockchain');
    const queued = await callMessenger(l1, 'getReceiptQueueSize', [cID]);

    // Message 3's receipt (already paid on C) and message 7's (not yet: it went back in no message).
    const r = await transact(l1, MESSENGER, specified(cID, [messageID(cID, l1ID, 3n), messageID(cID, l1ID, 7n)]));
    expect(r.status).toBe('success');
    const sent = events(r).find((e) => e.eventName === 'SendCrossChainMessage')!;
    const message = sent.args.message as Message;
    expect(message).toMatchObject({
      destinationBlockchainID: cID,
      destinationAddress: '0x0000000000000000000000000000000000000000',
      requiredGasLimit: 0n,
      message: '0x',
      receipts: [3n, 7n].map((n) => ({ receivedMessageNonce: n, relayerRewardAddress: reward.address })),
    });
    // The queue is left as it was.
    expect(await callMessenger(l1, 'getReceiptQueueSize', [cID])).toBe(queued);

    const { receipt } = await relay(l1, C(), { receipt: r, message }, '');
    expect(receipt.status).toBe('success');
    expect(events(receipt).map((e) => [e.eventName, e.topics[1]])).toEqual([
      ['ReceiptReceived', messageID(cID, l1ID, 7n)],
      ['ReceiveCrossChainMessage', sent.topics[1]],
    ]);
  });

  it('reverts every guarded call while the guard slots are unset (placed without them)', async () => {
    const c = C();
    const bare: Hex = '0x00000000000000000000000000000000000ca11e';
    expect((await rpc(c.url, 'anvil_setCode', [bare, MESSENGER_RUNTIME])).json.error).toBeUndefined();
    const calldata = sendData({
      destination: l1ID,
      to: receiver,
      message: '0x',
      gas: 0n,
      fee: { token: '0x0000000000000000000000000000000000000000', amount: 0n },
    });
    expect(await revertText(c, calldata, ewoq.address, undefined, bare)).toBe('ReentrancyGuards: sender reentrancy');
    const receive = encodeFunctionData({ abi, functionName: 'receiveCrossChainMessage', args: [0, reward.address] });
    expect(await revertText(c, receive, ewoq.address, undefined, bare)).toBe('ReentrancyGuards: receiver reentrancy');
  });
  it('lets a receiver answer from inside its delivery (ping → pong), the pong carrying the ping’s receipt', async () => {
    const c = C();
    const l1 = L1();
    const app = fixture('IcmPingPong');
    const appAbi = app.abi as Abi;
    const deploy = async (side: Side) =>
      getAddress(
        (
          await side.client.waitForTransactionReceipt({
            hash: await side.wallet.deployContract({ abi: appAbi, bytecode: app.bytecode, chain: side.chain, account: ewoq }),
          })
        ).contractAddress!,
      );
    const onC = await deploy(c);
    const onL1 = await deploy(l1);
    const pinged = await transact(c, onC, encodeFunctionData({ abi: appAbi, functionName: 'ping', args: [l1ID, onL1] }));
    expect(pinged.status).toBe('success');
    const ping = events(pinged).find((e) => e.eventName === 'SendCrossChainMessage')!;
    const pingMessage = ping.args.message as Message;
    expect(pingMessage).toMatchObject({ originSenderAddress: onC, destinationAddress: onL1, message: '0x70696e67' });

    const delivered = (await relay(c, l1, { receipt: pinged, message: pingMessage }, l1Subnet)).receipt;
    expect(delivered.status).toBe('success');
    const onL1Events = events(delivered);
    // (After any receipts the ping carried back.)
    const unreceipted = onL1Events.filter((e) => e.eventName !== 'ReceiptReceived');
    expect(unreceipted.map((e) => e.eventName)).toEqual(['ReceiveCrossChainMessage', 'SendCrossChainMessage', 'MessageExecuted']);
    const pong = unreceipted[1]!;
    const pongMessage = pong.args.message as Message;
    expect(pongMessage).toMatchObject({ originSenderAddress: onL1, destinationAddress: onC, destinationBlockchainID: cID, message: '0x706f6e67' });
    // The ping's receipt was queued before the ping ran, so the pong already carries it.
    expect(pongMessage.receipts.at(-1)).toEqual({ receivedMessageNonce: pingMessage.messageNonce, relayerRewardAddress: reward.address });

    const back = (await relay(l1, c, { receipt: delivered, message: pongMessage }, '')).receipt;
    const onCEvents = events(back);
    expect(onCEvents.map((e) => e.eventName).slice(-2)).toEqual(['ReceiveCrossChainMessage', 'MessageExecuted']);
    expect(onCEvents.filter((e) => e.eventName === 'ReceiptReceived').map((e) => e.topics[1])).toContain(ping.topics[1]);
    expect(await c.client.readContract({ address: onC, abi: appAbi, functionName: 'lastMessage' })).toBe('0x706f6e67');
    expect(await c.client.readContract({ address: onC, abi: appAbi, functionName: 'lastOriginSenderAddress' })).toBe(onL1);
  });

  it('measures the fee actually received, and fails with OpenZeppelin’s texts for a token that lies', async () => {
    const c = C();
    const fake = fixture('IcmFakeToken');
    const fakeAbi = fake.abi as Abi;
    const address = getAddress(
      (
        await c.client.waitForTransactionReceipt({
          hash: await c.wallet.deployContract({ abi: fakeAbi, bytecode: fake.bytecode, chain: c.chain, account: ewoq }),
        })
      ).contractAddress!,
    );
    const calldata = sendData({ destination: l1ID, to: receiver, message: '0x', gas: 0n, fee: { token: address, amount: 5n } });
    expect(await revertText(c, calldata, ewoq.address)).toBe('SafeERC20TransferFrom: balance not increased');
    await transact(c, address, encodeFunctionData({ abi: fakeAbi, functionName: 'setRefuse', args: [true] }));
    expect(await revertText(c, calldata, ewoq.address)).toBe('SafeERC20: ERC20 operation did not succeed');
  });

  it('records a message to an address without code as failed, and will not retry it there', async () => {
    const nowhere = getAddress('0x000000000000000000000000000000000000dead');
    const sent = await send(C(), { destination: l1ID, to: nowhere, message: '0x09' });
    const { receipt } = await relay(C(), L1(), sent, l1Subnet);
    // (After the pong's receipt, which this message carries back.)
    expect(events(receipt).map((e) => e.eventName)).toEqual(['ReceiptReceived', 'ReceiveCrossChainMessage', 'MessageExecutionFailed']);
    const retry = encodeFunctionData({ abi, functionName: 'retryMessageExecution', args: [cID, sent.message] });
    expect(await revertText(L1(), retry, ewoq.address)).toBe('TeleporterMessenger: destination address has no code');
  });
});
