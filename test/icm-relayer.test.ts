// ICM on a started node with its defaults (--icm): the messenger is placed on the C-Chain and the
// L1 at start-up, and the relayer inside the node delivers every message with no step in between.
// Through viem: C → L1, L1 → C, a chain to itself, a ping answered by a pong, a receiver that
// reverts and its retry, a restricted relayer list, requiredGasLimit over the block gas limit, a
// message to an unknown chain, the controls (pause, resume, deliver, drop, delay, retry), the relayer's
// health check, and the Data API's listing from pending to delivered.
import { join } from 'node:path';
import { type Abi, decodeEventLog, getAddress, type Hex, type Log, type TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSENGER_ABI } from '../src/vms/evm/icm/messenger.js';
import { REGISTRY_ABI, REGISTRY_ADDRESS } from '../src/vms/evm/icm/registry.js';
import { RELAYER_ADDRESS, RELAYER_KEY } from '../src/relayer/key.js';
import { rpc, startTestNode, type TestNode } from './helpers.js';
import { evmClients, ewoq, hexID, MESSENGER, sendMessageData, sleep, until } from './support/evm.js';
import { fixture } from './support/solc.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const abi = MESSENGER_ABI as unknown as Abi;
const receiverFixture = fixture('IcmReceiver');
const pingFixture = fixture('IcmPingPong');
const receiverAbi = receiverFixture.abi as Abi;

describe('ICM on by default: the messenger placed, the relayer delivering', () => {
  let node: TestNode;
  let cID: string;
  let l1ID: string;

  const side = (alias: string, id: number) => evmClients(node.uri, alias, id);
  const C = () => side('C', 43112);
  const L1 = () => side('myl1', 99999);
  type Side = ReturnType<typeof C>;
  const emulator = async (method: string, params: unknown = {}) => {
    const reply = await rpc(`${node.uri}/ext/emulator`, `emulator.${method}`, params);
    return reply.json;
  };

  async function deploy(s: Side, f: typeof receiverFixture): Promise<Hex> {
    const hash = await s.wallet.deployContract({ abi: f.abi as Abi, bytecode: f.bytecode, chain: s.chain, account: ewoq });
    return getAddress((await s.client.waitForTransactionReceipt({ hash })).contractAddress!);
  }

  /** sendCrossChainMessage from ewoq on `s`; the message's ID. */
  async function send(s: Side, destination: string, to: Hex, message: Hex, opts: { gas?: bigint; allowed?: Hex[] } = {}) {
    const data = sendMessageData(destination, to, message, opts);
    const hash = await s.wallet.sendTransaction({ to: MESSENGER, data, chain: s.chain, account: ewoq });
    const receipt = await s.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const sent = events(receipt).find((e) => e.eventName === 'SendCrossChainMessage')!;
    return { id: sent.topics[1] as Hex, receipt };
  }

  const events = (receipt: TransactionReceipt) =>
    receipt.logs
      .filter((l: Log) => getAddress(l.address) === MESSENGER)
      .map((l: Log) => {
        const { eventName, args } = decodeEventLog({ abi, data: l.data, topics: l.topics as [Hex, ...Hex[]] });
        return { eventName, args: args as unknown as Record<string, unknown>, topics: l.topics };
      });

  const record = async (id: Hex) => {
    const all = (await emulator('icmMessages', { limit: 1000 })).result.messages as Array<Record<string, string>>;
    return all.find((m) => m.id === id.toLowerCase());
  };
  const settledRecord = (id: Hex, state = 'delivered') =>
    until(
      () => record(id),
      (r) => r?.state === state,
    );
  const read = (s: Side, address: Hex, functionName: string) => s.client.readContract({ address, abi: receiverAbi, functionName }) as Promise<unknown>;

  beforeAll(async () => {
    // Health checks every 100 ms: the relayer's funds check is read soon after it changes.
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE], healthCheckFrequency: '100ms' });
    const idOf = async (alias: string) => (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias })).json.result.blockchainID as string;
    cID = await idOf('C');
    l1ID = await idOf('myl1');
  });
  afterAll(() => node.stop());

  it('places the messenger on the C-Chain and the L1 and funds the relayer, whose key is its address', async () => {
    expect(privateKeyToAccount(`0x${Buffer.from(RELAYER_KEY).toString('hex')}`).address).toBe(RELAYER_ADDRESS);
    for (const s of [C(), L1()]) {
      expect((await s.client.getCode({ address: MESSENGER }))?.length).toBeGreaterThan(1000);
      expect(await s.client.getBalance({ address: RELAYER_ADDRESS })).toBe(1_000n * 10n ** 18n);
      expect(await s.client.getTransactionCount({ address: '0x618FEdD9A45a8C456812ecAAE70C671c6249DfaC' })).toBe(1);
      // The registry, at the tooling SDK's genesis address, lists the messenger as version 1.
      const registry = { address: REGISTRY_ADDRESS, abi: REGISTRY_ABI as unknown as Abi } as const;
      expect(await s.client.readContract({ ...registry, functionName: 'getLatestTeleporter' })).toBe(MESSENGER);
      expect(await s.client.readContract({ ...registry, functionName: 'latestVersion' })).toBe(1n);
    }
    const info = (await emulator('icmInfo')).result;
    expect(info.relayer).toBe(RELAYER_ADDRESS.toLowerCase());
    expect(info.registry).toBe(REGISTRY_ADDRESS.toLowerCase());
    expect(info.paused).toBe(false);
    expect(info.chains.map((c: { blockchainID: string }) => c.blockchainID).sort()).toEqual([cID, l1ID].sort());
  });

  it('delivers C → L1 with no step in between, the receiver called by the messenger', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    const { id } = await send(C(), l1ID, receiver, '0x68656c6c6f');
    const received = await until(
      () => read(L1(), receiver, 'received'),
      (n) => n === 1n,
      2_000,
    );
    expect(received).toBe(1n);
    expect(await read(L1(), receiver, 'lastSourceBlockchainID')).toBe(hexID(cID));
    expect(await read(L1(), receiver, 'lastOriginSenderAddress')).toBe(ewoq.address);
    expect(await read(L1(), receiver, 'lastMessage')).toBe('0x68656c6c6f');
    const r = await settledRecord(id);
    expect(r).toMatchObject({ state: 'delivered', deliveredBy: 'relayer', execution: 'executed', source: cID, destination: l1ID });
    const tx = await L1().client.getTransaction({ hash: r!.txHash as Hex });
    expect(tx.from).toBe(RELAYER_ADDRESS.toLowerCase());
    expect(tx.to).toBe(MESSENGER.toLowerCase());
    const receipt = await L1().client.getTransactionReceipt({ hash: r!.txHash as Hex });
    expect(events(receipt).map((e) => e.eventName)).toEqual(['BlockchainIDInitialized', 'ReceiveCrossChainMessage', 'MessageExecuted']);
  });

  it('delivers L1 → C and a chain to itself', async () => {
    const onC = await deploy(C(), receiverFixture);
    await send(L1(), cID, onC, '0x01');
    expect(
      await until(
        () => read(C(), onC, 'received'),
        (n) => n === 1n,
        2_000,
      ),
    ).toBe(1n);
    expect(await read(C(), onC, 'lastSourceBlockchainID')).toBe(hexID(l1ID));
    const self = await deploy(L1(), receiverFixture);
    await send(L1(), l1ID, self, '0x02');
    expect(
      await until(
        () => read(L1(), self, 'received'),
        (n) => n === 1n,
        2_000,
      ),
    ).toBe(1n);
    expect(await read(L1(), self, 'lastSourceBlockchainID')).toBe(hexID(l1ID));
  });

  it('answers a ping with a pong: a message sent from inside a delivery is delivered too', async () => {
    const a = await deploy(C(), pingFixture);
    const b = await deploy(L1(), pingFixture);
    const hash = await C().wallet.writeContract({
      address: a,
      abi: pingFixture.abi as Abi,
      functionName: 'ping',
      args: [hexID(l1ID), b],
      chain: C().chain,
      account: ewoq,
    });
    await C().client.waitForTransactionReceipt({ hash });
    const pong = await until(
      () => C().client.readContract({ address: a, abi: pingFixture.abi as Abi, functionName: 'lastMessage' }),
      (m) => m === '0x706f6e67',
      3_000,
    );
    expect(pong).toBe('0x706f6e67');
  });

  it('records a receiver that reverts as failed execution and goes on; retryMessageExecution runs it later', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    const l1 = L1();
    await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({ address: receiver, abi: receiverAbi, functionName: 'setFailing', args: [true], chain: l1.chain, account: ewoq }),
    });
    const { id } = await send(C(), l1ID, receiver, '0xdead');
    const r = await settledRecord(id);
    expect(r).toMatchObject({ state: 'delivered', execution: 'failed' });
    // The relayer goes on: the next message is delivered.
    const other = await deploy(L1(), receiverFixture);
    await send(C(), l1ID, other, '0xbeef');
    expect(
      await until(
        () => read(L1(), other, 'received'),
        (n) => n === 1n,
        2_000,
      ),
    ).toBe(1n);
    // The failed one, retried by anyone once the receiver works.
    const failed = events(await l1.client.getTransactionReceipt({ hash: r!.txHash as Hex })).find((e) => e.eventName === 'MessageExecutionFailed')!;
    await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({ address: receiver, abi: receiverAbi, functionName: 'setFailing', args: [false], chain: l1.chain, account: ewoq }),
    });
    const retry = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({
        address: MESSENGER,
        abi,
        functionName: 'retryMessageExecution',
        args: [hexID(cID), failed.args.message],
        chain: l1.chain,
        account: ewoq,
      }),
    });
    expect(retry.status).toBe('success');
    expect(await read(L1(), receiver, 'lastMessage')).toBe('0xdead');
  });

  it('skips a message whose allowed relayers exclude it (icmDeliver is refused), and one over the block gas limit', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    const { id } = await send(C(), l1ID, receiver, '0x01', { allowed: [ewoq.address] });
    const r = await settledRecord(id, 'skipped');
    expect(r?.reason).toBe(`the relayer ${RELAYER_ADDRESS.toLowerCase()} is not in the message's allowedRelayerAddresses`);
    const refused = await emulator('icmDeliver', { messageID: id });
    expect(refused.error.message).toContain('is not in the message');
    const big = await send(C(), l1ID, receiver, '0x01', { gas: 100_000_000n });
    expect((await settledRecord(big.id, 'skipped'))?.reason).toMatch(/^requiredGasLimit 100000000 exceeds the destination's block gas limit/);
    expect(await read(L1(), receiver, 'received')).toBe(0n);
  });

  it('keeps a message to an unknown chain unroutable (pending in the Data API)', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    const { id } = await send(C(), unknown, ewoq.address, '0x01');
    const r = await until(
      () => record(id),
      (x) => x !== undefined,
    );
    expect(r?.state).toBe('unroutable');
    const listed = await until(
      async () =>
        ((await (await fetch(`${node.uri}/v1/icm/messages?pageSize=100`)).json()) as { messages: Array<{ messageId: string; status: string }> }).messages,
      (ms) => ms.some((m) => m.messageId === id),
    );
    expect(listed.find((m) => m.messageId === id)?.status).toBe('pending');
  });

  it('pauses, delivers one on demand, drops one, delays by blocks, and resumes', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    expect((await emulator('icmPause')).result.paused).toBe(true);
    const first = await send(C(), l1ID, receiver, '0x01');
    const second = await send(C(), l1ID, receiver, '0x02');
    const third = await send(C(), l1ID, receiver, '0x03');
    await sleep(300);
    expect(await read(L1(), receiver, 'received')).toBe(0n);
    expect((await record(first.id))?.state).toBe('queued');
    // Out of order: the second first.
    const delivered = (await emulator('icmDeliver', { messageID: second.id })).result;
    expect(delivered.state).toBe('sent');
    expect(
      await until(
        () => read(L1(), receiver, 'lastMessage'),
        (m) => m === '0x02',
        2_000,
      ),
    ).toBe('0x02');
    expect((await emulator('icmDrop', { messageID: first.id })).result.state).toBe('dropped');
    // The third waits two more L1 blocks once resumed.
    expect((await emulator('icmDelay', { messageID: third.id, blocks: 2 })).result.dueHeight).toBeDefined();
    await emulator('icmResume');
    await sleep(300);
    expect(await read(L1(), receiver, 'received')).toBe(1n);
    for (let i = 0; i < 2; i++) await rpc(L1().url, 'evm_mine', []);
    expect(
      await until(
        () => read(L1(), receiver, 'lastMessage'),
        (m) => m === '0x03',
        2_000,
      ),
    ).toBe('0x03');
    expect((await record(first.id))?.state).toBe('dropped');
    expect(await read(L1(), receiver, 'received')).toBe(2n);
    // A delay for every new message: it waits two more blocks of its destination, then goes.
    expect((await emulator('icmDelay', { blocks: 2 })).result.delayBlocks).toBe(2);
    const delayed = await send(C(), l1ID, receiver, '0x04');
    expect(
      await until(
        () => record(delayed.id),
        (r) => r?.state === 'queued',
      ),
    ).toMatchObject({ state: 'queued' });
    await sleep(300);
    expect(await read(L1(), receiver, 'received')).toBe(2n);
    for (let i = 0; i < 2; i++) await rpc(L1().url, 'evm_mine', []);
    expect(
      await until(
        () => read(L1(), receiver, 'lastMessage'),
        (m) => m === '0x04',
        2_000,
      ),
    ).toBe('0x04');
    expect((await emulator('icmDelay', { blocks: 0 })).result.delayBlocks).toBe(0);
  });

  it('goes back with the node on evm_revert: a message delivered after the snapshot is gone, and a new one is delivered', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    const snapshot = (await rpc(C().url, 'evm_snapshot', [])).json.result;
    const { id } = await send(C(), l1ID, receiver, '0x01');
    expect((await settledRecord(id))?.state).toBe('delivered');
    expect(await read(L1(), receiver, 'received')).toBe(1n);
    expect((await rpc(C().url, 'evm_revert', [snapshot])).json.result).toBe(true);
    expect(await read(L1(), receiver, 'received')).toBe(0n);
    expect(await record(id)).toBeUndefined();
    // The same message (same nonce, same ID) sent again after the revert is delivered once.
    const again = await send(C(), l1ID, receiver, '0x02');
    expect(again.id).toBe(id);
    expect((await settledRecord(id))?.state).toBe('delivered');
    expect(await read(L1(), receiver, 'lastMessage')).toBe('0x02');
    expect(await read(L1(), receiver, 'received')).toBe(1n);
  });

  it('on evm_revert keeps the queued messages of the snapshot and forgets those found since', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    await emulator('icmPause');
    const kept = await send(C(), l1ID, receiver, '0x0c');
    expect((await record(kept.id))?.state).toBe('queued');
    // Only blocks without messages since the snapshot: the relayer's cursors moved, its records did not.
    let snapshot = (await rpc(C().url, 'evm_snapshot', [])).json.result;
    await C().client.waitForTransactionReceipt({ hash: await C().wallet.sendTransaction({ to: receiver, value: 0n, chain: C().chain, account: ewoq }) });
    expect((await rpc(C().url, 'evm_revert', [snapshot])).json.result).toBe(true);
    // A message found since the snapshot, queued while paused, goes with the revert.
    snapshot = (await rpc(C().url, 'evm_snapshot', [])).json.result;
    const gone = await send(C(), l1ID, receiver, '0x0d');
    expect((await record(gone.id))?.state).toBe('queued');
    expect((await rpc(C().url, 'evm_revert', [snapshot])).json.result).toBe(true);
    expect(await record(gone.id)).toBeUndefined();
    await emulator('icmResume');
    expect((await settledRecord(kept.id))?.state).toBe('delivered');
    await sleep(300);
    expect(await read(L1(), receiver, 'received')).toBe(1n);
    expect(await read(L1(), receiver, 'lastMessage')).toBe('0x0c');
    expect(await record(gone.id)).toBeUndefined();
  });

  it('reverts the node while the relayer delivers a block of messages, round after round, without a hang', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    const c = C();
    for (let round = 0; round < 4; round++) {
      const snapshot = (await rpc(c.url, 'evm_snapshot', [])).json.result;
      await rpc(c.url, 'evm_setAutomine', [false]);
      const nonce = await c.client.getTransactionCount({ address: ewoq.address, blockTag: 'pending' });
      for (let i = 0; i < 12; i++) {
        await c.wallet.sendTransaction({
          to: MESSENGER,
          data: sendMessageData(l1ID, receiver, '0x01'),
          chain: c.chain,
          account: ewoq,
          nonce: nonce + i,
          gas: 300_000n,
        });
      }
      await rpc(c.url, 'evm_mine', []);
      await sleep(5 + round * 5);
      const reverted = await Promise.race([rpc(c.url, 'evm_revert', [snapshot]), sleep(10_000).then(() => undefined)]);
      expect(reverted?.json.result).toBe(true);
      await rpc(c.url, 'evm_setAutomine', [true]);
    }
    // The relayer still works.
    const { id } = await send(C(), l1ID, receiver, '0x02');
    expect((await settledRecord(id))?.state).toBe('delivered');
  });

  it('delivers two messages asked for at once, a dropped one on demand, and one whose tx left the pool', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    await emulator('icmPause');
    const a = await send(C(), l1ID, receiver, '0x0a');
    const b = await send(C(), l1ID, receiver, '0x0b');
    const dropped = await send(C(), l1ID, receiver, '0x0c');
    await until(
      () => record(dropped.id),
      (r) => r?.state === 'queued',
    );
    const both = await Promise.all([emulator('icmDeliver', { messageID: a.id }), emulator('icmDeliver', { messageID: b.id })]);
    expect(both.map((r) => r.result?.state)).toEqual(['sent', 'sent']);
    expect((await emulator('icmDrop', { messageID: dropped.id })).result.state).toBe('dropped');
    expect((await emulator('icmDeliver', { messageID: dropped.id })).result.state).toBe('sent');
    expect(
      await until(
        () => read(L1(), receiver, 'received'),
        (n) => n === 3n,
      ),
    ).toBe(3n);
    for (const m of [a, b, dropped]) expect((await settledRecord(m.id))?.state).toBe('delivered');
    // A delivery tx dropped from the pool before it was mined is sent again.
    const l1 = L1();
    await rpc(l1.url, 'evm_setAutomine', [false]);
    await emulator('icmResume');
    const lost = await send(C(), l1ID, receiver, '0x0d');
    const sent = await until(
      () => record(lost.id),
      (r) => r?.state === 'sent',
    );
    expect((await rpc(l1.url, 'anvil_dropTransaction', [sent!.txHash])).json.result).toBe(sent!.txHash);
    await rpc(l1.url, 'evm_mine', []);
    const again = await until(
      () => record(lost.id),
      (r) => r?.state === 'sent' && r.txHash !== sent!.txHash,
    );
    expect(again?.attempts).toBe(1);
    expect(again?.reason).toBeUndefined();
    await rpc(l1.url, 'evm_setAutomine', [true]);
    await rpc(l1.url, 'evm_mine', []);
    expect((await settledRecord(lost.id))?.state).toBe('delivered');
    expect(await read(L1(), receiver, 'received')).toBe(4n);
  });

  it('skips a delivery whose tx would exceed the block gas limit, and delivers the next in the same batch', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    await emulator('icmPause');
    // 19.9M fits the L1's 20M gas limit, its delivery tx (19.9M + some 411,000) does not.
    const big = await send(C(), l1ID, receiver, '0x01', { gas: 19_900_000n });
    const after = await send(C(), l1ID, receiver, '0x02');
    await until(
      () => record(after.id),
      (r) => r?.state === 'queued',
    );
    await emulator('icmResume');
    expect((await settledRecord(big.id, 'skipped'))?.reason).toMatch(/^the delivery needs \d+ gas, over the destination's block gas limit 20000000$/);
    expect((await settledRecord(after.id))?.state).toBe('delivered');
    expect(await read(L1(), receiver, 'lastMessage')).toBe('0x02');
  });

  it('delivers a message queued behind 16 that are skipped, with no other block to wake it', async () => {
    const receiver = await deploy(L1(), receiverFixture);
    await emulator('icmPause');
    for (let i = 0; i < 16; i++) await send(C(), l1ID, receiver, '0x01', { allowed: [ewoq.address] });
    const last = await send(C(), l1ID, receiver, '0x02');
    await until(
      () => record(last.id),
      (r) => r?.state === 'queued',
    );
    await emulator('icmResume');
    expect((await settledRecord(last.id))?.state).toBe('delivered');
  });

  it('refuses bad control input with a clear error', async () => {
    expect((await emulator('icmMessages', { state: 'bogus' })).error.message).toBe(
      'state must be one of queued, sent, delivered, failed, dropped, skipped, unroutable, got "bogus"',
    );
    expect((await emulator('icmDeliver', { messageID: '0x12' })).error.message).toBe('messageID must be a 32-byte 0x hex ICM message ID, got "0x12"');
    expect((await emulator('icmDrop', { messageID: `0x${'00'.repeat(32)}` })).error.message).toBe(
      `no ICM message 0x${'00'.repeat(32)} is known to the relayer`,
    );
    expect((await emulator('icmPause', { chain: 'nope' })).error.message).toBe('chain nope is not a chain the ICM relayer follows');
  });

  it('fails its health check with a clear text when the relayer cannot pay, and recovers', async () => {
    const l1 = L1();
    const health = async () => (await rpc(`${node.uri}/ext/health`, 'health.health', { tags: [] })).json.result.checks['icm-relayer'];
    expect((await health()).error).toBeUndefined();
    await rpc(l1.url, 'anvil_setBalance', [RELAYER_ADDRESS, '0x0']);
    const receiver = await deploy(L1(), receiverFixture);
    const { id } = await send(C(), l1ID, receiver, '0x01');
    const r = await until(
      () => record(id),
      (x) => x?.reason?.includes('insufficient funds') === true,
    );
    expect(r?.state).toBe('queued');
    const check = await until(health, (c) => c.error !== undefined);
    expect(check.error).toContain(`the ICM relayer ${RELAYER_ADDRESS.toLowerCase()} cannot pay for deliveries on ${l1ID}`);
    await rpc(l1.url, 'anvil_setBalance', [RELAYER_ADDRESS, '0x3635c9adc5dea00000']);
    await rpc(l1.url, 'evm_mine', []);
    expect(
      await until(
        () => read(L1(), receiver, 'received'),
        (n) => n === 1n,
        3_000,
      ),
    ).toBe(1n);
  });
});

describe('--icm-relayer=false and --icm-relayer-delay', () => {
  it('start the relayer paused, with every new message delayed by that many blocks', async () => {
    const node = await startTestNode({ dbType: 'memdb', icmRelayer: false, icmRelayerDelay: 3 });
    try {
      const info = (await rpc(`${node.uri}/ext/emulator`, 'emulator.icmInfo', {})).json.result;
      expect(info).toMatchObject({ paused: true, pausedChains: [], delayBlocks: 3 });
    } finally {
      await node.stop();
    }
  });
});

describe('--icm=false', () => {
  it('places nothing, runs no relayer and has neither its controls nor its health check', async () => {
    const node = await startTestNode({ dbType: 'memdb', icm: false, l1: [FIXTURE] });
    try {
      for (const alias of ['C', 'myl1']) {
        expect((await rpc(`${node.uri}/ext/bc/${alias}/rpc`, 'eth_getCode', [MESSENGER, 'latest'])).json.result).toBe('0x');
        expect((await rpc(`${node.uri}/ext/bc/${alias}/rpc`, 'eth_getBalance', [RELAYER_ADDRESS, 'latest'])).json.result).toBe('0x0');
      }
      expect((await rpc(`${node.uri}/ext/emulator`, 'emulator.icmInfo', {})).json.error.message).toBe('rpc: can\'t find method "emulator.IcmInfo"');
      const checks = (await rpc(`${node.uri}/ext/health`, 'health.health', {})).json.result.checks;
      expect(Object.keys(checks)).not.toContain('icm-relayer');
    } finally {
      await node.stop();
    }
  });
});
