// Issue 26: differences real clients found between the emulator and coreth, Subnet-EVM, avalanchego
// and Anvil, each asserted with the real node's texts.
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js';
import { createPublicClient, createTestClient, createWalletClient, defineChain, hexToBytes, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, rpc, spawnNode, startTestNode, tempDir, type TestNode } from './helpers.js';
import { startEmulator } from '../src/index.js';
import { banner } from '../src/banner.js';
import { EWOQ_PRIVATE_KEY } from '../src/vms/avm/testaccounts.js';
import { EWOQ_EVM_ADDRESS, evmAddressOf } from '../src/vms/evm/testaccounts.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;
/** avalanchego's hex encoding: the bytes and the last 4 bytes of their sha256. */
const hexc = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}${createHash('sha256').update(b).digest().subarray(28).toString('hex')}`;

describe("item 5: --l1 takes any file name (Subnet-EVM's own genesis files are named contract_native_minter.json)", () => {
  let dir: string;
  let minter: string;
  let allowList: string;
  beforeAll(() => {
    dir = tempDir('emu-l1-names-');
    minter = join(dir, 'contract_native_minter.json');
    allowList = join(dir, 'tx-allow.list.v2.json');
    copyFileSync(MYL1, minter);
    copyFileSync(MYL1, allowList);
  });

  it('serves each under its base name as alias, with a chain name the P-Chain takes, and finds it again after a restart', async () => {
    const dataDir = tempDir('emu-l1-names-data-');
    const ids: Record<string, string> = {};
    for (const round of [1, 2]) {
      const node = await startTestNode({ dataDir, l1: [minter, allowList] });
      try {
        for (const alias of ['contract_native_minter', 'tx-allow.list.v2']) {
          expect((await rpc(`${node.uri}/ext/bc/${alias}/rpc`, 'eth_chainId', [])).json.result).toBe('0x1869f');
          const { blockchainID } = await call(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias });
          if (round === 1) ids[alias] = blockchainID;
          else expect(blockchainID, 'the same chain on a restart').toBe(ids[alias]);
        }
        const { blockchains } = await call(`${node.uri}/ext/bc/P`, 'platform.getBlockchains', {});
        const names = Object.fromEntries(blockchains.map((b: { id: string; name: string }) => [b.id, b.name]));
        // Characters a CreateChainTx refuses (anything but ASCII letters, digits and spaces) become spaces.
        expect(names[ids.contract_native_minter!]).toBe('contract native minter');
        expect(names[ids['tx-allow.list.v2']!]).toBe('tx allow list v2');
      } finally {
        await node.stop();
      }
    }
  });

  it('a start-up error an --l1 file causes names the flag', async () => {
    const bad = join(dir, 'bad genesis.json');
    writeFileSync(bad, '{"config": {"chainId": 5}}');
    await expect(startTestNode({ dbType: 'memdb', l1: [bad] })).rejects.toThrow(`--l1=${bad}: parsing genesis: missing required field 'gasLimit' for Genesis`);
  });
});

describe('item 6: P-Chain re-issue and parse errors as avalanchego', () => {
  let node: TestNode;
  let P: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    P = `${node.uri}/ext/bc/P`;
  });
  afterAll(() => node.stop());

  it("bytes that do not parse answer `couldn't parse tx: …`, without `couldn't issue tx`", async () => {
    const short = await callError(P, 'platform.issueTx', { tx: hexc(new Uint8Array([0, 0, 0, 0])), encoding: 'hex' });
    // txs.Parse wraps the codec's error, and the service wraps that: two prefixes, as on avalanchego.
    expect(short.message).toBe("couldn't parse tx: couldn't parse tx: couldn't unmarshal interface: packer has insufficient length for input");
    const version = await callError(P, 'platform.issueTx', { tx: hexc(new Uint8Array([0, 7, 0, 0, 0, 0])), encoding: 'hex' });
    expect(version.message).toBe("couldn't parse tx: couldn't parse tx: unknown codec version");
  });
});

describe("item 4: eth_getProof with geth's shape, verified against the block's state root", () => {
  let node: TestNode;
  let C: string;
  let contract: `0x${string}`;
  let block: { number: string; stateRoot: string };
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    C = `${node.uri}/ext/bc/C/rpc`;
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [C] } } });
    const wallet = createWalletClient({ chain, transport: http(C), account: privateKeyToAccount(EWOQ_KEY) });
    const client = createPublicClient({ chain, transport: http(C), cacheTime: 0 });
    // Init code that stores 42 at slot 7 and deploys no code: an account with storage.
    const hash = await wallet.sendTransaction({ data: '0x602a60075500' });
    const receipt = await client.waitForTransactionReceipt({ hash });
    contract = receipt.contractAddress!;
    block = (await rpc(C, 'eth_getBlockByNumber', ['latest', false])).json.result;
  });
  afterAll(() => node.stop());

  const proofOf = async (params: unknown[]) => (await rpc(C, 'eth_getProof', params)).json;

  it('proves an account and a slot: the nodes hash to the state root and the storage root, and hold the values', async () => {
    const { result } = await proofOf([contract, ['0x7', `0x${'0'.repeat(63)}8`], 'latest']);
    expect(Object.keys(result)).toEqual(['address', 'accountProof', 'balance', 'codeHash', 'nonce', 'storageHash', 'storageProof']);
    expect(result.address).toBe(contract.toLowerCase());
    expect(result.nonce).toBe('0x1');
    expect(result.balance).toBe('0x0');
    // The first node of the account proof is the state root's; the path leads to the account's RLP.
    expect(hex(keccak256(hexToBytes(result.accountProof[0])))).toBe(block.stateRoot);
    const leaf = await verifyMerkleProof(hexToBytes(contract), result.accountProof.map(hexToBytes), { useKeyHashing: true });
    const fields = RLP.decode(leaf!) as Uint8Array[];
    expect(hex(fields[2]!)).toBe(result.storageHash);
    expect(hex(fields[3]!)).toBe(result.codeHash);
    // Keys: a short one comes back as a quantity, a 32-byte one as given.
    const [seven, eight] = result.storageProof;
    expect(seven.key).toBe('0x7');
    expect(seven.value).toBe('0x2a');
    expect(eight.key).toBe(`0x${'0'.repeat(63)}8`);
    expect(eight.value).toBe('0x0');
    expect(hex(keccak256(hexToBytes(seven.proof[0])))).toBe(result.storageHash);
    const slot = await verifyMerkleProof(hexToBytes(`0x${'0'.repeat(63)}7`), seven.proof.map(hexToBytes), { useKeyHashing: true });
    expect(hex(RLP.decode(slot!) as Uint8Array)).toBe('0x2a');
    expect(await verifyMerkleProof(hexToBytes(`0x${'0'.repeat(63)}8`), eight.proof.map(hexToBytes), { useKeyHashing: true })).toBeNull();
  });

  it('an account that does not exist: zero hashes, empty storage proofs, an exclusion proof', async () => {
    const absent = '0x00000000000000000000000000000000000000aa';
    const { result } = await proofOf([absent, ['0x1'], block.number]);
    expect(result).toMatchObject({
      balance: '0x0',
      nonce: '0x0',
      codeHash: `0x${'0'.repeat(64)}`,
      storageHash: `0x${'0'.repeat(64)}`,
      storageProof: [{ key: '0x1', value: '0x0', proof: [] }],
    });
    expect(await verifyMerkleProof(hexToBytes(absent), result.accountProof.map(hexToBytes), { useKeyHashing: true })).toBeNull();
  });

  it("bad keys and blocks get geth's errors; 10,000 keys are answered", async () => {
    expect((await proofOf([contract, ['0xzz'], 'latest'])).error).toEqual({ code: -32000, message: 'hex string invalid' });
    expect((await proofOf([contract, [`0x${'00'.repeat(33)}`], 'latest'])).error).toEqual({
      code: -32000,
      message: 'hex string too long, want at most 32 bytes',
    });
    const past = `0x${(BigInt(block.number) + 5n).toString(16)}`;
    expect((await proofOf([contract, [], past])).error).toEqual({ code: -32000, message: 'cannot query unfinalized data' });
    expect((await proofOf([contract, '0x1', 'latest'])).error.code).toBe(-32602);
    const many = Array.from({ length: 10_000 }, (_, i) => `0x${i.toString(16)}`);
    // Proven in slices: a request sent meanwhile is answered before it ends.
    const done: string[] = [];
    const proving = rpc(C, 'eth_getProof', [contract, many, 'latest']).finally(() => done.push('proof'));
    await new Promise((r) => setTimeout(r, 20));
    await rpc(C, 'eth_chainId', []).finally(() => done.push('chainId'));
    const reply = await proving;
    expect(done).toEqual(['chainId', 'proof']);
    expect(reply.status).toBe(200);
    expect(reply.json.result.storageProof).toHaveLength(10_000);
    expect(reply.json.result.storageProof[7].value).toBe('0x2a');
  }, 60_000);
});

describe('item 8: the banner serves EVM developers too', () => {
  it('lists each test account with its EVM address and hex key, ewoq as public with its holdings, and the Data and Metrics APIs', async () => {
    const started = await startEmulator({ httpPort: 0, dbType: 'memdb', logLevel: 'off', dataDir: tempDir(), testAccounts: 2, l1: [MYL1], dev: true });
    try {
      const text = await banner(started.node);
      expect(text).toMatch(/^ {2}APIs {6}info, health, metrics, emulator, Data API \(\/v1\), Metrics API \(\/v2\), dev controls/m);
      // myl1's genesis funds ewoq: the test accounts get its native token too.
      expect(text).toContain(
        'Test accounts (10,000 AVAX each on the X-Chain and 10,000 AVAX on the C-Chain, 10,000 of the native token on myl1; the same key signs on P):',
      );
      for (const [i, a] of started.node.testAccounts.entries()) {
        const key = `0x${Buffer.from(a.privateKey).toString('hex')}` as const;
        const evm = privateKeyToAccount(key).address;
        const lines = text.split('\n');
        const at = lines.findIndex((l) => l.startsWith(`  (${i}) X-local1`));
        expect(lines[at]).toMatch(/^ {2}\(\d\) X-local1[02-9ac-hj-np-z]+ {2}PrivateKey-[1-9A-HJ-NP-Za-km-z]+$/);
        // The next line: what ethers, viem, Foundry and Hardhat take, checksummed, for the same key.
        expect(lines[at + 1]).toBe(`      ${evm}  ${key}`);
        // Funded where the banner says.
        const C = `${started.uri}/ext/bc/C/rpc`;
        expect(BigInt((await rpc(C, 'eth_getBalance', [evm, 'latest'])).json.result)).toBe(10_000n * 10n ** 18n);
        const L1 = `${started.uri}/ext/bc/myl1/rpc`;
        expect(BigInt((await rpc(L1, 'eth_getBalance', [evm, 'latest'])).json.result)).toBe(10_000n * 10n ** 18n);
      }
      expect(text).toContain("ewoq, the local network's PUBLIC key (anyone can spend what it holds: never use it on a real network):");
      expect(text).toContain(`      0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC  ${EWOQ_KEY}`);
      expect(text).toContain('      X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u  PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN');
      const holdings = /^ {6}holds ([\d,.]+) AVAX on X, ([\d,.]+) on P \(locked included\), ([\d,.]+) on C, ([\d,.]+) on myl1$/m.exec(text);
      expect(holdings).not.toBeNull();
      const amount = (s: string, decimals: number) => {
        const [whole, frac = ''] = s.replaceAll(',', '').split('.');
        return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
      };
      const x = await call(`${started.uri}/ext/bc/X`, 'avm.getBalance', { address: 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', assetID: 'AVAX' });
      expect(amount(holdings![1]!, 9)).toBe(BigInt(x.balance));
      const p = await call(`${started.uri}/ext/bc/P`, 'platform.getBalance', { addresses: ['P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] });
      expect(amount(holdings![2]!, 9)).toBe(BigInt(p.balance));
      const c = (await rpc(`${started.uri}/ext/bc/C/rpc`, 'eth_getBalance', ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'latest'])).json.result;
      expect(amount(holdings![3]!, 18)).toBe(BigInt(c));
      // The L1's: its genesis' 100,000,000 less the two test accounts' 10,000 each and the transfers' fees.
      const l1 = BigInt((await rpc(`${started.uri}/ext/bc/myl1/rpc`, 'eth_getBalance', ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'latest'])).json.result);
      expect(amount(holdings![4]!, 18)).toBe(l1);
      expect(100_000_000n * 10n ** 18n - l1 - 20_000n * 10n ** 18n).toBeGreaterThan(0n);
      expect(text.trimEnd().split('\n').at(-1)).toBe(`Listening on ${started.uri}`);
    } finally {
      await started.stop();
    }
  });

  it("ewoq's EVM address constant is the one its key gives", () => {
    expect(Buffer.from(evmAddressOf(EWOQ_PRIVATE_KEY)).toString('hex')).toBe(Buffer.from(EWOQ_EVM_ADDRESS).toString('hex'));
  });
});

describe('item 7: dev state edits without a block, as Anvil and Hardhat', () => {
  const WHO = '0x7777777777777777777777777777777777777777';
  const clientsOf = (url: string, id: number) => {
    const chain = defineChain({ id, name: 'evm', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    return {
      test: createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 }),
      client: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
    };
  };

  it("viem's test client: snapshot → setBalance → mine 3 → before + 3, the edit in the next block's state root, undone by revert", async () => {
    const node = await startTestNode({ dbType: 'memdb', dev: true, l1: [MYL1] });
    try {
      for (const [alias, id] of [
        ['C', 43112],
        ['myl1', 99999],
      ] as const) {
        const url = `${node.uri}/ext/bc/${alias}/rpc`;
        const { test, client } = clientsOf(url, id);
        const before = await client.getBlock();
        const snapshot = await test.snapshot();
        await test.setBalance({ address: WHO, value: 123n });
        await test.setNonce({ address: WHO, nonce: 4 });
        await test.setStorageAt({ address: WHO, index: 1, value: `0x${'00'.repeat(31)}09` });
        // Seen at once at latest and pending; no block, and the head's header is untouched.
        expect(await client.getBalance({ address: WHO })).toBe(123n);
        expect(await client.getBalance({ address: WHO, blockTag: 'pending' })).toBe(123n);
        expect(await client.getTransactionCount({ address: WHO })).toBe(4);
        const head = await client.getBlock();
        expect(head.number).toBe(before.number);
        expect(head.stateRoot).toBe(before.stateRoot);
        await test.mine({ blocks: 3 });
        const next = await client.getBlock({ blockNumber: before.number + 1n });
        expect(await client.getBlockNumber()).toBe(before.number + 3n);
        // The next block's state root includes the edit: a proof against it finds the balance.
        const proof = (await rpc(url, 'eth_getProof', [WHO, ['0x1'], `0x${next.number.toString(16)}`])).json.result;
        expect(hex(keccak256(hexToBytes(proof.accountProof[0])))).toBe(next.stateRoot);
        const leaf = RLP.decode((await verifyMerkleProof(hexToBytes(WHO), proof.accountProof.map(hexToBytes), { useKeyHashing: true }))!) as Uint8Array[];
        expect([hex(leaf[0]!), hex(leaf[1]!)]).toEqual(['0x04', '0x7b']);
        expect(proof.storageProof[0].value).toBe('0x9');
        await test.revert({ id: snapshot });
        expect(await client.getBalance({ address: WHO })).toBe(0n);
        expect(await client.getBlockNumber()).toBe(before.number);
      }
    } finally {
      await node.stop();
    }
  });

  it('an edit is kept across a restart on LevelDB with no block made, and a tx built on it is traced from the edited state', async () => {
    const dataDir = tempDir('emu-edits-');
    const url = (n: TestNode) => `${n.uri}/ext/bc/C/rpc`;
    let node = await startTestNode({ dataDir, dev: true });
    const { test, client } = clientsOf(url(node), 43112);
    const height = await client.getBlockNumber();
    await test.setBalance({ address: WHO, value: 10n ** 18n });
    await node.stop();
    node = await startTestNode({ dataDir, dev: true });
    try {
      const again = clientsOf(url(node), 43112);
      expect(await again.client.getBalance({ address: WHO })).toBe(10n ** 18n);
      expect(await again.client.getBlockNumber()).toBe(height);
      // Spent by an impersonated send: the block is built on the edited state, and replays from it.
      await again.test.impersonateAccount({ address: WHO });
      const hash = (await rpc(url(node), 'eth_sendTransaction', [{ from: WHO, to: WHO, value: '0x5' }])).json.result;
      const receipt = await again.client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const trace = (await rpc(url(node), 'debug_traceTransaction', [hash, { tracer: 'prestateTracer' }])).json.result;
      expect(BigInt(trace[WHO.toLowerCase()].balance)).toBe(10n ** 18n);
    } finally {
      await node.stop();
    }
  });
});

describe('item 7: an acknowledged edit survives kill -9 (LevelDB)', () => {
  it('anvil_setBalance answered, the process killed at once: the balance is there after the restart', async () => {
    const dir = tempDir('emu-edit-kill-');
    let node = await spawnNode(['--dev', '--http-port=0', `--data-dir=${dir}`], dir);
    try {
      const who = '0x7777777777777777777777777777777777777777';
      const reply = await rpc(`${node.uri}/ext/bc/C/rpc`, 'anvil_setBalance', [who, '0x1234']);
      expect(reply.json.result).toBeNull();
      node.child.kill('SIGKILL');
      await node.exited;
      rmSync(join(dir, 'process.json'), { force: true });
      node = await spawnNode(['--dev', '--http-port=0', `--data-dir=${dir}`], dir);
      expect((await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_getBalance', [who, 'latest'])).json.result).toBe('0x1234');
    } finally {
      node.child.kill('SIGKILL');
      await node.exited;
    }
  });
});

describe('items 3 and 4: calls from an address with code, and eth_createAccessList', () => {
  let node: TestNode;
  let C: string;
  // A returns 42; B calls back its caller and returns what it answered; S reads slot 1 and D's balance.
  const A = '0x00000000000000000000000000000000000000a1';
  const B = '0x00000000000000000000000000000000000000b2';
  const S = '0x00000000000000000000000000000000000000c3';
  const D = '0x00000000000000000000000000000000000000d4';
  // E answers EXTCODESIZE(CALLER).
  const E = '0x00000000000000000000000000000000000000e4';
  const word42 = `0x${'00'.repeat(31)}2a`;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [MYL1] });
    C = `${node.uri}/ext/bc/C/rpc`;
    for (const url of [C, `${node.uri}/ext/bc/myl1/rpc`]) {
      await rpc(url, 'anvil_setCode', [A, '0x602a60005260206000f3']);
      // Funded: eth_createAccessList's defaults price the run, and buyGas charges the sender as in geth.
      await rpc(url, 'anvil_setBalance', [A, '0x56bc75e2d63100000']);
      await rpc(url, 'anvil_setCode', [B, '0x60206000600060006000335af15060206000f3']);
      await rpc(url, 'anvil_setCode', [E, '0x333b60005260206000f3']);
      await rpc(url, 'anvil_setCode', [S, `0x6001545073${D.slice(2)}315060026000fd`.replace('60026000fd', '00')]);
    }
  });
  afterAll(() => node.stop());

  it('eth_call, eth_estimateGas, eth_createAccessList and debug_traceCall run from a contract as geth runs them (no EOA check); a callback finds its code', async () => {
    for (const url of [C, `${node.uri}/ext/bc/myl1/rpc`]) {
      const called = (await rpc(url, 'eth_call', [{ from: A, to: B }, 'latest'])).json;
      expect(called, JSON.stringify(called)).toEqual({ jsonrpc: '2.0', id: 1, result: word42 });
      expect((await rpc(url, 'eth_estimateGas', [{ from: A, to: B }])).json.result).toMatch(/^0x[0-9a-f]+$/);
      const trace = (await rpc(url, 'debug_traceCall', [{ from: A, to: B }, 'latest', { tracer: 'callTracer' }])).json.result;
      expect(trace).toMatchObject({ from: A, to: B, output: word42, calls: [{ from: B, to: A, output: word42 }] });
      const list = (await rpc(url, 'eth_createAccessList', [{ from: A, to: B }])).json.result;
      expect(list.accessList).toEqual([]);
      // The sender's code is there as the call runs: EXTCODESIZE(caller) inside it sees A's 10 bytes.
      expect(BigInt((await rpc(url, 'eth_call', [{ from: A, to: E }, 'latest'])).json.result)).toBe(10n);
    }
  });

  it("eth_createAccessList lists the slots and addresses touched, not the sender, the recipient's address alone or precompiles, with the gas a tx carrying it uses", async () => {
    const from = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    const reply = (await rpc(C, 'eth_createAccessList', [{ from, to: S }, 'latest'])).json;
    const result = reply.result;
    expect(Object.keys(result ?? {}), JSON.stringify(reply)).toEqual(['accessList', 'gasUsed']);
    expect(result.accessList).toEqual([
      { address: S, storageKeys: [`0x${'00'.repeat(31)}01`] },
      { address: D, storageKeys: [] },
    ]);
    // A tx carrying that list uses exactly the gas reported.
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [C] } } });
    const wallet = createWalletClient({ chain, transport: http(C), account: privateKeyToAccount(EWOQ_KEY) });
    const client = createPublicClient({ chain, transport: http(C), cacheTime: 0 });
    const viaViem = await client.createAccessList({ account: from, to: S });
    expect(viaViem.gasUsed).toBe(BigInt(result.gasUsed));
    const hash = await wallet.sendTransaction({ to: S, accessList: viaViem.accessList, gas: 100_000n });
    expect((await client.waitForTransactionReceipt({ hash })).gasUsed).toBe(BigInt(result.gasUsed));
  });

  it("a failing run reports the EVM's error beside the list; refusals and bad args get coreth's texts", async () => {
    const reverting = '0x00000000000000000000000000000000000000e5';
    await rpc(C, 'anvil_setCode', [reverting, '0x600160015560006000fd']);
    const reply = (await rpc(C, 'eth_createAccessList', [{ from: A, to: reverting }])).json;
    const result = reply.result;
    expect(result, JSON.stringify(reply)).toEqual({
      accessList: [{ address: reverting, storageKeys: [`0x${'00'.repeat(31)}01`] }],
      error: 'execution reverted',
      gasUsed: result.gasUsed,
    });
    expect((await rpc(C, 'eth_createAccessList', [{ from: A }])).json.error).toEqual({ code: -32000, message: 'contract creation without any data provided' });
    const poor = (await rpc(C, 'eth_createAccessList', [{ from: '0x0000000000000000000000000000000000000bad', to: S, maxFeePerGas: '0x3b9aca00' }])).json.error;
    expect(poor.message).toMatch(
      /^failed to apply transaction: 0x[0-9a-f]{64} err: insufficient funds for gas \* price \+ value: address 0x0000000000000000000000000000000000000Bad have 0 want 50000000000000000$/,
    );
    const past = (await rpc(C, 'eth_createAccessList', [{ from: A, to: S }, '0xffff'])).json.error;
    expect(past).toEqual({ code: -32000, message: 'cannot query unfinalized data' });
  });
});
