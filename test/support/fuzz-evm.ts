// The EVM chains' families of the fuzz (test/support/fuzz.ts draws them): the C-Chain and the L1 of
// fixtures/myl1.json in geth's JSON-RPC dialect, at /ext/bc/C/rpc (and its other paths) and
// /ext/bc/myl1/rpc.
//
//   evm-call      well-formed calls of every method the node serves there (eth_, net_, web3_,
//                 debug_, txpool_ and the read-only anvil_ ones), mostly with valid params
//   evm-params    the same methods with hostile params: wrong JSON types, huge and negative numbers,
//                 2^256-1, long hex, blocks past the head, odd trace configs (timeout a number, null,
//                 ""), initcode over 49,152 bytes, gas × price overflowing, eth_getLogs over every
//                 block, filters and state overrides of every shape
//   evm-envelope  odd envelopes, batches (up to geth's 1000 and past it, nested, empty, all
//                 notifications), bad bytes, odd HTTP
//   evm-tx        valid signed txs (signed when sent, with test account 0's key and its pending nonce
//                 then: blocks keep being built) and mutated signed txs (bit flips, truncations,
//                 splices; a tx of the other chain; one without EIP-155) that must never be accepted
//   evm-dev       the --dev methods that change state (anvil_/hardhat_/evm_ mining, time, state
//                 edits, the gas limit and PREVRANDAO, snapshots, dumps, impersonation; emulator.snapshot/revert/dumpState/
//                 loadState/advanceClock), whose effects are not judged beyond the reply
//
// "Garbage changed nothing" holds on the EVM side for ewoq's balance and nonce on C and the L1. The
// state-changing dev methods run only in evm-dev, and only in forms that cannot touch ewoq: no state
// edit, coinbase or impersonation names ewoq (nor test account 0, the valid txs' sender), nothing
// sends to ewoq, auto-impersonation is only ever turned off, and resets are sent only in forms that
// are refused (a fork asked for, or arguments of the wrong type). Whole-node reverts and loads are
// sent for real: every snapshot and dump they can restore was taken after the test's own setup (the
// snapshot ids and files of the run itself, and the dump the test takes right after its setup), and
// garbage never moves ewoq's funds, so restoring one leaves what the test compares as it was.
import { gzipSync } from 'node:zlib';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, getContractAddress, hexToBytes, keccak256, parseTransaction, serializeTransaction, type Hex, type TransactionSerializable } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { testAccounts } from '../../src/vms/avm/testaccounts.js';
import {
  type Entry,
  type EvmChainName,
  type EvmTxTemplate,
  type Family,
  type FuzzRequest,
  ID_VALUES,
  JSON_CT,
  member,
  objText,
  q,
  type Rng,
} from './fuzz-core.js';

// =============================================================================================
// Keys, accounts, chains.

const C_CHAIN_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
export const EWOQ_EVM_KEY: Hex = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
export const EWOQ_EVM: Hex = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
/** The node's --test-accounts=2 keys (src/vms/avm/testaccounts.ts): 0 sends the valid txs, 1 the rest. */
export const TEST_KEYS: Hex[] = testAccounts(2).map((a) => bytesToHex(a.privateKey));
export const TEST0_EVM = privateKeyToAccount(TEST_KEYS[0]!).address.toLowerCase() as Hex;
export const TEST1_EVM = privateKeyToAccount(TEST_KEYS[1]!).address.toLowerCase() as Hex;
/** The L1 genesis' other funded account (no key known). */
const L1_OTHER: Hex = '0x0fa8ea536be85f32724d57a37758761b86416123';
/** The accounts whose signature a mutated tx must never carry (they hold funds): such bytes are not sent. */
const FUNDED = new Set<string>([EWOQ_EVM, TEST0_EVM, TEST1_EVM]);

export interface EvmChainDef {
  name: EvmChainName;
  chainId: number;
  paths: string[];
  ws: string[];
  genesis: Hex;
}

export const EVM_CHAINS: Record<EvmChainName, EvmChainDef> = {
  C: {
    name: 'C',
    chainId: 43112,
    paths: ['/ext/bc/C/rpc', '/ext/C/rpc', `/ext/bc/${C_CHAIN_ID}/rpc`, '/ext/bc/evm/rpc'],
    ws: ['/ext/bc/C/ws', `/ext/bc/${C_CHAIN_ID}/ws`],
    genesis: '0x608ddbd611241719b64642d8e152537e2a5bdf46b6ddb9e8f15340c5e007b8b1',
  },
  myl1: {
    name: 'myl1',
    chainId: 99999,
    paths: ['/ext/bc/myl1/rpc'],
    ws: ['/ext/bc/myl1/ws'],
    genesis: '0x7256c23627180e3986881429097fd4bfc183766f1e862a834e33ad2e43dcb95a',
  },
};
export const EVM_RPC_PATHS = new Set(Object.values(EVM_CHAINS).flatMap((c) => c.paths));

const pickChain = (rng: Rng): EvmChainDef => (rng.chance(0.55) ? EVM_CHAINS.C : EVM_CHAINS.myl1);

// =============================================================================================
// A contract for the setup and the valid txs: it logs its calldata (LOG2: a fixed topic and the
// caller), stores its size in slot 0, and reverts with the calldata when its first byte is 0xff.

export const LOG_TOPIC: Hex = keccak256(Buffer.from('fuzz log'));

function logContract(): { runtime: Hex; initcode: Hex } {
  const head = [
    '366000600037', // CALLDATACOPY(0, 0, CALLDATASIZE)
    '600035', // CALLDATALOAD(0)
    '60f81c', // >> 248: the first byte
    '60ff14', // == 0xff ?
  ].join('');
  const body = [
    '33', // CALLER (topic 1)
    `7f${LOG_TOPIC.slice(2)}`, // topic 0
    '366000a2', // LOG2(0, CALLDATASIZE, topic 0, topic 1)
    '36600055', // SSTORE(0, CALLDATASIZE)
    '00', // STOP
  ].join('');
  const dest = head.length / 2 + 3 + body.length / 2;
  const runtime = `${head}60${dest.toString(16).padStart(2, '0')}57${body}5b366000fd`; // JUMPI; ...; JUMPDEST REVERT(0, CALLDATASIZE)
  const len = (runtime.length / 2).toString(16).padStart(2, '0');
  const init = `60${len}600c600039` + `60${len}6000f3`; // CODECOPY(0, 12, len); RETURN(0, len)
  return { runtime: `0x${runtime}`, initcode: `0x${init}${runtime}` };
}
export const LOG_CONTRACT = logContract();
/** Deployed by the test's setup from test account 1 (nonce 0) on each chain. */
export const LOG_ADDRESS = getContractAddress({ from: TEST1_EVM, nonce: 0n }).toLowerCase() as Hex;

// =============================================================================================
// Signing without awaiting (the generator is synchronous): viem serializes, @noble/curves signs.

export function signSync(tx: TransactionSerializable, key: Hex): Hex {
  const hash = keccak256(serializeTransaction(tx));
  const sig = secp256k1.sign(hexToBytes(hash), hexToBytes(key), { prehash: false, format: 'recovered' });
  const recovery = sig[0]!;
  return serializeTransaction(tx, {
    r: bytesToHex(sig.subarray(1, 33)),
    s: bytesToHex(sig.subarray(33, 65)),
    yParity: recovery,
    v: 27n + BigInt(recovery),
  });
}

/** The sender a signed tx's bytes recover to, as viem parses them; undefined if they do not parse or recover. */
export function senderOf(raw: Hex): string | undefined {
  try {
    const tx = parseTransaction(raw);
    const { r, s, v, yParity, ...rest } = tx as typeof tx & { v?: bigint; yParity?: number };
    if (r === undefined || s === undefined) return undefined;
    const recovery = yParity ?? (v === undefined ? undefined : v >= 35n ? Number((v - 35n) % 2n) : Number(v - 27n));
    if (recovery !== 0 && recovery !== 1) return undefined;
    const hash = keccak256(serializeTransaction(rest as TransactionSerializable));
    const pub = new secp256k1.Signature(BigInt(r), BigInt(s)).addRecoveryBit(recovery).recoverPublicKey(hexToBytes(hash)).toBytes(false);
    return `0x${keccak256(pub.subarray(1)).slice(-40)}`;
  } catch {
    return undefined;
  }
}

const GWEI = 1_000_000_000n;

/**
 * The test's EVM setup, in order: deploy the log contract on each chain and call it (the node funds
 * the test accounts on the L1, as on C, from ewoq's genesis funds).
 */
export function setupEvmTxs(): Array<{ chain: EvmChainName; raw: Hex; hash: Hex; what: string; wave: number }> {
  const txs: Array<{ chain: EvmChainName; tx: TransactionSerializable; key: Hex; what: string }> = [];
  const fee = { type: 'eip1559' as const, maxFeePerGas: 500n * GWEI, maxPriorityFeePerGas: 0n };
  for (const chain of ['C', 'myl1'] as const) {
    const chainId = EVM_CHAINS[chain].chainId;
    txs.push({ chain, key: TEST_KEYS[1]!, what: 'deploy the log contract', tx: { ...fee, chainId, nonce: 0, gas: 300_000n, data: LOG_CONTRACT.initcode } });
    txs.push({ chain, key: TEST_KEYS[1]!, what: 'call it', tx: { ...fee, chainId, nonce: 1, gas: 100_000n, to: LOG_ADDRESS, data: '0x0102030405' } });
  }
  // Wave 1 (the L1's) once wave 0 (C's) is mined.
  return txs.map(({ chain, tx, key, what }) => {
    const raw = signSync(tx, key);
    return { chain, raw, hash: keccak256(raw), what, wave: chain === 'myl1' ? 1 : 0 };
  });
}

let setupHashes: Hex[] | undefined;
/** Tx hashes that exist on the chains: the node's own test-account funding on C (ewoq's, deterministic) and the setup's. */
function knownTxHashes(): Hex[] {
  setupHashes ??= [
    '0xc43941458c1fb26c41983fbdb6d0d0a5a8c71ecc3d1506662545e29f43bb71e9',
    '0xe57052bb668b346e81e49cca662e4e0f3483bcd1ae84cc5695fe11c38052d1de',
    ...setupEvmTxs().map((t) => t.hash),
  ];
  return setupHashes;
}

// =============================================================================================
// Signed txs to mutate (test account 1's, never sent as they are) and the mutations.

interface EvmFixture {
  chain: EvmChainName;
  name: string;
  raw: Buffer;
}

let evmFixtures: EvmFixture[] | undefined;

function fixtures(): EvmFixture[] {
  if (evmFixtures) return evmFixtures;
  const out: EvmFixture[] = [];
  for (const chain of ['C', 'myl1'] as const) {
    const chainId = EVM_CHAINS[chain].chainId;
    const key = TEST_KEYS[1]!;
    const to = getContractAddress({ from: EWOQ_EVM, nonce: 99n });
    const add = (name: string, tx: TransactionSerializable) => out.push({ chain, name: `${chain} ${name}`, raw: Buffer.from(hexToBytes(signSync(tx, key))) });
    for (const nonce of [1, 2, 3, 1000]) {
      add(`legacy transfer n${nonce}`, { type: 'legacy', chainId, nonce, gasPrice: 100n * GWEI, gas: 21_000n, to, value: 10n ** 15n });
      add(`1559 transfer n${nonce}`, {
        type: 'eip1559',
        chainId,
        nonce,
        maxFeePerGas: 100n * GWEI,
        maxPriorityFeePerGas: GWEI,
        gas: 21_000n,
        to,
        value: 10n ** 15n,
      });
    }
    add('2930 call', {
      type: 'eip2930',
      chainId,
      nonce: 2,
      gasPrice: 100n * GWEI,
      gas: 100_000n,
      to: LOG_ADDRESS,
      data: '0xdeadbeef',
      accessList: [{ address: LOG_ADDRESS, storageKeys: [`0x${'00'.repeat(32)}`] }],
    });
    add('1559 create', { type: 'eip1559', chainId, nonce: 2, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 0n, gas: 300_000n, data: LOG_CONTRACT.initcode });
    add('1559 call', {
      type: 'eip1559',
      chainId,
      nonce: 3,
      maxFeePerGas: 100n * GWEI,
      maxPriorityFeePerGas: 0n,
      gas: 100_000n,
      to: LOG_ADDRESS,
      data: '0x010203',
    });
    // Not mutated: the bytes themselves must be refused (no EIP-155), or on the other chain (its chain ID).
    add('legacy without EIP-155', { type: 'legacy', nonce: 2, gasPrice: 100n * GWEI, gas: 21_000n, to, value: 1n });
  }
  evmFixtures = out;
  return out;
}

const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0x81, 0xb7, 0xb8, 0xbf, 0xc0, 0xf7, 0xf8, 0xff];

function mutateBytes(rng: Rng, b: Buffer, others: EvmFixture[]): { bytes: Buffer; what: string } {
  const len = b.length;
  const pos = () => rng.int(Math.max(1, len));
  switch (rng.int(10)) {
    case 0:
    case 1: {
      const p = pos();
      const c = Buffer.from(b);
      if (len > 0) c[p] = c[p]! ^ (1 << rng.int(8));
      return { bytes: c, what: `flip bit @${p}` };
    }
    case 2: {
      const p = pos();
      const c = Buffer.from(b);
      if (len > 0) c[p] = rng.pick(INTERESTING);
      return { bytes: c, what: `set byte @${p}` };
    }
    case 3: {
      const n = rng.int(len);
      return { bytes: Buffer.from(b.subarray(0, n)), what: `truncate to ${n}` };
    }
    case 4: {
      // the signature's end (s, then r): where a flip changes the recovered sender
      const p = Math.max(0, len - 1 - rng.int(Math.min(len, 66)));
      const c = Buffer.from(b);
      if (len > 0) c[p] = c[p]! ^ (1 << rng.int(8));
      return { bytes: c, what: `flip signature bit @${p}` };
    }
    case 5: {
      const p = rng.int(len + 1);
      const ins = rng.chance(0.5) ? rng.bytes(rng.range(1, 8)) : Buffer.alloc(rng.range(1, 4), rng.pick(INTERESTING));
      return { bytes: Buffer.concat([b.subarray(0, p), ins, b.subarray(p)]), what: `insert ${ins.length} @${p}` };
    }
    case 6: {
      const p = pos();
      const n = rng.range(1, 8);
      return { bytes: Buffer.concat([b.subarray(0, p), b.subarray(p + n)]), what: `delete ${n} @${p}` };
    }
    case 7: {
      const n = rng.range(1, 40);
      return { bytes: Buffer.concat([b, rng.bytes(n)]), what: `append ${n}` };
    }
    case 8: {
      // the tx type byte (typed txs) or the RLP list header (legacy)
      const c = Buffer.from(b);
      if (len > 0) c[0] = rng.pick([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x7f, 0xc0, 0xf8, 0xf9, 0xff]);
      return { bytes: c, what: `type byte ${c[0]?.toString(16)}` };
    }
    default: {
      const other = rng.pick(others).raw;
      const p = rng.int(len + 1);
      const qq = rng.int(other.length + 1);
      return { bytes: Buffer.concat([b.subarray(0, p), other.subarray(qq)]), what: `splice @${p}/${qq}` };
    }
  }
}

/** Bytes that must never be accepted by `chain`: a mutated fixture (never one that still recovers to a funded key), a tx of the other chain, a tx without EIP-155. */
export function mutatedEvmTx(rng: Rng, chain: EvmChainName): { raw: Hex; hash: Hex; what: string } {
  const all = fixtures();
  const r = rng.int(20);
  if (r === 0) {
    const f = rng.pick(all.filter((x) => x.chain !== chain));
    const raw = bytesToHex(f.raw);
    return { raw, hash: keccak256(raw), what: `${f.name}: the other chain's tx` };
  }
  if (r === 1) {
    const f = rng.pick(all.filter((x) => x.chain === chain && x.name.endsWith('without EIP-155')));
    const raw = bytesToHex(f.raw);
    return { raw, hash: keccak256(raw), what: f.name };
  }
  const mine = all.filter((x) => x.chain === chain && !x.name.endsWith('without EIP-155'));
  for (let attempt = 0; attempt < 20; attempt++) {
    const f = rng.pick(mine);
    let bytes = f.raw;
    const steps: string[] = [];
    for (let i = rng.chance(0.7) ? 1 : rng.range(2, 3); i > 0; i--) {
      const m = mutateBytes(rng, bytes, all);
      bytes = m.bytes;
      steps.push(m.what);
    }
    if (bytes.equals(f.raw)) continue;
    const raw = bytesToHex(bytes);
    const sender = senderOf(raw);
    if (sender !== undefined && FUNDED.has(sender)) continue;
    return { raw, hash: keccak256(raw), what: `${f.name}: ${steps.join(', ')}` };
  }
  return { raw: '0xff', hash: keccak256('0xff'), what: 'fallback 0xff' };
}

// =============================================================================================
// Valid txs, signed at send time (the nonce is the node's then).

const DEV_POOL: Hex[] = Array.from({ length: 8 }, (_, i) => `0x${keccak256(Buffer.from(`fuzz dev account ${i}`)).slice(-40)}` as Hex);
const PRECOMPILES: Hex[] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `0x${n.toString(16).padStart(40, '0')}` as Hex),
  '0x0000000000000000000000000000000000000100',
  '0x0100000000000000000000000000000000000000',
  '0x0100000000000000000000000000000000000001',
  '0x0200000000000000000000000000000000000000',
  '0x0200000000000000000000000000000000000001',
  '0x0200000000000000000000000000000000000002',
  '0x0200000000000000000000000000000000000003',
  '0x0200000000000000000000000000000000000004',
  '0x0200000000000000000000000000000000000005',
  '0x0feedc0de0000000000000000000000000000000',
];

const randomAddress = (rng: Rng): Hex => `0x${rng.bytes(20).toString('hex')}`;

function validTemplate(rng: Rng, chain: EvmChainName): { t: EvmTxTemplate; what: string } {
  const type = rng.weighted([
    ['eip1559', 6],
    ['legacy', 2],
    ['eip2930', 2],
  ] as const);
  const tip = rng.pick([0n, 0n, 1n, GWEI]);
  switch (rng.int(5)) {
    case 0:
    case 1: {
      const to = rng.chance(0.5) ? rng.pick(DEV_POOL) : rng.chance(0.5) ? randomAddress(rng) : TEST1_EVM;
      return { t: { chain, type, to, value: BigInt(rng.range(1, 1_000_000)) * 1_000_000_000n, data: '0x', gas: 21_000n, tip }, what: `${type} transfer` };
    }
    case 2: {
      const first = rng.chance(0.1) ? 'ff' : rng.bytes(1).toString('hex').replace(/^ff$/, '00');
      const data = `0x${first}${rng.bytes(rng.int(200)).toString('hex')}` as Hex;
      return { t: { chain, type, to: LOG_ADDRESS, value: 0n, data, gas: 120_000n, tip }, what: `${type} log call${first === 'ff' ? ' (reverts)' : ''}` };
    }
    case 3:
      return {
        t: {
          chain,
          type,
          value: 0n,
          data: rng.chance(0.7) ? LOG_CONTRACT.initcode : (`0x${rng.bytes(rng.int(64)).toString('hex')}` as Hex),
          gas: 400_000n,
          tip,
        },
        what: `${type} create`,
      };
    default: {
      const to = rng.pick(PRECOMPILES.slice(0, 10));
      return { t: { chain, type, to, value: 0n, data: `0x${rng.bytes(rng.int(300)).toString('hex')}`, gas: 300_000n, tip }, what: `${type} precompile call` };
    }
  }
}

/** Signs a template with test account 0's key (viem), at `nonce`. */
export async function signTemplate(t: EvmTxTemplate, nonce: number): Promise<Hex> {
  const account = privateKeyToAccount(TEST_KEYS[0]!);
  const chainId = EVM_CHAINS[t.chain].chainId;
  const cap = 100n * GWEI;
  const common = { chainId, nonce, gas: t.gas, value: t.value, data: t.data, ...(t.to ? { to: t.to } : {}) };
  if (t.type === 'eip1559') return account.signTransaction({ ...common, type: 'eip1559', maxFeePerGas: cap, maxPriorityFeePerGas: t.tip });
  // An access list entry costs 2,400 gas: only where the gas limit leaves room for it.
  const accessList = t.to && t.gas > 21_000n ? [{ address: t.to, storageKeys: [] }] : [];
  if (t.type === 'eip2930') return account.signTransaction({ ...common, type: 'eip2930', gasPrice: cap, accessList });
  return account.signTransaction({ ...common, type: 'legacy', gasPrice: cap });
}

// =============================================================================================
// The methods, their positional params and the values of each kind.

type K =
  | 'address'
  | 'blockRef'
  | 'blockNumber'
  | 'slot'
  | 'hash'
  | 'blockHash'
  | 'bool'
  | 'uint'
  | 'count'
  | 'percentiles'
  | 'callArgs'
  | 'overrides'
  | 'rawTx'
  | 'sendArgs'
  | 'criteria'
  | 'filterId'
  | 'subKind'
  | 'subArg'
  | 'bytes'
  | 'traceConfig'
  | 'goUint64'
  | 'u256'
  | 'snapshotId'
  | 'timestamp'
  | 'seconds'
  | 'interval'
  | 'automine'
  | 'falseOnly'
  | 'gasLimit'
  | 'stateBytes'
  | 'forkArg'
  | 'devAddress'
  | 'code'
  | 'hash32'
  | 'cb58';

interface MethodSpec {
  params: K[];
  /** How many leading params are required (the rest may be left out). */
  required?: number;
  only?: EvmChainName;
  /** Cheap enough to repeat a thousand times in one batch. */
  cheap?: boolean;
}

const m = (params: K[], extra: Omit<MethodSpec, 'params'> = {}): MethodSpec => ({ params, ...extra });

/** What the random families call: every method the node serves there except the state-changing dev ones (evm-dev has those). */
export const EVM_METHODS: Record<string, MethodSpec> = {
  eth_chainId: m([], { cheap: true }),
  eth_blockNumber: m([], { cheap: true }),
  eth_syncing: m([], { cheap: true }),
  eth_coinbase: m([], { cheap: true }),
  eth_etherbase: m([], { cheap: true }),
  eth_getBalance: m(['address', 'blockRef'], { cheap: true }),
  eth_getTransactionCount: m(['address', 'blockRef'], { cheap: true }),
  eth_getCode: m(['address', 'blockRef'], { cheap: true }),
  eth_getStorageAt: m(['address', 'slot', 'blockRef'], { cheap: true }),
  eth_call: m(['callArgs', 'blockRef', 'overrides'], { required: 1 }),
  eth_estimateGas: m(['callArgs', 'blockRef', 'overrides'], { required: 1 }),
  eth_sendRawTransaction: m(['rawTx']),
  eth_accounts: m([], { cheap: true }),
  eth_sendTransaction: m(['sendArgs']),
  eth_fillTransaction: m(['callArgs']),
  eth_getTransactionByHash: m(['hash'], { cheap: true }),
  eth_getRawTransactionByHash: m(['hash'], { cheap: true }),
  eth_getTransactionReceipt: m(['hash'], { cheap: true }),
  eth_getBlockByNumber: m(['blockNumber', 'bool'], { cheap: true }),
  eth_getBlockByHash: m(['blockHash', 'bool'], { cheap: true }),
  eth_getHeaderByNumber: m(['blockNumber'], { cheap: true }),
  eth_getHeaderByHash: m(['blockHash'], { cheap: true }),
  eth_getBlockTransactionCountByNumber: m(['blockNumber'], { cheap: true }),
  eth_getBlockTransactionCountByHash: m(['blockHash'], { cheap: true }),
  eth_getTransactionByBlockNumberAndIndex: m(['blockNumber', 'uint'], { cheap: true }),
  eth_getTransactionByBlockHashAndIndex: m(['blockHash', 'uint'], { cheap: true }),
  eth_getRawTransactionByBlockNumberAndIndex: m(['blockNumber', 'uint'], { cheap: true }),
  eth_getRawTransactionByBlockHashAndIndex: m(['blockHash', 'uint'], { cheap: true }),
  eth_getBlockReceipts: m(['blockRef'], { cheap: true }),
  eth_getUncleCountByBlockNumber: m(['blockNumber'], { cheap: true }),
  eth_getUncleCountByBlockHash: m(['blockHash'], { cheap: true }),
  eth_getUncleByBlockNumberAndIndex: m(['blockNumber', 'uint'], { cheap: true }),
  eth_getUncleByBlockHashAndIndex: m(['blockHash', 'uint'], { cheap: true }),
  eth_gasPrice: m([], { cheap: true }),
  eth_maxPriorityFeePerGas: m([], { cheap: true }),
  eth_baseFee: m([], { cheap: true }),
  eth_feeHistory: m(['count', 'blockNumber', 'percentiles'], { required: 2 }),
  eth_getLogs: m(['criteria']),
  eth_newFilter: m(['criteria'], { cheap: true }),
  eth_newBlockFilter: m([], { cheap: true }),
  eth_newPendingTransactionFilter: m(['bool'], { required: 0, cheap: true }),
  eth_getFilterChanges: m(['filterId'], { cheap: true }),
  eth_getFilterLogs: m(['filterId']),
  eth_uninstallFilter: m(['filterId'], { cheap: true }),
  eth_subscribe: m(['subKind', 'subArg'], { required: 1, cheap: true }),
  eth_unsubscribe: m(['filterId'], { cheap: true }),
  eth_suggestPriceOptions: m([], { only: 'C', cheap: true }),
  eth_getChainConfig: m([], { cheap: true }),
  eth_feeConfig: m(['blockRef'], { required: 0, only: 'myl1', cheap: true }),
  eth_getActiveRulesAt: m(['goUint64'], { required: 0, only: 'myl1', cheap: true }),
  eth_getActivePrecompilesAt: m(['goUint64'], { required: 0, only: 'myl1', cheap: true }),
  net_version: m([], { cheap: true }),
  net_listening: m([], { cheap: true }),
  net_peerCount: m([], { cheap: true }),
  web3_clientVersion: m([], { cheap: true }),
  web3_sha3: m(['bytes'], { cheap: true }),
  txpool_content: m([], { cheap: true }),
  txpool_contentFrom: m(['address'], { cheap: true }),
  txpool_status: m([], { cheap: true }),
  txpool_inspect: m([], { cheap: true }),
  debug_traceTransaction: m(['hash', 'traceConfig'], { required: 1 }),
  debug_traceBlockByNumber: m(['blockNumber', 'traceConfig'], { required: 1 }),
  debug_traceBlockByHash: m(['blockHash', 'traceConfig'], { required: 1 }),
  debug_traceCall: m(['callArgs', 'blockRef', 'traceConfig'], { required: 1 }),
  anvil_getAutomine: m([], { cheap: true }),
  hardhat_getAutomine: m([], { cheap: true }),
  anvil_getIntervalMining: m([], { cheap: true }),
  anvil_nodeInfo: m([], { cheap: true }),
  anvil_setMinGasPrice: m(['u256'], { cheap: true }),
  hardhat_setMinGasPrice: m(['u256'], { cheap: true }),
  // Not served (warp-api-enabled is off; geth-only or other clients' methods): -32601.
  warp_getMessage: m(['cb58'], { cheap: true }),
  warp_getBlockSignature: m(['cb58'], { cheap: true }),
  eth_createAccessList: m(['callArgs', 'blockRef'], { required: 1 }),
  eth_signTransaction: m(['sendArgs']),
  eth_sign: m(['address', 'bytes']),
  eth_getProof: m(['address', 'slot', 'blockRef']),
  debug_getRawBlock: m(['blockNumber']),
  debug_traceBlock: m(['bytes', 'traceConfig'], { required: 1 }),
  personal_listAccounts: m([]),
  admin_nodeInfo: m([]),
  rpc_modules: m([]),
  ots_getApiLevel: m([]),
  anvil_setChainId: m(['count']),
  anvil_enableTraces: m([]),
};

/** The dev methods that change state: evm-dev only, with params that keep ewoq untouched (see the header). */
export const EVM_DEV_METHODS: Record<string, MethodSpec> = {
  evm_mine: m(['timestamp'], { required: 0 }),
  anvil_mine: m(['count', 'interval'], { required: 0 }),
  hardhat_mine: m(['count', 'interval'], { required: 0 }),
  evm_increaseTime: m(['seconds']),
  anvil_increaseTime: m(['seconds']),
  evm_setNextBlockTimestamp: m(['timestamp']),
  anvil_setNextBlockTimestamp: m(['timestamp']),
  anvil_setBalance: m(['devAddress', 'u256']),
  hardhat_setBalance: m(['devAddress', 'u256']),
  anvil_setNonce: m(['devAddress', 'count']),
  hardhat_setNonce: m(['devAddress', 'count']),
  evm_setAccountNonce: m(['devAddress', 'count']),
  anvil_setCode: m(['devAddress', 'code']),
  hardhat_setCode: m(['devAddress', 'code']),
  anvil_setStorageAt: m(['devAddress', 'u256', 'hash32']),
  hardhat_setStorageAt: m(['devAddress', 'u256', 'hash32']),
  evm_setAutomine: m(['automine']),
  anvil_setAutomine: m(['automine']),
  evm_setIntervalMining: m(['interval']),
  anvil_setIntervalMining: m(['interval']),
  anvil_dropTransaction: m(['hash']),
  hardhat_dropTransaction: m(['hash']),
  anvil_dropAllTransactions: m([]),
  hardhat_dropAllTransactions: m([]),
  anvil_setCoinbase: m(['devAddress']),
  hardhat_setCoinbase: m(['devAddress']),
  anvil_impersonateAccount: m(['devAddress']),
  hardhat_impersonateAccount: m(['devAddress']),
  anvil_stopImpersonatingAccount: m(['devAddress']),
  hardhat_stopImpersonatingAccount: m(['devAddress']),
  anvil_autoImpersonateAccount: m(['falseOnly']),
  hardhat_autoImpersonateAccount: m(['falseOnly']),
  anvil_setNextBlockBaseFeePerGas: m(['u256']),
  hardhat_setNextBlockBaseFeePerGas: m(['u256']),
  evm_snapshot: m([]),
  anvil_snapshot: m([]),
  evm_revert: m(['snapshotId']),
  anvil_revert: m(['snapshotId']),
  anvil_dumpState: m([]),
  hardhat_dumpState: m([]),
  anvil_loadState: m(['stateBytes']),
  hardhat_loadState: m(['stateBytes']),
  anvil_reset: m(['forkArg']),
  hardhat_reset: m(['forkArg']),
  evm_setBlockGasLimit: m(['gasLimit']),
  anvil_setBlockGasLimit: m(['gasLimit']),
  hardhat_setPrevRandao: m(['hash32']),
  anvil_setNextBlockPrevRandao: m(['hash32']),
};

const SAFE_NAMES = Object.keys(EVM_METHODS);
const CHEAP_NAMES = SAFE_NAMES.filter((n) => EVM_METHODS[n]!.cheap);

// ---------------------------------------------------------------------------------------------
// Values (raw JSON text).

const hexQ = (n: bigint): string => q(`0x${n.toString(16)}`);
const U256_MAX = 2n ** 256n - 1n;
const U64_MAX = 2n ** 64n - 1n;

const HOSTILE_QUANTITIES = [
  '"0x"',
  '"0x00"',
  '"0x01"',
  '"0X1"',
  '"1"',
  '"-0x1"',
  '"0x-1"',
  '"-1"',
  '"ff"',
  '"0xg"',
  '" 0x1"',
  '"0x1 "',
  '""',
  hexQ(U64_MAX),
  hexQ(U64_MAX + 1n),
  hexQ(U256_MAX),
  hexQ(U256_MAX + 1n),
  q(`0x${'f'.repeat(1000)}`),
  q(`0x1${'0'.repeat(200)}`),
  '0',
  '1',
  '-1',
  '1.5',
  '1e400',
  '18446744073709551616',
  'true',
  'null',
  '[]',
  '{}',
  '["0x1"]',
];

const HOSTILE_BLOCKS = [
  hexQ(U64_MAX),
  hexQ(U64_MAX + 1n),
  hexQ(2n ** 63n - 1n),
  hexQ(2n ** 63n),
  hexQ(U256_MAX),
  '"0x100000"',
  '"0xffffffff"',
  '"0x7fffffffffffffff"',
  '"-0x1"',
  '"-0x2"',
  '"-0x5"',
  '"0x-1"',
  '"-1"',
  '"-2"',
  '"0x"',
  '"0x00"',
  '"Latest"',
  '"LATEST"',
  '" latest"',
  '"latest "',
  '"pending\\u0000"',
  '"finalised"',
  '""',
  '"1"',
  '"12"',
  '1',
  '-1',
  '0',
  '1e400',
  'true',
  '[]',
  '{}',
  q(`0x${'f'.repeat(300)}`),
];

function addressValue(rng: Rng): string {
  switch (rng.int(9)) {
    case 0:
      return q(EWOQ_EVM);
    case 1:
      return q(rng.pick([TEST0_EVM, TEST1_EVM, L1_OTHER]));
    case 2:
      return q(rng.pick(DEV_POOL));
    case 3:
      return q(LOG_ADDRESS);
    case 4:
      return q(rng.pick(PRECOMPILES));
    case 5:
      return q(`0x${'00'.repeat(20)}`);
    case 6:
      return q('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    default:
      return q(randomAddress(rng));
  }
}

const hostileAddress = (rng: Rng): string =>
  rng.pick([
    '"0x"',
    '"0x1234"',
    q(`0x${'a'.repeat(39)}`),
    q(`0x${'a'.repeat(41)}`),
    q(`0x${'a'.repeat(42)}`),
    q(`0x${'g'.repeat(40)}`),
    q('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'),
    q('0X8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'),
    q(`0x${'ab'.repeat(500)}`),
    '""',
    '" 0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"',
    '"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc\\u0000"',
    '0',
    '1',
    'true',
    '[]',
    '{}',
    'null',
    q('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'),
  ]);

function blockNumberValue(rng: Rng, valid: boolean): string {
  if (!valid && rng.chance(0.7)) return rng.pick(HOSTILE_BLOCKS);
  return rng.pick(['"latest"', '"latest"', '"pending"', '"earliest"', '"safe"', '"finalized"', '"0x0"', '"0x1"', '"0x2"', hexQ(BigInt(rng.int(64)))]);
}

function blockRefValue(rng: Rng, chain: EvmChainDef, valid: boolean): string {
  if (rng.chance(valid ? 0.8 : 0.6)) return blockNumberValue(rng, valid);
  const objects = valid
    ? [`{"blockHash":${q(chain.genesis)}}`, '{"blockNumber":"0x0"}', `{"blockHash":${q(chain.genesis)},"requireCanonical":true}`, '{"blockNumber":"latest"}']
    : [
        '{}',
        '{"blockHash":"0x12"}',
        `{"blockHash":${q(`0x${rng.bytes(32).toString('hex')}`)}}`,
        `{"blockHash":${q(chain.genesis)},"blockNumber":"0x0"}`,
        '{"blockNumber":"0xffffffffffffffff"}',
        '{"requireCanonical":"x"}',
        '{"blockHash":null}',
        `{"blockHash":${q(EVM_CHAINS[chain.name === 'C' ? 'myl1' : 'C'].genesis)}}`,
        '[]',
      ];
  return rng.pick(objects);
}

function hashValue(rng: Rng, chain: EvmChainDef, valid: boolean, block = false): string {
  if (!valid && rng.chance(0.6))
    return rng.pick([
      '"0x"',
      '"0x12"',
      q(`0x${'ab'.repeat(31)}`),
      q(`0x${'ab'.repeat(33)}`),
      q('ab'.repeat(32)),
      q(`0x${'zz'.repeat(32)}`),
      '""',
      '1',
      'null',
      '[]',
      '{}',
      q(`0x${'f'.repeat(2000)}`),
    ]);
  const known = block ? [chain.genesis, EVM_CHAINS.C.genesis] : knownTxHashes();
  return q(rng.chance(0.6) ? rng.pick(known) : `0x${rng.bytes(32).toString('hex')}`);
}

const quantity = (rng: Rng, valid: boolean, small = false): string => {
  if (!valid && rng.chance(0.7)) return rng.pick(HOSTILE_QUANTITIES);
  return hexQ(small ? BigInt(rng.int(8)) : BigInt(rng.logInt(1, 1_000_000_000)) * BigInt(rng.pick([1, 1000, 1_000_000_000])));
};

const dataHex = (rng: Rng, max = 200): string => q(`0x${rng.bytes(rng.int(max)).toString('hex')}`);

/** Call arguments (eth_call, eth_estimateGas, debug_traceCall, eth_createAccessList). */
function callArgsValue(rng: Rng, valid: boolean): string {
  const e: Entry[] = [];
  if (!valid && rng.chance(0.15)) return rng.pick(['null', '1', '"x"', '[]', `[{"to":${q(LOG_ADDRESS)}}]`, 'true']);
  if (rng.chance(0.7)) e.push(member('from', rng.chance(0.9) || valid ? addressValue(rng) : hostileAddress(rng)));
  const creation = rng.chance(0.15);
  if (!creation) e.push(member('to', rng.chance(0.9) || valid ? addressValue(rng) : hostileAddress(rng)));
  const hostile = valid ? -1 : rng.int(12);
  switch (hostile) {
    case 0: // initcode over EIP-3860's 49,152 bytes (or at it)
      return objText([
        member('from', q(TEST1_EVM)),
        member('data', q(`0x${'00'.repeat(rng.pick([49_152, 49_153, 65_536, 200_000]))}`)),
        ...(rng.chance(0.5) ? [member('gas', '"0x1c9c380"')] : []),
      ]);
    case 1: // gas × price overflowing
      e.push(member('gas', rng.pick([hexQ(U64_MAX), '"0x1c9c380"', hexQ(2n ** 63n)])));
      e.push(member(rng.chance(0.5) ? 'gasPrice' : 'maxFeePerGas', rng.pick([hexQ(U256_MAX), hexQ(2n ** 200n), hexQ(U256_MAX / 2n)])));
      if (rng.chance(0.5)) e.push(member('value', hexQ(U256_MAX)));
      break;
    case 2: // both fee kinds, or the tip over the cap
      e.push(member('gasPrice', '"0x1"'), member('maxFeePerGas', '"0x2"'));
      if (rng.chance(0.5)) e.push(member('maxPriorityFeePerGas', '"0x3"'));
      break;
    case 3: // data and input both, differing
      e.push(member('data', '"0x01"'), member('input', '"0x02"'));
      break;
    case 4: // value past what anyone has, or 2^256-1
      e.push(member('value', rng.pick([hexQ(U256_MAX), hexQ(10n ** 40n), hexQ(U256_MAX + 1n)])));
      break;
    case 5: // fields of the wrong type
      e.push(
        member(rng.pick(['gas', 'gasPrice', 'value', 'nonce', 'data', 'input', 'accessList', 'maxFeePerGas', 'chainId', 'type']), rng.pick(HOSTILE_QUANTITIES)),
      );
      break;
    case 6: // a big access list
      e.push(
        member(
          'accessList',
          `[${Array.from({ length: rng.pick([1, 100, 2000]) }, () => `{"address":${q(randomAddress(rng))},"storageKeys":[${q(`0x${'00'.repeat(32)}`)}]}`).join(',')}]`,
        ),
      );
      break;
    case 7: // blobs, authorizations: what the chain does not take
      e.push(member('blobVersionedHashes', `[${q(`0x01${'00'.repeat(31)}`)}]`), member('maxFeePerBlobGas', '"0x1"'));
      if (rng.chance(0.5)) e.push(member('authorizationList', '[{"chainId":"0x1","address":"0x0000000000000000000000000000000000000001","nonce":"0x0"}]'));
      break;
    case 8: // a gas limit of 0, 1, under the intrinsic, over the block
      e.push(member('gas', rng.pick(['"0x0"', '"0x1"', '"0x5207"', '"0x5208"', '"0x10000000"', hexQ(U64_MAX)])));
      break;
    case 9: // nonce and chain ID
      e.push(member('nonce', rng.pick(['"0x0"', hexQ(U64_MAX), '"0x100"'])), member('chainId', rng.pick(['"0x1"', '"0xa868"', '"0x1869f"', hexQ(U256_MAX)])));
      break;
    default:
      break;
  }
  if (rng.chance(0.6)) e.push(member(rng.chance(0.8) ? 'data' : 'input', rng.chance(0.3) ? q(LOG_CONTRACT.initcode) : dataHex(rng, rng.pick([4, 68, 1000]))));
  if (valid && rng.chance(0.3)) e.push(member('gas', quantity(rng, true)));
  if (valid && rng.chance(0.2)) e.push(member('value', hexQ(BigInt(rng.int(1000)))));
  return objText(e);
}

function overridesValue(rng: Rng, valid: boolean): string {
  const account = (): string => {
    const e: Entry[] = [];
    if (rng.chance(0.5)) e.push(member('balance', valid ? hexQ(10n ** 24n) : rng.pick([hexQ(U256_MAX), hexQ(U256_MAX + 1n), '"0x"', '1'])));
    if (rng.chance(0.3)) e.push(member('nonce', valid ? '"0x5"' : rng.pick([hexQ(U64_MAX), hexQ(U64_MAX + 1n), '"-0x1"'])));
    if (rng.chance(0.4))
      e.push(
        member('code', valid ? q(LOG_CONTRACT.runtime) : rng.pick([q(`0x${'5b'.repeat(rng.pick([24_577, 100_000]))}`), '"0x1"', '"zz"', dataHex(rng, 300)])),
      );
    const slots = () =>
      objText(
        Array.from({ length: valid ? rng.int(3) : rng.pick([1, 5, 2000]) }, () =>
          member(`0x${rng.bytes(32).toString('hex')}`, q(`0x${rng.bytes(32).toString('hex')}`)),
        ),
      );
    if (rng.chance(0.3)) e.push(member('state', slots()));
    if (rng.chance(0.3)) e.push(member('stateDiff', slots()));
    if (!valid && rng.chance(0.2)) e.push(member('movePrecompileToAddress', q(randomAddress(rng))));
    return objText(e);
  };
  if (!valid && rng.chance(0.2)) return rng.pick(['1', '"x"', '[]', '{"0x12":{}}', '{"notanaddress":{"balance":"0x1"}}', `{${q(EWOQ_EVM)}:1}`]);
  const many = !valid && rng.chance(0.2);
  const e: Entry[] = [];
  // Many accounts (each with little in it), or one or two with anything.
  for (let i = 0; i < (many ? 300 : valid ? rng.range(1, 2) : rng.range(1, 2)); i++)
    e.push({ key: addressValue(rng), value: many ? objText([member('balance', hexQ(BigInt(i)))]) : account() });
  return objText(e);
}

function sendArgsValue(rng: Rng, valid: boolean): string {
  // Never from test account 0 (the valid txs' sender) and never to ewoq (its balance is compared).
  const from = rng.weighted([
    [TEST1_EVM, 5],
    [rng.pick(DEV_POOL), 3],
    [EWOQ_EVM, 1],
    [randomAddress(rng), 1],
  ] as const);
  const e: Entry[] = [member('from', q(from))];
  const to = rng.weighted([
    [rng.pick(DEV_POOL), 3],
    [LOG_ADDRESS, 3],
    [randomAddress(rng), 2],
    [rng.pick(PRECOMPILES), 1],
    [TEST1_EVM, 1],
    [undefined, 1],
  ] as const);
  if (to !== undefined) e.push(member('to', q(to)));
  e.push(member('value', valid ? hexQ(BigInt(rng.int(1_000_000))) : rng.pick([hexQ(U256_MAX), hexQ(10n ** 30n), '"0x1"', ...HOSTILE_QUANTITIES.slice(0, 6)])));
  if (rng.chance(0.5)) e.push(member('data', to === undefined ? q(LOG_CONTRACT.initcode) : dataHex(rng, 100)));
  if (!valid) {
    const k = rng.int(6);
    if (k === 0) e.push(member('gas', rng.pick([hexQ(U64_MAX), '"0x0"', '"0x1"'])));
    if (k === 1) e.push(member('maxFeePerGas', hexQ(U256_MAX)), member('maxPriorityFeePerGas', hexQ(U256_MAX)));
    if (k === 2) e.push(member('gasPrice', hexQ(U256_MAX)));
    if (k === 3) e.push(member('nonce', rng.pick(['"0x0"', hexQ(U64_MAX), '"0x10000"'])));
    if (k === 4) e.push(member('data', q(`0x${'00'.repeat(49_153)}`)));
  }
  return objText(e);
}

function criteriaValue(rng: Rng, chain: EvmChainDef, valid: boolean): string {
  const e: Entry[] = [];
  if (!valid && rng.chance(0.1)) return rng.pick(['1', '"x"', '[]', 'true', '{"fromBlock":{}}']);
  const k = valid ? rng.int(5) : rng.int(12);
  if (k === 0) e.push(member('blockHash', q(rng.chance(0.7) ? chain.genesis : `0x${rng.bytes(32).toString('hex')}`)));
  else {
    if (rng.chance(0.7)) e.push(member('fromBlock', blockNumberValue(rng, valid || rng.chance(0.5))));
    if (rng.chance(0.7)) e.push(member('toBlock', blockNumberValue(rng, valid || rng.chance(0.5))));
  }
  if (k === 1 || k === 5) e.push(member('fromBlock', '"0x0"'), member('toBlock', rng.pick(['"latest"', hexQ(U64_MAX), '"0x100000"']))); // every block
  if (rng.chance(0.6)) e.push(member('address', rng.chance(0.7) ? q(LOG_ADDRESS) : `[${q(LOG_ADDRESS)},${addressValue(rng)}]`));
  if (rng.chance(0.5))
    e.push(
      member(
        'topics',
        rng.pick([`[${q(LOG_TOPIC)}]`, `[null,${q(`0x${'00'.repeat(12)}${TEST1_EVM.slice(2)}`)}]`, `[[${q(LOG_TOPIC)},${q(`0x${'11'.repeat(32)}`)}]]`, '[]']),
      ),
    );
  switch (k) {
    case 6: // blockHash and a range
      e.push(member('blockHash', q(chain.genesis)), member('fromBlock', '"0x0"'));
      break;
    case 7: // five topics
      e.push(member('topics', `[${Array(5).fill(q(LOG_TOPIC)).join(',')}]`));
      break;
    case 8: // many addresses, many topics
      e.push(member('address', `[${Array.from({ length: rng.pick([100, 1000, 5000]) }, () => q(randomAddress(rng))).join(',')}]`));
      e.push(member('topics', `[[${Array.from({ length: rng.pick([10, 1000]) }, () => q(`0x${rng.bytes(32).toString('hex')}`)).join(',')}]]`));
      break;
    case 9: // from past to
      e.push(member('fromBlock', '"0x10"'), member('toBlock', '"0x1"'));
      break;
    case 10: // wrong shapes
      e.push(member(rng.pick(['address', 'topics', 'fromBlock', 'blockHash']), rng.pick(['1', '{}', '"0x12"', '[1]', '[[[]]]', 'true'])));
      break;
    case 11: // both the tag and a huge range
      e.push(member('fromBlock', hexQ(U64_MAX)), member('toBlock', hexQ(U64_MAX)));
      break;
    default:
      break;
  }
  return objText(e);
}

function traceConfigValue(rng: Rng, valid: boolean): string {
  const tracer = rng.pick(['"callTracer"', '"prestateTracer"', '"4byteTracer"', undefined, undefined]);
  const e: Entry[] = [];
  if (tracer) e.push(member('tracer', tracer));
  if (valid) {
    if (tracer === '"callTracer"' && rng.chance(0.5)) e.push(member('tracerConfig', rng.pick(['{"onlyTopCall":true}', '{"withLog":true}', '{}'])));
    if (tracer === '"prestateTracer"' && rng.chance(0.5)) e.push(member('tracerConfig', rng.pick(['{"diffMode":true}', '{"diffMode":false}'])));
    if (!tracer && rng.chance(0.5)) e.push(member(rng.pick(['enableMemory', 'disableStack', 'disableStorage', 'enableReturnData']), 'true'));
    if (rng.chance(0.3)) e.push(member('timeout', rng.pick(['"10s"', '"5s"', '"1m"'])));
    return rng.chance(0.1) ? 'null' : objText(e);
  }
  switch (rng.int(8)) {
    case 0:
    case 1: // the timeout of every type (a Go duration string in geth)
      e.push(
        member(
          'timeout',
          rng.pick([
            '5',
            '0',
            '-1',
            '1.5',
            '1e400',
            'null',
            '""',
            '"abc"',
            '"-1s"',
            '"0s"',
            '"1ns"',
            '"1000000000h"',
            '"9223372036854775807ns"',
            'true',
            '[]',
            '{}',
            '"10"',
          ]),
        ),
      );
      break;
    case 2: // unknown and JavaScript tracers, tracers of the wrong type
      e.push(
        member(
          'tracer',
          rng.pick(['"nope"', '""', '"{result: function() { return 1; }, fault: function() {}}"', '5', 'null', '[]', '{}', '"CallTracer"', '"callTracer "']),
        ),
      );
      break;
    case 3: // tracerConfig of the wrong shape
      e.push(member('tracerConfig', rng.pick(['5', '"x"', '[]', 'null', '{"onlyTopCall":"yes"}', '{"diffMode":1}', '{"withLog":{}}'])));
      break;
    case 4: // the struct logger's options of the wrong type or huge
      e.push(
        member(
          rng.pick(['enableMemory', 'disableStack', 'disableStorage', 'enableReturnData', 'limit', 'debug']),
          rng.pick(['"x"', '5', '-1', hexQ(U64_MAX), '1e400', '[]', '{}']),
        ),
      );
      break;
    case 5: // reexec and the state overrides of traceCall
      e.push(member('reexec', rng.pick(['18446744073709551615', '-1', '"128"', '1e400'])));
      if (rng.chance(0.5)) e.push(member('stateOverrides', overridesValue(rng, rng.chance(0.5))));
      if (rng.chance(0.5)) e.push(member('blockOverrides', rng.pick(['{"number":"0xffffffffffffffff"}', '{"time":"0x0"}', '{"baseFee":"0x1"}', '1'])));
      break;
    case 6: // the config itself of the wrong type
      return rng.pick(['1', '"callTracer"', '[]', 'true', '[{"tracer":"callTracer"}]']);
    default: // extra and case-folded keys
      e.push(member(rng.pick(['Tracer', 'TIMEOUT', 'tracer_config', '__proto__', 'constructor']), rng.pick(['"callTracer"', '"1s"', '{}', 'null'])));
  }
  return objText(e);
}

/** A raw JSON value of `kind` for `chain`: mostly valid when `valid`, hostile otherwise. */
function evmValue(rng: Rng, kind: K, chain: EvmChainDef, valid: boolean): string {
  const hostileType = () => rng.pick(['null', 'true', '0', '-1', '1e400', '"x"', '[]', '{}', '[[]]', '""', '18446744073709551616']);
  if (!valid && rng.chance(0.15)) return hostileType();
  switch (kind) {
    case 'address':
      return valid || rng.chance(0.5) ? addressValue(rng) : hostileAddress(rng);
    case 'blockRef':
      return blockRefValue(rng, chain, valid);
    case 'blockNumber':
      return blockNumberValue(rng, valid);
    case 'slot':
      return valid || rng.chance(0.5)
        ? rng.pick(['"0x0"', '"0x1"', q(`0x${rng.bytes(32).toString('hex')}`), '"0x00"'])
        : rng.pick(['"0x"', q(`0x${'f'.repeat(65)}`), q(`0x${'0'.repeat(66)}`), '"latest"', hexQ(U256_MAX + 1n), '"-0x1"', '"zz"']);
    case 'hash':
      return hashValue(rng, chain, valid);
    case 'blockHash':
      return hashValue(rng, chain, valid, true);
    case 'bool':
      return valid || rng.chance(0.3) ? rng.pick(['true', 'false']) : rng.pick(['"true"', '0', '1', '"false"', 'null', '[]', '"yes"']);
    case 'uint':
      return valid || rng.chance(0.3) ? rng.pick(['"0x0"', '"0x1"', '"0x2"', '"0x10"']) : rng.pick(HOSTILE_QUANTITIES);
    case 'count':
      return valid || rng.chance(0.3)
        ? rng.pick(['"0x1"', '"0x4"', '"10"', '"0x40"', '1', '"0x400"'])
        : rng.pick([
            '"0xffffffffffffffff"',
            '"18446744073709551615"',
            '"18446744073709551616"',
            '"-1"',
            '"1e3"',
            '"0x"',
            '"0x10000000000000000"',
            '1.5',
            '-1',
            '1e400',
            '"x"',
          ]);
    case 'percentiles':
      return valid || rng.chance(0.3)
        ? rng.pick(['[]', '[25,75]', '[0,50,100]', '[10,20,30,40,50,60,70,80,90]'])
        : rng.pick([
            '[101]',
            '[-1]',
            '[50,25]',
            '["50"]',
            '[1e400]',
            `[${Array.from({ length: 1000 }, (_, i) => i / 10).join(',')}]`,
            '[null]',
            '{}',
            '"x"',
            '[50,50]',
          ]);
    case 'callArgs':
      return callArgsValue(rng, valid);
    case 'overrides':
      return overridesValue(rng, valid);
    case 'rawTx':
      return q(mutatedEvmTx(rng, chain.name).raw);
    case 'sendArgs':
      return sendArgsValue(rng, valid);
    case 'criteria':
      return criteriaValue(rng, chain, valid);
    case 'filterId':
      // $FILTER: the last filter the run created on this chain (filled in when sent).
      return valid || rng.chance(0.4)
        ? rng.pick(['"$FILTER"', '"$FILTER"', '"$FILTER"', q(`0x${rng.bytes(16).toString('hex')}`), '"0x1"'])
        : rng.pick(['""', '"abc"', '1', 'null', '[]', '{}', q(`0x${'f'.repeat(1000)}`), '"0x"', '"\\u0000"']);
    case 'subKind':
      return q(rng.pick(['newHeads', 'logs', 'newPendingTransactions', 'syncing', 'nope', '', 'NEWHEADS']));
    case 'subArg':
      return rng.chance(0.5) ? criteriaValue(rng, chain, valid) : rng.pick(['true', 'false', '1', '"x"']);
    case 'bytes':
      return valid || rng.chance(0.4)
        ? rng.pick(['"0x"', '"0x00"', dataHex(rng, 100), q(`0x${'ab'.repeat(rng.logInt(1, 200_000))}`)])
        : rng.pick(['"0x1"', '"zz"', '"0xzz"', '"abc"', '""', '1', q(`0x${'0'.repeat(1001)}`)]);
    case 'traceConfig':
      return traceConfigValue(rng, valid);
    case 'goUint64':
      return valid || rng.chance(0.3)
        ? rng.pick(['0', '1', '1607144400', '2000000000', '1800000000'])
        : rng.pick(['18446744073709551615', '18446744073709551616', '-1', '1.5', '"0x1"', '"latest"', '1e400', '"1"']);
    case 'u256':
      return valid || rng.chance(0.3)
        ? rng.pick(['"0x0"', '"0x1"', '"0xde0b6b3a7640000"', hexQ(10n ** 24n), '"0x3b9aca00"', '"1000000000"'])
        : rng.pick([hexQ(U256_MAX), hexQ(U256_MAX + 1n), hexQ(U64_MAX), hexQ(U64_MAX + 1n), '"-0x1"', '"-1"', '"0x"', '1', '1e400', q(`0x${'f'.repeat(100)}`)]);
    case 'snapshotId':
      return rng.pick(['"0x0"', '"0x1"', '"0x2"', '"0x3"', '"0x5"', '"0x10"', hexQ(U256_MAX), '"0x"', '"-0x1"', '1', '"1"']);
    case 'timestamp':
      return valid || rng.chance(0.3)
        ? rng.pick(['"0x0"', '"0x77359400"', '"0xf4865700"', '"0x7915b8a00"', '"2000000000"', hexQ(BigInt(Math.floor(Date.UTC(2027, 0, 1) / 1000)))])
        : rng.pick([hexQ(U64_MAX), hexQ(U64_MAX / 1000n), hexQ(U64_MAX / 1000n + 1n), hexQ(2n ** 63n), '"-0x1"', '"0x"', '1e400', '"18446744073709551616"']);
    case 'seconds':
      return valid || rng.chance(0.3)
        ? rng.pick(['"0x0"', '"0x1"', '"0xe10"', '"0x15180"', '"86400"', '"0x278d00"'])
        : rng.pick([hexQ(U64_MAX), hexQ(2n ** 63n), hexQ(2n ** 63n - 1n), '"-0x1"', '"-1"', '"0x"', '1e400', hexQ(U64_MAX / 2000n)]);
    case 'interval':
      return valid || rng.chance(0.3)
        ? rng.pick(['"0x0"', '"0x0"', '"0x1"', '"0x2"', '0', '1'])
        : rng.pick(['"0x15180"', '"0x15181"', hexQ(U64_MAX), '"-1"', '1e400', '"x"']);
    case 'automine':
      return rng.chance(0.8) ? 'true' : rng.chance(0.7) ? 'false' : rng.pick(['"true"', '1', 'null']);
    case 'falseOnly':
      return rng.pick(['false', '"true"', '0', '1', 'null', '"false"']);
    case 'gasLimit':
      // Never under a chain's own limit (the C-Chain's 10,000,000, the L1's 20,000,000), so the valid txs
      // still fit: the C-Chain refuses more than its capacity, the L1 takes it, a u64 saturates.
      return rng.pick(['"0x989680"', '"0x1312d00"', '"0x1c9c380"', hexQ(U64_MAX), hexQ(U64_MAX + 1n), hexQ(U256_MAX), '"-0x1"', '"0xz"', 'null']);
    case 'stateBytes':
      // $DUMP: the node's dump taken right after the test's setup (filled in when sent).
      return rng.weighted([
        ['"$DUMP"', 3],
        ['"0x"', 1],
        ['"0x00"', 1],
        [dataHex(rng, 500), 2],
        [q(`0x1f8b0800000000000003${rng.bytes(rng.int(200)).toString('hex')}`), 2],
        [q(bytesToHex(gzipBomb())), 1],
        ['"zz"', 1],
        ['1', 1],
      ] as const);
    case 'forkArg':
      // Only forms that are refused: a fork asked for, or arguments of the wrong type (a reset would undo the setup).
      return rng.pick([
        '{"forking":{"jsonRpcUrl":"http://127.0.0.1:1"}}',
        '{"forking":{"jsonRpcUrl":"https://api.avax.network/ext/bc/C/rpc","blockNumber":"0x1"}}',
        '{"jsonRpcUrl":"http://127.0.0.1:1"}',
        '{"forking":{"blockNumber":1}}',
        '{"blockNumber":"0x10"}',
        '{"forking":5}',
        '{"jsonRpcUrl":5}',
        '{"blockNumber":"abc"}',
        '"x"',
        '5',
        'true',
        '[]',
        '[{}]',
      ]);
    case 'devAddress':
      // Never ewoq (compared) nor test account 0 (the valid txs' sender).
      return q(
        rng.weighted([
          [rng.pick(DEV_POOL), 6],
          [TEST1_EVM, 1],
          [randomAddress(rng), 2],
          [rng.pick(PRECOMPILES), 1],
          [LOG_ADDRESS, 1],
          [`0x${'00'.repeat(20)}`, 1],
        ] as const),
      );
    case 'code':
      return rng.pick([
        '"0x"',
        '"0x00"',
        q(LOG_CONTRACT.runtime),
        dataHex(rng, 300),
        q(`0x${'5b'.repeat(rng.pick([24_576, 24_577, 300_000]))}`),
        '"0x1"',
        '"zz"',
      ]);
    case 'hash32':
      return rng.chance(0.8) ? q(`0x${rng.bytes(32).toString('hex')}`) : rng.pick(['"0x01"', q(`0x${'ab'.repeat(33)}`), '"0x"', '1']);
    case 'cb58':
      return q(rng.pick(['2Xnd8zTf9Zzvz1ya8Gh9GNtYZEQbaKAhgtRLq6w5oqCPv2Wq8F', '', 'x', C_CHAIN_ID]));
  }
}

let bomb: Buffer | undefined;
/** 16 MiB of zeros gzipped (about 16 KB): a "state" that is only big once unzipped. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  return bomb;
}

/** Positional params: the required ones, some optional ones; `valid` decides their values. */
function paramsText(rng: Rng, spec: MethodSpec, chain: EvmChainDef, valid: boolean): string {
  const required = spec.required ?? spec.params.length;
  const n = valid
    ? rng.range(required, spec.params.length)
    : rng.range(Math.max(0, required - (rng.chance(0.1) ? 1 : 0)), spec.params.length + (rng.chance(0.1) ? 1 : 0));
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = spec.params[i];
    items.push(kind === undefined ? rng.pick(['1', '"extra"', 'null', '{}']) : evmValue(rng, kind, chain, valid));
  }
  return `[${items.join(',')}]`;
}

// =============================================================================================
// Requests.

interface GethCall {
  body: string;
  hasId: boolean;
  idRaw?: string;
  method: string;
}

function idText(rng: Rng): string {
  return rng.chance(0.85) ? String(rng.int(1_000_000)) : rng.pick(ID_VALUES);
}

/** One call's JSON text (entries may be reshaped by the caller). */
function callText(method: string, params: string | undefined, id: string | undefined, jsonrpc = '"2.0"'): GethCall {
  const e: Entry[] = [member('jsonrpc', jsonrpc), member('id', id ?? 'null'), member('method', q(method))];
  if (id === undefined) e.splice(1, 1);
  if (params !== undefined) e.push(member('params', params));
  const hasId = id !== undefined && id !== 'null';
  return { body: objText(e), hasId, ...(hasId ? { idRaw: id } : {}), method };
}

function pickMethodFor(rng: Rng, chain: EvmChainDef, names = SAFE_NAMES): string {
  for (;;) {
    const name = rng.pick(names);
    const only = EVM_METHODS[name]?.only;
    if (only === undefined || only === chain.name || rng.chance(0.1)) return name;
  }
}

function gethRequest(
  index: number,
  family: Family,
  note: string,
  path: string,
  c: { body: string; hasId: boolean | undefined; idRaw?: string; method?: string },
  extra: Partial<FuzzRequest> = {},
): FuzzRequest {
  return {
    index,
    family,
    note,
    method: 'POST',
    path,
    headers: { ...JSON_CT },
    body: Buffer.from(c.body, 'utf8'),
    dialect: 'geth',
    hasId: c.hasId,
    ...(c.idRaw !== undefined ? { idRaw: c.idRaw } : {}),
    ...(c.method !== undefined ? { rpcMethod: c.method } : {}),
    ...extra,
  };
}

const pathOf = (rng: Rng, chain: EvmChainDef): string => (rng.chance(0.75) ? chain.paths[0]! : rng.pick(chain.paths));

/** evm-call: every method, mostly with valid params. */
export function evmCall(index: number, rng: Rng): FuzzRequest {
  const chain = pickChain(rng);
  const name = pickMethodFor(rng, chain);
  const spec = EVM_METHODS[name]!;
  const params = spec.params.length === 0 && rng.chance(0.3) ? undefined : paramsText(rng, spec, chain, true);
  const id = rng.chance(0.05) ? undefined : idText(rng);
  const c = callText(name, params, id);
  const extra: Partial<FuzzRequest> = {};
  if (name === 'eth_sendRawTransaction' && params) extra.mutatedEvmTx = keccak256(JSON.parse(params)[0] as Hex);
  return gethRequest(index, 'evm-call', `${chain.name} ${name}${id === undefined ? ' (notification)' : ''}`, pathOf(rng, chain), c, extra);
}

/** evm-params: the same methods with hostile params. */
export function evmParams(index: number, rng: Rng): FuzzRequest {
  const chain = pickChain(rng);
  const name = pickMethodFor(rng, chain);
  const spec = EVM_METHODS[name]!;
  let params: string;
  let note: string;
  const r = rng.int(10);
  if (r === 0) {
    params = rng.pick(['{}', '{"0":"latest"}', '"latest"', '1', 'true', '[[]]', `[${Array(40).fill('null').join(',')}]`, '[null]', '[{}]']);
    note = `params ${params.slice(0, 20)}`;
  } else {
    params = paramsText(rng, spec, chain, false);
    note = `hostile ${params.slice(0, 60)}`;
  }
  const c = callText(name, params, idText(rng));
  const extra: Partial<FuzzRequest> = {};
  if (name === 'eth_sendRawTransaction') {
    try {
      const raw = JSON.parse(params)[0];
      if (typeof raw === 'string' && /^0x([0-9a-f]{2})*$/i.test(raw)) extra.mutatedEvmTx = keccak256(raw as Hex);
    } catch {
      /* not a tx */
    }
  }
  return gethRequest(index, 'evm-params', `${chain.name} ${name} ${note}`, pathOf(rng, chain), c, extra);
}

/** A batch's item: a well-formed cheap (or any) call, a notification, or junk. */
function batchItem(rng: Rng, chain: EvmChainDef, cheap: boolean): { text: string; hasId: boolean | undefined } {
  const k = rng.int(20);
  if (k === 0) return { text: rng.pick(['1', '"x"', 'null', '[]', '{}', 'true', '[{}]']), hasId: undefined };
  const name = pickMethodFor(rng, chain, cheap ? CHEAP_NAMES : SAFE_NAMES);
  const spec = EVM_METHODS[name]!;
  const params = paramsText(rng, spec, chain, rng.chance(0.8));
  if (k === 1) {
    const c = callText(name, params, undefined);
    return { text: c.body, hasId: false };
  }
  const c = callText(name, params, rng.chance(0.5) ? String(rng.int(100)) : idText(rng));
  return { text: c.body, hasId: c.hasId };
}

const BAD_UTF8 = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]];

/** evm-envelope: odd envelopes, batches, bad bytes and odd HTTP on the geth routes. */
export function evmEnvelope(index: number, rng: Rng): FuzzRequest {
  const chain = pickChain(rng);
  const path = pathOf(rng, chain);
  const name = pickMethodFor(rng, chain, CHEAP_NAMES);
  const params = paramsText(rng, EVM_METHODS[name]!, chain, true);
  const req = (note: string, body: string | Buffer, hasId: boolean | undefined, extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
    index,
    family: 'evm-envelope',
    note: `${chain.name} ${note}`,
    method: 'POST',
    path,
    headers: { ...JSON_CT },
    body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
    dialect: 'geth',
    hasId,
    ...extra,
  });
  switch (rng.int(14)) {
    case 0:
    case 1:
    case 2: {
      // batches: up to geth's 1000 (cheap calls when long), past it, empty, nested
      const n = rng.weighted([
        [rng.range(1, 10), 10],
        [rng.range(11, 100), 5],
        [rng.range(101, 999), 2],
        [1000, 1],
        [1001, 1],
        [rng.range(1002, 3000), 1],
      ] as const);
      const cheap = n > 50 || rng.chance(0.5);
      const items = Array.from({ length: n }, () => batchItem(rng, chain, cheap));
      const hasId = n > 1000 ? true : items.some((i) => i.hasId === true) ? true : items.every((i) => i.hasId === false) ? false : undefined;
      return req(`batch of ${n}${cheap ? ' (cheap)' : ''}`, `[${items.map((i) => i.text).join(',')}]`, hasId);
    }
    case 3: {
      const body = rng.pick([
        '[]',
        '[[]]',
        `[[${callText(name, params, '1').body}]]`,
        '[1,2,3]',
        '[null]',
        '[{}]',
        `[${callText(name, params, undefined).body},${callText(name, params, undefined).body}]`,
        `[${callText(name, params, '1').body},${callText(name, params, '1').body}]`,
        `${'['.repeat(rng.pick([100, 5000, 20000]))}${']'.repeat(rng.pick([100, 5000, 20000]))}`,
        `[${callText(name, `${'['.repeat(3000)}${']'.repeat(3000)}`, '1').body}]`,
      ]);
      return req(`odd batch ${body.slice(0, 40)}`, body, undefined);
    }
    case 4: {
      // ids of every type
      const id = rng.pick(ID_VALUES);
      const c = callText(name, params, id);
      return req(`${name} id ${id}`, c.body, c.hasId, c.idRaw !== undefined && !id.startsWith('[') && !id.startsWith('{') ? { idRaw: c.idRaw } : {});
    }
    case 5: {
      // jsonrpc and method of other types, missing
      const jsonrpc = rng.pick(['"1.0"', '"2"', '2.0', 'null', '""', '"2.0 "', 'true', '[]']);
      const body = rng.chance(0.5)
        ? callText(name, params, '1', jsonrpc).body
        : rng.pick([
            `{"jsonrpc":"2.0","id":1,"params":${params}}`,
            `{"jsonrpc":"2.0","id":1,"method":null}`,
            `{"jsonrpc":"2.0","id":1,"method":1}`,
            `{"jsonrpc":"2.0","id":1,"method":["${name}"]}`,
            `{"jsonrpc":"2.0","id":1,"method":""}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth"}`,
            `{"jsonrpc":"2.0","id":1,"method":"_"}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth_"}`,
            `{"jsonrpc":"2.0","id":1,"method":"ETH_CHAINID"}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth_chainId\\u0000"}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth__chainId"}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth_constructor"}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth___proto__"}`,
            `{"jsonrpc":"2.0","id":1,"method":"__proto___x"}`,
            `{"jsonrpc":"2.0","id":1,"method":"rpc_modules"}`,
            `{"jsonrpc":"2.0","id":1,"method":"eth_subscription"}`,
          ]);
      return req(`envelope ${body.slice(0, 50)}`, body, true);
    }
    case 6: {
      // duplicate and case-folded keys, extra members, params of odd shapes
      const body = rng.pick([
        `{"jsonrpc":"2.0","id":1,"method":"${name}","params":${params},"method":"eth_chainId"}`,
        `{"jsonrpc":"2.0","ID":1,"Method":"${name}","Params":${params}}`,
        `{"jsonrpc":"2.0","id":1,"method":"${name}","params":${params},"result":1,"error":{}}`,
        `{"jsonrpc":"2.0","id":1,"method":"${name}","params":{}}`,
        `{"jsonrpc":"2.0","id":1,"method":"${name}","params":"x"}`,
        `{"jsonrpc":"2.0","id":1,"method":"${name}","params":null}`,
        `{"jsonrpc":"2.0","id":1,"method":"${name}","params":${params},"__proto__":{"x":1}}`,
        `{"jsonrpc":"2.0","id":1,"id":2,"method":"${name}","params":${params}}`,
      ]);
      return req(`keys ${body.slice(0, 60)}`, body, undefined);
    }
    case 7: {
      // notifications: no reply
      const c = callText(name, params, rng.chance(0.5) ? undefined : 'null');
      return req(`${name} notification`, c.body, false);
    }
    case 8: {
      // bad bytes
      const good = Buffer.from(callText(name, params, '1').body);
      const k = rng.int(5);
      if (k === 0) {
        const at = rng.int(good.length);
        return req(`invalid UTF-8 @${at}`, Buffer.concat([good.subarray(0, at), Buffer.from(rng.pick(BAD_UTF8)), good.subarray(at)]), undefined);
      }
      if (k === 1) return req('BOM prefix', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), good]), undefined);
      if (k === 2) return req('trailing garbage', Buffer.concat([good, Buffer.from(rng.pick(['x', '{}', '\u0000', ']', ' 1']))]), undefined);
      if (k === 3) return req('truncated', good.subarray(0, rng.int(good.length)), undefined);
      return req('random bytes', rng.bytes(rng.logInt(1, 4096)), undefined);
    }
    case 9: {
      // a long string somewhere, around and over the 4 MiB body limit
      const over = rng.chance(0.05);
      const size = over ? 4 * 1024 * 1024 + rng.range(1, 100_000) : rng.logInt(1024, 2 * 1024 * 1024);
      const where = rng.pick(['id', 'method', 'param'] as const);
      const s = q('a'.repeat(size));
      const body =
        where === 'id'
          ? `{"jsonrpc":"2.0","id":${s},"method":"eth_chainId","params":[]}`
          : where === 'method'
            ? `{"jsonrpc":"2.0","id":1,"method":${s},"params":[]}`
            : `{"jsonrpc":"2.0","id":1,"method":"web3_sha3","params":[${q(`0x${'ab'.repeat(size >> 1)}`)}]}`;
      return req(`long ${where} of ${size}${over ? ' (over the limit)' : ''}`, body, undefined, over ? { mayReset: true } : {});
    }
    case 10: {
      // content types and HTTP methods
      const r = req(`${name} odd HTTP`, callText(name, params, '1').body, true);
      if (rng.chance(0.5)) {
        const ct = rng.pick([
          '',
          'text/plain',
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'application/jsonx',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ]);
        if (ct === '') delete r.headers['content-type'];
        else r.headers['content-type'] = ct;
        r.note = `${chain.name} content-type ${JSON.stringify(ct)}`;
      } else {
        r.method = rng.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
        if (r.method === 'GET' || r.method === 'HEAD') delete r.body;
        if (r.method === 'OPTIONS') {
          r.headers.origin = 'http://evil.example';
          r.headers['access-control-request-method'] = 'POST';
        }
        r.note = `${chain.name} ${r.method}`;
      }
      return r;
    }
    case 11: {
      // a chunked body, an odd path
      const r = req(`${name} chunked`, callText(name, params, '1').body, true, { chunked: true, idRaw: '1' });
      if (rng.chance(0.5)) {
        r.path = rng.pick([
          `${path}/`,
          `${path}?x=1`,
          path.replace('/rpc', '/RPC'),
          path.replace('/rpc', '/rpc/x'),
          path.replace('/ext/bc/', '/ext/bc//'),
          `${path}%00`,
        ]);
        r.note = `${chain.name} path ${r.path}`;
        delete r.dialect;
      }
      return r;
    }
    case 12: {
      // the same method on the other dialect's routes and vice versa
      const r = req(`${name} on a gorilla route`, callText(name, params, '1').body, true);
      r.path = rng.pick(['/ext/bc/C/avax', '/ext/bc/myl1/validators', '/ext/bc/X', '/ext/info']);
      delete r.dialect;
      r.expectRpc = true;
      return r;
    }
    default: {
      const c = callText(name, params, idText(rng));
      return req(`${name} well-formed`, c.body, c.hasId, c.idRaw !== undefined ? { idRaw: c.idRaw } : {});
    }
  }
}

/** evm-tx: valid signed txs (signed when sent) and mutated ones that must never be accepted. */
export function evmTx(index: number, rng: Rng): FuzzRequest {
  const chain = pickChain(rng);
  const path = chain.paths[0]!;
  const id = String(rng.int(1_000_000));
  if (rng.chance(0.5)) {
    const { t, what } = validTemplate(rng, chain.name);
    return {
      index,
      family: 'evm-tx',
      note: `${chain.name} valid ${what}`,
      method: 'POST',
      path,
      headers: { ...JSON_CT },
      dialect: 'geth',
      hasId: true,
      idRaw: id,
      evmTx: t,
      rpcMethod: 'eth_sendRawTransaction',
    };
  }
  const { raw, hash, what } = mutatedEvmTx(rng, chain.name);
  const c = callText('eth_sendRawTransaction', `[${q(raw)}]`, id);
  return gethRequest(index, 'evm-tx', `${chain.name} mutated ${what}`, path, c, { mutatedEvmTx: hash });
}

/** The body of a valid tx, once signed. */
export const sendRawBody = (raw: Hex, id: string): Buffer => Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"eth_sendRawTransaction","params":[${q(raw)}]}`);

/** evm-dev: the state-changing dev methods, and the whole node's state controls of /ext/emulator. */
export function evmDev(index: number, rng: Rng): FuzzRequest {
  if (rng.chance(0.2)) {
    // /ext/emulator (gorilla): snapshot, revert, dumpState, loadState (in --state-dir), advanceClock. Never reset.
    const method = rng.weighted([
      ['snapshot', 3],
      ['revert', 3],
      ['dumpState', 2],
      ['loadState', 2],
      ['advanceClock', 3],
    ] as const);
    let params: string;
    switch (method) {
      case 'revert':
        params = `{"id":${rng.pick(['"0"', '"1"', '"2"', '"3"', '"7"', '"18446744073709551615"', '"-1"', '1', '""', 'null'])}}`;
        break;
      case 'dumpState':
      case 'loadState':
        params = `{"path":${q(rng.pick(['fz-state.bin', 'fz-state.bin', 'a/b/fz.bin', '../fz.bin', '/tmp/fz-outside.bin', '', 'missing.bin', '.', '..', 'x'.repeat(300), 'fz\u0000.bin', '/etc/passwd', '../../../../etc/passwd']))}}`;
        break;
      case 'advanceClock':
        params = `{"seconds":${rng.pick(['"1"', '"60"', '"3600"', '"86400"', '"2592000"', '"31536000"', '"3153600000"', '"3153600001"', '"18446744073709551615"', '"-1"', '1', '"0"'])}}`;
        break;
      default:
        params = rng.pick(['{}', '[]', 'null']);
    }
    const id = String(rng.int(1_000_000));
    const body = `{"jsonrpc":"2.0","id":${id},"method":"emulator.${method}","params":${params}}`;
    return {
      index,
      family: 'evm-dev',
      note: `emulator.${method} ${params.slice(0, 60)}`,
      method: 'POST',
      path: '/ext/emulator',
      headers: { ...JSON_CT },
      body: Buffer.from(body),
      hasId: true,
      idRaw: id,
      rpcMethod: `emulator.${method}`,
    };
  }
  const chain = pickChain(rng);
  const name = rng.pick(Object.keys(EVM_DEV_METHODS));
  const spec = EVM_DEV_METHODS[name]!;
  const valid = rng.chance(0.7);
  const required = spec.required ?? spec.params.length;
  // Every param given for the resets (none would reset the node); otherwise the usual left-outs.
  const n = name.endsWith('_reset') ? spec.params.length : valid ? rng.range(required, spec.params.length) : rng.range(required, spec.params.length);
  const items = spec.params.slice(0, n).map((kind) => evmValue(rng, kind, chain, valid || kind === 'devAddress' || kind === 'forkArg'));
  const c = callText(name, `[${items.join(',')}]`, String(rng.int(1_000_000)));
  return gethRequest(index, 'evm-dev', `${chain.name} ${name} [${items.join(',').slice(0, 80)}]`, chain.paths[0]!, c);
}
