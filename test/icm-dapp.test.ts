// A real dapp pattern over the relayer inside the node, through viem: a token bridge whose home side
// on the C-Chain locks an ERC-20 and pays the relayer a fee in it, and whose remote side on an L1
// credits the recipient. The fee's receipt comes back on the next L1 → C message, the relayer's
// reward address redeems it, and the Data API lists the message pending, then delivered, executed
// and with its receipt delivered. Then L1 → L1 between two L1s of --l1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Abi, encodeFunctionData, getAddress, type Hex, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAYER_ADDRESS, RELAYER_KEY } from '../src/relayer/key.js';
import { MESSENGER_ABI } from '../src/vms/evm/icm/messenger.js';
import { rpc, startTestNode, type TestNode, tempDir } from './helpers.js';
import { evmClients, ewoq, hexID, MESSENGER, SEND_TOPIC, until } from './support/evm.js';
import { fixture } from './support/solc.js';

const relayer = privateKeyToAccount(`0x${Buffer.from(RELAYER_KEY).toString('hex')}`);
const abi = MESSENGER_ABI as unknown as Abi;
const token = fixture('TestToken');
const home = fixture('IcmBridgeHome');
const remote = fixture('IcmBridgeRemote');
const receiver = fixture('IcmReceiver');

interface ListedMessage {
  messageId: string;
  status: string;
  messageExecuted: boolean;
  receiptDelivered: boolean;
  rewardDetails: { address: string; value: string; symbol: string };
  destinationTransaction?: { txHash: string; delivererAddress: string; rewardRedeemer: string };
}

describe('a token bridge C → L1 with fees to the relayer, and L1 → L1', () => {
  let node: TestNode;
  const ids: Record<string, string> = {};

  function side(alias: string, id: number, account = ewoq) {
    const { chain, client, wallet } = evmClients(node.uri, alias, id, account);
    return {
      client,
      async deploy(f: typeof token, args: unknown[] = []): Promise<Hex> {
        const hash = await wallet.deployContract({ abi: f.abi as Abi, bytecode: f.bytecode, args, chain, account });
        return getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress!);
      },
      async write(address: Hex, f: { abi: unknown }, functionName: string, args: unknown[]) {
        const hash = await wallet.writeContract({ address, abi: f.abi as Abi, functionName, args, chain, account });
        const receipt = await client.waitForTransactionReceipt({ hash });
        expect(receipt.status).toBe('success');
        return receipt;
      },
      read: (address: Hex, f: { abi: unknown }, functionName: string, args: unknown[] = []) =>
        client.readContract({ address, abi: f.abi as Abi, functionName, args }) as Promise<unknown>,
    };
  }
  const messages = async () => ((await (await fetch(`${node.uri}/v1/icm/messages?pageSize=100`)).json()) as { messages: ListedMessage[] }).messages;
  const listed = (id: Hex, ok: (m: ListedMessage | undefined) => boolean) => until(async () => (await messages()).find((m) => m.messageId === id), ok);

  beforeAll(async () => {
    // A second L1: the fixture under another name and EVM chain ID.
    const dir = tempDir();
    const other = join(dir, 'otherl1.json');
    const genesis = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'myl1.json'), 'utf8'));
    genesis.config.chainId = 99998;
    writeFileSync(other, JSON.stringify(genesis));
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [join(import.meta.dirname, '..', 'fixtures', 'myl1.json'), other] });
    for (const alias of ['C', 'myl1', 'otherl1']) ids[alias] = (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias })).json.result.blockchainID;
  });
  afterAll(() => node.stop());

  it('bridges, pays the fee, carries the receipt back and lets the relayer redeem it; the Data API follows each step', async () => {
    const C = side('C', 43112);
    const L1 = side('myl1', 99999);
    const tokenAddress = await C.deploy(token, ['Bridge Fee', 'BFT', parseEther('1000')]);
    const homeAddress = await C.deploy(home, [tokenAddress]);
    const remoteAddress = await L1.deploy(remote, [hexID(ids.C!), homeAddress]);
    await C.write(tokenAddress, token, 'approve', [homeAddress, parseEther('11')]);
    // Paused, so the Data API's listing shows the message pending before it goes.
    await rpc(`${node.uri}/ext/emulator`, 'emulator.icmPause', {});
    const sent = await C.write(homeAddress, home, 'bridge', [hexID(ids.myl1!), remoteAddress, ewoq.address, parseEther('10'), parseEther('1')]);
    const id = sent.logs.find((l) => l.topics[0] === SEND_TOPIC)!.topics[1] as Hex;
    expect(await C.read(tokenAddress, token, 'balanceOf', [MESSENGER])).toBe(parseEther('1'));
    const pending = await listed(id, (m) => m !== undefined);
    expect(pending).toMatchObject({ status: 'pending', messageExecuted: false, receiptDelivered: false });
    expect(pending?.rewardDetails).toMatchObject({ address: tokenAddress, value: parseEther('1').toString(), symbol: 'BFT' });

    await rpc(`${node.uri}/ext/emulator`, 'emulator.icmResume', {});
    expect(
      await until(
        () => L1.read(remoteAddress, remote, 'balanceOf', [ewoq.address]),
        (b) => b === parseEther('10'),
      ),
    ).toBe(parseEther('10'));
    const delivered = await listed(id, (m) => m?.status === 'delivered');
    expect(delivered).toMatchObject({ status: 'delivered', messageExecuted: true, receiptDelivered: false });
    expect(delivered?.destinationTransaction).toMatchObject({ delivererAddress: RELAYER_ADDRESS, rewardRedeemer: RELAYER_ADDRESS });

    // Any L1 → C message carries the receipt back; the reward is then the relayer's to redeem on C.
    const onC = await C.deploy(receiver);
    const back = encodeFunctionData({
      abi,
      functionName: 'sendCrossChainMessage',
      args: [
        {
          destinationBlockchainID: hexID(ids.C!),
          destinationAddress: onC,
          feeInfo: { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n },
          requiredGasLimit: 100_000n,
          allowedRelayerAddresses: [],
          message: '0x01',
        },
      ],
    });
    const l1 = evmClients(node.uri, 'myl1', 99999);
    await L1.client.waitForTransactionReceipt({ hash: await l1.wallet.sendTransaction({ to: MESSENGER, data: back, account: ewoq, chain: l1.chain }) });
    const reward = await until(
      () => C.read(MESSENGER, { abi }, 'checkRelayerRewardAmount', [RELAYER_ADDRESS, tokenAddress]),
      (r) => r === parseEther('1'),
    );
    expect(reward).toBe(parseEther('1'));
    expect((await listed(id, (m) => m?.receiptDelivered === true))?.receiptDelivered).toBe(true);

    await side('C', 43112, relayer).write(MESSENGER, { abi }, 'redeemRelayerRewards', [tokenAddress]);
    expect(await C.read(tokenAddress, token, 'balanceOf', [RELAYER_ADDRESS])).toBe(parseEther('1'));
    expect(await C.read(MESSENGER, { abi }, 'checkRelayerRewardAmount', [RELAYER_ADDRESS, tokenAddress])).toBe(0n);
  });

  it('delivers L1 → L1, signed by the source L1’s validators', async () => {
    const A = side('myl1', 99999);
    const B = side('otherl1', 99998);
    const onB = await B.deploy(receiver);
    await A.write(MESSENGER, { abi }, 'sendCrossChainMessage', [
      {
        destinationBlockchainID: hexID(ids.otherl1!),
        destinationAddress: onB,
        feeInfo: { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n },
        requiredGasLimit: 100_000n,
        allowedRelayerAddresses: [],
        message: '0x4c31',
      },
    ]);
    const got = await until(
      () => B.read(onB, receiver, 'received'),
      (n) => n === 1n,
    );
    expect(got).toBe(1n);
    expect(await B.read(onB, receiver, 'lastSourceBlockchainID')).toBe(hexID(ids.myl1!));
    expect(await B.read(onB, receiver, 'lastOriginSenderAddress')).toBe(ewoq.address);
  });
});
