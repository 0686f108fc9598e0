// The C-Chain through HTTP, as coreth answers: the genesis block byte for byte, finality, the pool's
// error texts, reverts, ACP-176 fees, the blackhole coinbase, the index, restart persistence and
// kill -9 durability. The ethers and viem suites cover the same node through real clients.
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Address } from '@ethereumjs/util';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { chainCommon } from '../src/vms/evm/rules.js';
import { post, runCli, spawnNode, startTestNode, tempDir, type TestNode } from './helpers.js';

const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const DEAD = new Address(Buffer.from('000000000000000000000000000000000000dead', 'hex'));
const common = chainCommon(43112n);

async function eth(uri: string, method: string, params: unknown[] = []): Promise<any> {
  const r = await post(`${uri}/ext/bc/C/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  return r.json;
}
const result = async (uri: string, method: string, params: unknown[] = []) => {
  const r = await eth(uri, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};

const transfer = (nonce: bigint, over: Record<string, unknown> = {}) =>
  `0x${Buffer.from(
    createFeeMarket1559Tx({ nonce, to: DEAD, value: 1n, gasLimit: 21_000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n, ...over }, { common })
      .sign(EWOQ_KEY)
      .serialize(),
  ).toString('hex')}`;

describe('C-Chain (memdb)', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
  });
  afterAll(() => node.stop());

  it("serves coreth's local genesis block, byte for byte in every field", async () => {
    const g = await result(node.uri, 'eth_getBlockByNumber', ['0x0', false]);
    expect(g.hash).toBe('0x608ddbd611241719b64642d8e152537e2a5bdf46b6ddb9e8f15340c5e007b8b1');
    expect(g.stateRoot).toBe('0x3283022557b0e7ad755ac1739dbff2937186a2ed160772ba6c6009cb327a638f');
    expect(g.size).toBe('0x256');
    expect(g.baseFeePerGas).toBe('0x34630b8a00');
    expect(Object.keys(g)).toEqual([...Object.keys(g)].sort());
    expect(await result(node.uri, 'eth_getBalance', [EWOQ, 'latest'])).toBe('0x295be96e64066972000000');
    expect(await result(node.uri, 'eth_chainId')).toBe('0xa868');
    expect(await result(node.uri, 'net_version')).toBe('43112');
  });

  it('is served at every alias of the chain and its ID', async () => {
    for (const path of ['/ext/bc/C/rpc', '/ext/bc/2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC/rpc', '/ext/bc/evm/rpc']) {
      const r = await post(`${node.uri}${path}`, '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}');
      expect(r.json).toEqual({ jsonrpc: '2.0', id: 7, result: '0xa868' });
    }
  });

  it('mines a tx at once: receipt, ACP-176 header, the whole fee to the blackhole', async () => {
    const hash = await result(node.uri, 'eth_sendRawTransaction', [transfer(0n)]);
    const receipt = await result(node.uri, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.gasUsed).toBe('0x5208');
    expect(receipt.effectiveGasPrice).toBe('0x2'); // base fee 1 wei + 1 wei tip
    const block = await result(node.uri, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(block.miner).toBe('0x0100000000000000000000000000000000000000');
    expect(block.difficulty).toBe('0x1');
    expect(block.gasLimit).toBe('0x989680');
    expect(block.baseFeePerGas).toBe('0x1');
    expect(block.extraData).toBe('0x000000000098447800000000000052080000000000000000000000000000');
    expect(block.extDataHash).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(await result(node.uri, 'eth_getBalance', ['0x0100000000000000000000000000000000000000', 'latest'])).toBe(`0x${(21_000n * 2n).toString(16)}`);
    // coreth's finality: a height past the head is an error, not null, for state reads and for the
    // block getters that pass BlockByNumber's error on; those that swallow it answer null.
    const next = `0x${(BigInt(receipt.blockNumber) + 1n).toString(16)}`;
    const unfinalized = { code: -32000, message: 'cannot query unfinalized data' };
    expect((await eth(node.uri, 'eth_getBalance', [EWOQ, next])).error).toEqual(unfinalized);
    expect((await eth(node.uri, 'eth_getBlockByNumber', [next, false])).error).toEqual(unfinalized);
    expect((await eth(node.uri, 'eth_getHeaderByNumber', [next])).error).toEqual(unfinalized);
    expect((await eth(node.uri, 'eth_getUncleByBlockNumberAndIndex', [next, '0x0'])).error).toEqual(unfinalized);
    for (const [m, params] of [
      ['eth_getBlockTransactionCountByNumber', [next]],
      ['eth_getTransactionByBlockNumberAndIndex', [next, '0x0']],
      ['eth_getUncleCountByBlockNumber', [next]],
      ['eth_getBlockReceipts', [next]],
    ] as const) {
      expect(await eth(node.uri, m, [...params]), m).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    }
    // The raw getter's hexutil.Bytes is a value: nil encodes as "0x", not null.
    expect(await eth(node.uri, 'eth_getRawTransactionByBlockNumberAndIndex', [next, '0x0'])).toEqual({ jsonrpc: '2.0', id: 1, result: '0x' });
    // The block's own receipts and raw txs, as eth_getBlockReceipts and the raw getters give them.
    const receipts = await result(node.uri, 'eth_getBlockReceipts', [receipt.blockNumber]);
    expect(receipts).toEqual([receipt]);
    expect(await result(node.uri, 'eth_getBlockReceipts', [{ blockHash: receipt.blockHash }])).toEqual([receipt]);
    const raw = await result(node.uri, 'eth_getRawTransactionByHash', [hash]);
    expect(await result(node.uri, 'eth_getRawTransactionByBlockNumberAndIndex', [receipt.blockNumber, '0x0'])).toBe(raw);
    expect(await result(node.uri, 'eth_getRawTransactionByBlockHashAndIndex', [receipt.blockHash, '0x0'])).toBe(raw);
    for (const tag of ['safe', 'finalized', 'pending']) expect((await result(node.uri, 'eth_getBlockByNumber', [tag, false])).hash).toBe(block.hash);
  });

  it("refuses bad txs with geth's codes and texts", async () => {
    const nonce = BigInt(await result(node.uri, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const err = async (raw: string) => (await eth(node.uri, 'eth_sendRawTransaction', [raw])).error;
    expect(await err(transfer(0n))).toEqual({ code: -32000, message: `nonce too low: next nonce ${nonce}, tx nonce 0` });
    expect(await err(transfer(nonce, { gasLimit: 20_000n }))).toEqual({
      code: -32000,
      message: 'intrinsic gas too low: address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC tx gas (20000), minimum needed 21000',
    });
    // ethereumjs will not build such a tx: its RLP by hand, with a dummy signature (the check comes first).
    const q = (n: bigint) => (n === 0n ? new Uint8Array() : Buffer.from(n.toString(16).padStart(2 * Math.ceil(n.toString(16).length / 2), '0'), 'hex'));
    const tipAboveCap = RLP.encode([q(43112n), q(nonce), q(10n), q(5n), q(21_000n), DEAD.bytes, q(1n), new Uint8Array(), [], q(0n), q(1n), q(1n)]);
    expect(await err(`0x02${Buffer.from(tipAboveCap).toString('hex')}`)).toEqual({
      code: -32000,
      message: 'max priority fee per gas higher than max fee per gas',
    });
    expect(await err(transfer(nonce, { value: 10n ** 30n }))).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^insufficient funds for gas \* price \+ value: balance \d+, tx cost \d+, overshot \d+$/),
    });
    expect(await err(transfer(nonce, { gasLimit: 200_000_000n }))).toEqual({
      code: -32000,
      message: 'exceeds block gas limit: tx gas (200000000) > current max gas (10000000)',
    });
    const legacy = createLegacyTx(
      { nonce, to: DEAD, gasLimit: 21_000n, gasPrice: 10n ** 9n },
      { common: new Common({ chain: Mainnet, hardfork: Hardfork.Homestead }) },
    ).sign(EWOQ_KEY);
    expect(await err(`0x${Buffer.from(legacy.serialize()).toString('hex')}`)).toEqual({
      code: -32000,
      message: 'only replay-protected (EIP-155) transactions allowed over RPC',
    });
    // A blob tx (type 3): coreth decodes it first (libevm's BlobTx.decode), then its pool, which
    // takes no blob txs, refuses it. Truncated, it is a decoding error: this test once expected
    // 'transaction type not supported' for 0x03c0, which coreth answers 'unexpected EOF'.
    // [chainId, nonce, tip, fee cap, gas, to, value, data, access list, blob fee cap, blob hashes, v, r, s]: 34 bytes.
    const blob = `0x03e2${'80'.repeat(5)}94${'11'.repeat(20)}8080c080c0808080`;
    expect(await err(blob)).toEqual({ code: -32000, message: 'transaction type not supported' });
    expect(await err('0x03c0')).toEqual({ code: -32000, message: 'unexpected EOF' });
    // A gapped tx waits; the same tx again is already known; a replacement needs the bump.
    const gapped = transfer(nonce + 1n);
    const hash = await result(node.uri, 'eth_sendRawTransaction', [gapped]);
    expect(await err(gapped)).toEqual({ code: -32000, message: 'already known' });
    expect(await err(transfer(nonce + 1n, { maxFeePerGas: 300_000_000_001n, maxPriorityFeePerGas: 1n }))).toEqual({
      code: -32000,
      message: 'replacement transaction underpriced',
    });
    expect(await result(node.uri, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect((await result(node.uri, 'eth_getTransactionByHash', [hash])).blockHash).toBeNull();
    // Filling the gap mines both.
    await result(node.uri, 'eth_sendRawTransaction', [transfer(nonce)]);
    expect((await result(node.uri, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
  });

  it('answers a send at admission: reads after it find the tx mined, sends without reads between share blocks, a tx sent twice at once is admitted once', async () => {
    let nonce = BigInt(await result(node.uri, 'eth_getTransactionCount', [EWOQ, 'latest']));
    // One by one, each reply awaited, nothing read in between: they need not wait for a block each.
    const hashes: string[] = [];
    for (let i = 0; i < 10; i++) hashes.push(await result(node.uri, 'eth_sendRawTransaction', [transfer(nonce++)]));
    const receipts = [];
    for (const h of hashes) receipts.push(await result(node.uri, 'eth_getTransactionReceipt', [h]));
    expect(receipts.map((r) => r.status)).toEqual(Array(10).fill('0x1'));
    const blocks = new Set(receipts.map((r) => r.blockNumber));
    expect(blocks.size).toBeLessThan(10);
    // A read straight after a send waits for its block, whether the send started a round or waits to share one.
    for (let i = 0; i < 3; i++) {
      const hash = await result(node.uri, 'eth_sendRawTransaction', [transfer(nonce++)]);
      expect((await result(node.uri, 'eth_getTransactionReceipt', [hash]))?.status).toBe('0x1');
      expect(await result(node.uri, 'eth_getTransactionCount', [EWOQ, 'latest'])).toBe(`0x${nonce.toString(16)}`);
    }
    // The same tx twice at once: admitted once. The other copy is "already known" while the first
    // is in the pool; if the block with the first was built before the second was read (a loaded
    // machine can deliver the two requests that far apart), it is refused as coreth refuses it once
    // its pool has reset to that block: nonce too low.
    const sent = nonce++;
    const raw = transfer(sent);
    const both = await Promise.all([eth(node.uri, 'eth_sendRawTransaction', [raw]), eth(node.uri, 'eth_sendRawTransaction', [raw])]);
    expect(both.filter((r) => r.result).length).toBe(1);
    expect([
      { code: -32000, message: 'already known' },
      { code: -32000, message: `nonce too low: next nonce ${sent + 1n}, tx nonce ${sent}` },
    ]).toContainEqual(both.find((r) => r.error)?.error);
    expect((await result(node.uri, 'eth_getTransactionReceipt', [both.find((r) => r.result).result])).status).toBe('0x1');
  });

  it('a copy checked before the block that took the first one is refused when it reaches the pool after it, as nonce too low', async () => {
    // In-process, to hold each copy's journal write (between its checks and the pool) until told.
    const started = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir(), dbType: 'memdb' });
    const chain = (started.node.cChain as unknown as { admission: { journal: { put(k: Uint8Array, v: Uint8Array): Promise<void> } } }).admission;
    const put = chain.journal.put.bind(chain.journal);
    const held: Array<() => void> = [];
    chain.journal.put = (k, v) => new Promise<void>((go) => held.push(go)).then(() => put(k, v));
    const holding = async (n: number) => {
      while (held.length < n) await new Promise((r) => setTimeout(r, 5));
    };
    try {
      const nonce = BigInt(await result(started.uri, 'eth_getTransactionCount', [EWOQ, 'latest']));
      const raw = transfer(nonce);
      const first = eth(started.uri, 'eth_sendRawTransaction', [raw]);
      await holding(1);
      // The second copy passes the checks (the first is not in the pool yet) and waits on its write.
      const second = eth(started.uri, 'eth_sendRawTransaction', [raw]);
      await holding(2);
      held[0]!();
      const hash = (await first).result;
      // The block with the first copy is built: its tx leaves the pool, the nonce moves on.
      expect((await result(started.uri, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
      held[1]!();
      expect((await second).error).toEqual({ code: -32000, message: `nonce too low: next nonce ${nonce + 1n}, tx nonce ${nonce}` });
      // Nothing of it waits in the pool: the next nonce is the one after the mined copy's.
      expect(await result(started.uri, 'eth_getTransactionCount', [EWOQ, 'pending'])).toBe(`0x${(nonce + 1n).toString(16)}`);
    } finally {
      delete (chain.journal as { put?: unknown }).put;
      await started.stop();
    }
  });

  it('reverts: code 3 with data and reason, -32000 without data', async () => {
    // PUSH32 Error("no") ... : initcode whose runtime reverts with Error(string) "no".
    const reason = `08c379a0${'20'.padStart(64, '0')}${'2'.padStart(64, '0')}${Buffer.from('no').toString('hex').padEnd(64, '0')}`;
    const runtime = `7f${reason.slice(0, 64)}6000527f${reason.slice(64, 128)}6020527f${reason.slice(128, 192)}6040527f${reason.slice(192, 256).padEnd(64, '0')}60605260646000fd`;
    const len = (runtime.length / 2).toString(16).padStart(2, '0');
    const init = `60${len}600c60003960${len}6000f3${runtime}`;
    const nonce = BigInt(await result(node.uri, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const deploy = createFeeMarket1559Tx(
      { nonce, gasLimit: 200_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, data: Buffer.from(init, 'hex') },
      { common },
    ).sign(EWOQ_KEY);
    const hash = await result(node.uri, 'eth_sendRawTransaction', [`0x${Buffer.from(deploy.serialize()).toString('hex')}`]);
    const { contractAddress } = await result(node.uri, 'eth_getTransactionReceipt', [hash]);
    const e = (await eth(node.uri, 'eth_call', [{ to: contractAddress }, 'latest'])).error;
    expect(e).toEqual({ code: 3, message: 'execution reverted: no', data: `0x${reason}` });
    expect((await eth(node.uri, 'eth_estimateGas', [{ to: contractAddress }])).error).toEqual({
      code: 3,
      message: 'execution reverted: no',
      data: `0x${reason}`,
    });
    expect((await eth(node.uri, 'eth_call', [{ to: '0x0100000000000000000000000000000000000000' }, 'latest'])).error).toEqual({
      code: -32000,
      message: 'execution reverted',
    });
  });

  it('pays no SSTORE refunds (coreth since Apricot Phase 1): 0 -> 1 -> 0 costs the full 43,212 gas', async () => {
    // PUSH1 1 PUSH1 0 SSTORE PUSH1 0 PUSH1 0 SSTORE STOP: 21,000 + 12 + 22,100 + 100; Ethereum would refund 8,642.
    const init = '600b600c600039600b6000f3' + '6001600055600060005500';
    let nonce = BigInt(await result(node.uri, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const send = async (over: Record<string, unknown>) =>
      result(node.uri, 'eth_sendRawTransaction', [
        `0x${Buffer.from(
          createFeeMarket1559Tx({ nonce: nonce++, gasLimit: 100_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, ...over }, { common })
            .sign(EWOQ_KEY)
            .serialize(),
        ).toString('hex')}`,
      ]);
    const { contractAddress } = await result(node.uri, 'eth_getTransactionReceipt', [await send({ data: Buffer.from(init, 'hex') })]);
    const receipt = await result(node.uri, 'eth_getTransactionReceipt', [await send({ to: new Address(Buffer.from(contractAddress.slice(2), 'hex')) })]);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(receipt.gasUsed)).toBe(43_212n);
  });

  it('answers fee RPCs as coreth on an idle chain', async () => {
    expect(await result(node.uri, 'eth_baseFee')).toBe('0x1');
    expect(await result(node.uri, 'eth_maxPriorityFeePerGas')).toBe('0x1');
    expect(await result(node.uri, 'eth_gasPrice')).toBe('0x2');
    const h = await result(node.uri, 'eth_feeHistory', [2, 'latest', [50]]);
    expect(h.baseFeePerGas).toHaveLength(2);
    expect(h.reward).toHaveLength(2);
    expect(await result(node.uri, 'eth_estimateGas', [{ from: EWOQ, to: DEAD.toString(), value: '0x1' }])).toBe('0x5208');
  });

  it('has no eth_accounts, no debug_* and no txpool_* without --dev; batches stop at 1000', async () => {
    for (const m of ['eth_accounts', 'debug_traceTransaction', 'txpool_content']) expect((await eth(node.uri, m)).error.code).toBe(-32601);
    const batch = JSON.stringify(Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })));
    // coreth's respondWithBatchTooLarge: one error, in a batch, with the id of the batch's first call.
    expect((await post(`${node.uri}/ext/bc/C/rpc`, batch)).json).toEqual([{ jsonrpc: '2.0', id: 0, error: { code: -32600, message: 'batch too large' } }]);
  });

  it('reports a healthy C check', async () => {
    const health = (await (await fetch(`${node.uri}/ext/health`)).json()) as { checks: Record<string, { error?: unknown }> };
    expect(health.checks.C.error).toBeUndefined();
  });
});

describe("C-Chain with coreth's chain config (--chain-config-dir/C/config.json)", () => {
  it('turns namespaces on and off by eth-apis, and moves the ACP-176 target toward gas-target by Q per block', async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'C'));
    writeFileSync(join(configDir, 'C', 'config.json'), JSON.stringify({ 'eth-apis': ['eth', 'internal-tx-pool'], 'gas-target': 5_000_000 }));
    const node = await spawnNode(['--db-type=memdb', `--chain-config-dir=${configDir}`]);
    try {
      expect((await result(node.uri, 'txpool_status')).pending).toBe('0x0');
      for (const m of ['net_version', 'web3_clientVersion', 'debug_traceTransaction']) expect((await eth(node.uri, m)).error.code).toBe(-32601);
      const first = await result(node.uri, 'eth_getTransactionReceipt', [await result(node.uri, 'eth_sendRawTransaction', [transfer(0n)])]);
      const b1 = await result(node.uri, 'eth_getBlockByNumber', [first.blockNumber, false]);
      // capacity 9,979,000; excess 21,000 rescaled to the new target (1,000,977 gas/s): 21,020; q = 2^15.
      expect(b1.extraData).toBe('0x0000000000984478000000000000521c0000000000008000000000000000');
      expect(b1.gasLimit).toBe('0x989680');
      const second = await result(node.uri, 'eth_getTransactionReceipt', [await result(node.uri, 'eth_sendRawTransaction', [transfer(1n)])]);
      const b2 = await result(node.uri, 'eth_getBlockByNumber', [second.blockNumber, false]);
      expect(b2.gasLimit).toBe(`0x${(10n * 1_000_977n).toString(16)}`); // ten times the new target
      expect(b2.extraData.slice(34, 50)).toBe('0000000000010000'); // q = 2 · 2^15
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  });

  it("serves each of coreth's three debug APIs only when eth-apis names it", async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'C'));
    writeFileSync(join(configDir, 'C', 'config.json'), JSON.stringify({ 'eth-apis': ['eth', 'debug-tracer'] }));
    const node = await spawnNode(['--db-type=memdb', `--chain-config-dir=${configDir}`]);
    try {
      // The tracers (debug-tracer); ethapi's raw getters are internal-debug's, getBadBlocks the debug API's.
      expect((await eth(node.uri, 'debug_traceBlockByNumber', ['0x0'])).error.message).toBe('genesis is not traceable');
      for (const m of ['debug_getRawHeader', 'debug_getBadBlocks']) expect((await eth(node.uri, m, ['0x0'])).error.code, m).toBe(-32601);
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  });

  it('refuses a gas-target that is not a uint64 with the JSON decoder text, and stops as for any critical chain', async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'C'));
    writeFileSync(join(configDir, 'C', 'config.json'), '{"gas-target":"fast"}');
    const run = await runCli(['--db-type=memdb', '--http-port=0', `--data-dir=${tempDir()}`, `--chain-config-dir=${configDir}`]);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('json: cannot unmarshal string into Go struct field Config.gas-target of type gas.Gas');
  });
});

describe('C-Chain persistence (leveldb)', () => {
  it('finds every block, receipt and balance after a restart, and the index follows', async () => {
    const dataDir = tempDir();
    let node = await startTestNode({ dataDir, indexEnabled: true });
    const hashes: string[] = [];
    for (let i = 0n; i < 5n; i++) hashes.push(await result(node.uri, 'eth_sendRawTransaction', [transfer(i)]));
    const head = await result(node.uri, 'eth_getBlockByNumber', ['latest', false]);
    const balance = await result(node.uri, 'eth_getBalance', [EWOQ, 'latest']);
    await node.stop();
    node = await startTestNode({ dataDir, indexEnabled: true });
    try {
      expect(await result(node.uri, 'eth_getBlockByNumber', ['latest', false])).toEqual(head);
      expect(await result(node.uri, 'eth_getBalance', [EWOQ, 'latest'])).toBe(balance);
      for (const h of hashes) expect((await result(node.uri, 'eth_getTransactionReceipt', [h])).status).toBe('0x1');
      const idx = await post(
        `${node.uri}/ext/index/C/block`,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'index.getLastAccepted', params: { encoding: 'hex' } }),
      );
      expect(idx.json.result.index).toBe(String(BigInt(head.number) - 1n));
      // The chain goes on from where it stopped.
      await result(node.uri, 'eth_sendRawTransaction', [transfer(5n)]);
      expect(await result(node.uri, 'eth_blockNumber')).toBe(`0x${(BigInt(head.number) + 1n).toString(16)}`);
    } finally {
      await node.stop();
    }
  });

  it('loses no tx whose hash eth_sendRawTransaction returned when killed with -9', async () => {
    const dataDir = tempDir();
    const node = await spawnNode(['--log-level=off'], dataDir);
    const acked: string[] = [];
    let nonce = 0n;
    let stop = false;
    const senders = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const raw = transfer(nonce++);
        const r = await eth(node.uri, 'eth_sendRawTransaction', [raw]).catch(() => undefined);
        if (r?.result) acked.push(r.result);
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    node.child.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);
    await node.exited;
    expect(acked.length).toBeGreaterThan(20);
    // kill -9 leaves the old process context file behind: the new one must not be confused with it.
    rmSync(join(dataDir, 'process.json'), { force: true });
    const again = await spawnNode(['--log-level=off'], dataDir);
    try {
      // Acknowledged txs are in a block, or back in the pool and mined after the restart.
      for (let i = 0; i < 50; i++) {
        const missing = [];
        for (const h of acked) if (!(await result(again.uri, 'eth_getTransactionReceipt', [h]))) missing.push(h);
        if (missing.length === 0) break;
        if (i === 49) expect(missing).toEqual([]);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });
});
