// A seeded, bounded fuzzer of the node's HTTP/JSON-RPC and websocket surface (test/fuzz.test.ts
// drives it).
//
// Every request is generated from its own PRNG, seeded by (seed, index): request i of a run is the
// same bytes whatever ran before it, so `FUZZ_SEED=<seed> FUZZ_REPLAY=<i>` regenerates it. The
// node's state can still make a replayed request behave differently (aliases added earlier, the
// wallet queue), so a report names the family and a summary of what was sent as well. A few things
// are filled in only when a request is sent, from what the run has seen: a valid EVM tx is signed
// with the sender's pending nonce then, and `$FILTER`, `$SUB`, `$PAGE` and `$DUMP` stand for the
// last filter ID, subscription ID and page token the node gave, and the dump taken after the setup.
//
// Families (see FAMILIES): well-formed calls of every method, wrong param types, odd envelopes,
// deep nesting, long strings, bad bytes, odd HTTP (methods, content types, headers), odd paths,
// the GET endpoints, mutated signed txs, hostile admin arguments; the EVM chains' JSON-RPC
// (fuzz-evm.ts), the Data and Metrics APIs (fuzz-rest.ts) and websockets (fuzz-ws.ts). The
// profilers and stacktrace run only at scheduled indices (SCHEDULED), so they never dominate a run.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { parseTx, txOutputs } from '../../src/vms/avm/codec/index.js';
import { addressOfPrivateKey, addressOfPublicKey, txHash } from '../../src/vms/avm/verify/index.js';
import type { SignedTx, TransferableInput, UTXO } from '../../src/vms/avm/types.js';
import { encodeCB58 } from '../../src/encoding/cb58.js';
import { fundingTx, testAccounts } from '../../src/vms/avm/testaccounts.js';
import {
  AVAX,
  AVAX_ID,
  base,
  C,
  C_ID,
  EWOQ,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_SHORT_ID,
  FEE,
  GENESIS_UTXO,
  out,
  owners,
  sign,
  sortOuts,
  utf8,
  X,
  X_ID,
} from './xwallet.js';
import {
  decodeKey,
  type Entry,
  FAMILIES,
  type Family,
  type FuzzRequest,
  gethReplyError,
  ID_VALUES,
  JSON_CT,
  member,
  objText,
  type Problem,
  type ProblemKind,
  PROBLEM_KINDS,
  q,
  Rng,
  rpcObjectError,
  snippet,
} from './fuzz-core.js';
import { EVM_CHAINS, EVM_RPC_PATHS, evmCall, evmDev, evmEnvelope, evmParams, evmTx, sendRawBody, signTemplate, TEST0_EVM } from './fuzz-evm.js';
import { dataApi, metricsApi, restBodyError } from './fuzz-rest.js';
import { runWsSession, wsSession, type WsOutcome } from './fuzz-ws.js';

export { FAMILIES, type Family, type FuzzRequest, PROBLEM_KINDS, type Problem, type ProblemKind, Rng } from './fuzz-core.js';
export { seedFromEnv } from './fuzz-core.js';
export { EWOQ_ADDR, FEE } from './xwallet.js';
import { formatAddress } from '../../src/vms/components/avax/address.js';

// =============================================================================================
// The local network: IDs, keys, addresses.

export const P_ID = '11111111111111111111111111111111LpoYY';
const NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

const eq = (a: Uint8Array, b: Uint8Array): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

export const OTHER_KEY = sha256(utf8('fuzz test key other'));
export const OTHER = addressOfPrivateKey(OTHER_KEY);
export const OTHER_ADDR = formatAddress('X', 'local', OTHER);

// =============================================================================================
// Real signed txs, built as a wallet does, from ewoq's genesis UTXO. The fuzzer never sends them
// as they are: only mutations whose signed part differs (or whose signatures cannot be ewoq's).

const inp = (u: UTXO): TransferableInput => ({
  utxoID: u.utxoID,
  assetID: u.assetID,
  input: { type: 5, amount: (u.output as { amount: bigint }).amount, sigIndices: [0] },
});
/** A valid payment from one of ewoq's UTXOs: `paid` to `to`, the change back to ewoq. */
export function payment(coin: UTXO, paid: bigint, to: Uint8Array, memo = ''): SignedTx {
  const change = (coin.output as { amount: bigint }).amount - paid - FEE;
  return sign({ type: 0, base: base({ inputs: [inp(coin)], outputs: sortOuts([out(paid, owners([to])), out(change)]), memo: utf8(memo) }) }, [[EWOQ_KEY]]);
}

/** ewoq's AVAX change from a tx (an unlocked single-owner output of ewoq). */
function ewoqChange(tx: SignedTx): UTXO {
  return txOutputs(tx).utxos.find(
    (u) =>
      u.output.type === 7 &&
      eq(u.assetID, AVAX) &&
      u.output.owners.addresses.length === 1 &&
      eq(u.output.owners.addresses[0]!, EWOQ) &&
      u.output.owners.locktime === 0n,
  )!;
}

export interface Setup {
  /** Issued before the fuzz, so that blocks, txs, an asset and index containers exist: a payment, a new asset. */
  txs: SignedTx[];
  /** ewoq's AVAX UTXO after them: what the fixtures and the final valid tx spend. */
  coin: UTXO;
}

let setupMemo: Setup | undefined;

/** The test accounts the fuzzed node funds (--test-accounts): its X-Chain block 1 spends ewoq's genesis UTXO. */
export const TEST_ACCOUNTS = 2;

/** ewoq's AVAX on the X-Chain once the node has funded the test accounts: the change of its funding tx. */
function startCoin(): UTXO {
  const funding = fundingTx({ networkID: 12345, chainID: X, avaxAssetID: AVAX, txFee: FEE }, GENESIS_UTXO, testAccounts(TEST_ACCOUNTS));
  return ewoqChange(funding);
}

export function setup(): Setup {
  if (setupMemo) return setupMemo;
  const pay = payment(startCoin(), 1_000_000_000n, OTHER, 'fuzz setup');
  const c1 = ewoqChange(pay);
  const asset = sign(
    {
      type: 1,
      base: base({ inputs: [inp(c1)], outputs: [out((c1.output as { amount: bigint }).amount - FEE)] }),
      name: utf8('Fuzz Setup Coin'),
      symbol: utf8('FSC'),
      denomination: 3,
      initialStates: [
        {
          fxIndex: 0,
          outputs: [
            { type: 6, owners: owners() },
            { type: 7, amount: 5_000_000n, owners: owners() },
          ],
        },
      ],
    },
    [[EWOQ_KEY]],
  );
  setupMemo = { txs: [pay, asset], coin: ewoqChange(asset) };
  return setupMemo;
}

export interface Fixture {
  name: string;
  tx: SignedTx;
}

/** Real signed txs spending `g` (never sent as they are). */
export function buildFixtures(g: UTXO = setup().coin): Fixture[] {
  const total = (g.output as { amount: bigint }).amount;
  const fake = (label: string, index = 0) => ({ txID: sha256(utf8(`fuzz ${label}`)), outputIndex: index });
  const fixtures: Fixture[] = [];
  fixtures.push({ name: 'BaseTx', tx: payment(g, 1_000_000_000n, OTHER, 'fuzz fixture') });
  fixtures.push({
    name: 'BaseTx multi-output',
    tx: sign(
      {
        type: 0,
        base: base({
          inputs: [inp(g)],
          outputs: sortOuts([
            out(7_000_000_000n, owners([EWOQ, OTHER], 2)),
            out(11_000_000_000n, owners([EWOQ, OTHER], 1)),
            out(13_000_000_000n, owners([EWOQ], 1, 4_000_000_000n)),
            out(total - 31_000_000_000n - FEE),
          ]),
          memo: utf8('fuzz multi'),
        }),
      },
      [[EWOQ_KEY]],
    ),
  });
  fixtures.push({
    name: 'CreateAssetTx',
    tx: sign(
      {
        type: 1,
        base: base({ inputs: [inp(g)], outputs: [out(total - 10n * FEE)] }),
        name: utf8('Fuzz Coin'),
        symbol: utf8('FZZ'),
        denomination: 6,
        initialStates: [
          {
            fxIndex: 0,
            outputs: [
              { type: 6, owners: owners() },
              { type: 7, amount: 1_000_000n, owners: owners() },
            ],
          },
          { fxIndex: 1, outputs: [{ type: 10, groupID: 1, owners: owners() }] },
          { fxIndex: 2, outputs: [{ type: 15, owners: owners() }] },
        ],
      },
      [[EWOQ_KEY]],
    ),
  });
  fixtures.push({
    name: 'ExportTx',
    tx: sign(
      {
        type: 4,
        base: base({ inputs: [inp(g)], outputs: [out(total - 5_000_000_000n - FEE)] }),
        destinationChain: C,
        exportedOutputs: [out(5_000_000_000n)],
      },
      [[EWOQ_KEY]],
    ),
  });
  fixtures.push({
    name: 'ImportTx',
    tx: sign(
      {
        type: 3,
        base: base({ inputs: [inp(g)], outputs: [out(total - FEE + 10n)] }),
        sourceChain: C,
        importedInputs: [{ utxoID: fake('atomic'), assetID: AVAX, input: { type: 5, amount: 10n, sigIndices: [0] } }],
      },
      [[EWOQ_KEY], [EWOQ_KEY]],
    ),
  });
  fixtures.push({
    name: 'OperationTx',
    tx: sign(
      {
        type: 2,
        base: base({ inputs: [inp(g)], outputs: [out(total - FEE)] }),
        operations: [
          {
            assetID: sha256(utf8('fuzz asset')),
            utxoIDs: [fake('mint')],
            op: { type: 8, mintInput: [0], mintOutput: owners(), transferOutput: { amount: 5n, owners: owners([OTHER]) } },
          },
        ],
      },
      [[EWOQ_KEY], [EWOQ_KEY]],
    ),
  });
  return fixtures;
}

// =============================================================================================
// Tx mutations and the rule that keeps a possibly valid tx from ever being sent.

const N = secp256k1.Point.CURVE().n;
const HALF_N = N >> 1n;

/** True when a signature (or its malleated twin) over `hash` recovers to ewoq's address. */
function recoversToEwoq(hash: Uint8Array, sig: Uint8Array): boolean {
  if (sig.length !== 65) return false;
  let r = 0n;
  let s = 0n;
  for (let i = 0; i < 32; i++) r = (r << 8n) | BigInt(sig[i]!);
  for (let i = 32; i < 64; i++) s = (s << 8n) | BigInt(sig[i]!);
  let v = sig[64]! & 3;
  s %= N;
  if (r === 0n || r >= N || s === 0n) return false;
  if (s > HALF_N) {
    s = N - s;
    v ^= 1;
  }
  try {
    const pub = new secp256k1.Signature(r, s).addRecoveryBit(v).recoverPublicKey(hash).toBytes(true);
    return eq(addressOfPublicKey(pub), EWOQ);
  } catch {
    return false;
  }
}

/**
 * Whether mutated bytes may be sent: they do not parse, or their signed part differs from every
 * fixture's, or (a change in the credentials only) no signature in them recovers to ewoq, the
 * only key that owns anything on this chain.
 */
export function safeToSend(bytes: Uint8Array, fixtures: Fixture[]): boolean {
  let tx: SignedTx;
  try {
    tx = parseTx(bytes);
  } catch {
    return true;
  }
  if (!fixtures.some((f) => eq(f.tx.unsignedBytes, tx.unsignedBytes))) return true;
  const hash = txHash(tx.unsignedBytes);
  for (const cred of tx.credentials) {
    const sigs = (cred as { signatures?: Uint8Array[] }).signatures;
    if (sigs?.some((sig) => recoversToEwoq(hash, sig))) return false;
  }
  return true;
}

const INTERESTING_U8 = [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff];
const INTERESTING_U32 = [0, 1, 2, 5, 7, 9, 14, 19, 20, 21, 32, 64, 0x7fffffff, 0x80000000, 0xffffffff, 0xffff, 0x10000, 12345];

function mutateOnce(rng: Rng, b: Buffer, fixture: Fixture, fixtures: Fixture[]): { bytes: Buffer; what: string } {
  const len = b.length;
  const pos = () => rng.int(Math.max(1, len));
  const signed = fixture.tx.unsignedBytes.length;
  switch (rng.int(12)) {
    case 0: {
      // flip a bit anywhere
      const p = pos();
      const c = Buffer.from(b);
      if (len > 0) c[p] = c[p]! ^ (1 << rng.int(8));
      return { bytes: c, what: `flip bit @${p}` };
    }
    case 1: {
      // flip a bit in the signed part
      const p = rng.int(Math.min(signed, len) || 1);
      const c = Buffer.from(b);
      if (len > 0) c[p] = c[p]! ^ (1 << rng.int(8));
      return { bytes: c, what: `flip signed bit @${p}` };
    }
    case 2: {
      // an interesting byte
      const p = pos();
      const c = Buffer.from(b);
      if (len > 0) c[p] = rng.pick(INTERESTING_U8);
      return { bytes: c, what: `set byte @${p}` };
    }
    case 3: {
      // an interesting u32 (lengths, type IDs, counts)
      const p = rng.int(Math.max(1, len - 3));
      const c = Buffer.from(b);
      if (len >= 4) c.writeUInt32BE(rng.pick(INTERESTING_U32) >>> 0, p);
      return { bytes: c, what: `set u32 @${p}` };
    }
    case 4: {
      // insert bytes
      const p = rng.int(len + 1);
      const ins = rng.chance(0.5) ? rng.bytes(rng.range(1, 16)) : Buffer.alloc(rng.range(1, 8), rng.pick(INTERESTING_U8));
      return { bytes: Buffer.concat([b.subarray(0, p), ins, b.subarray(p)]), what: `insert ${ins.length} @${p}` };
    }
    case 5: {
      // delete a range
      const p = pos();
      const n = rng.range(1, rng.chance(0.8) ? 8 : 64);
      return { bytes: Buffer.concat([b.subarray(0, p), b.subarray(p + n)]), what: `delete ${n} @${p}` };
    }
    case 6: {
      // truncate
      const n = rng.int(len);
      return { bytes: Buffer.from(b.subarray(0, n)), what: `truncate to ${n}` };
    }
    case 7: {
      // append
      const n = rng.range(1, 70);
      return { bytes: Buffer.concat([b, rng.chance(0.5) ? rng.bytes(n) : Buffer.alloc(n)]), what: `append ${n}` };
    }
    case 8: {
      // duplicate a slice in place
      const p = pos();
      const n = rng.range(1, 80);
      return { bytes: Buffer.concat([b.subarray(0, p + n), b.subarray(p, p + n), b.subarray(p + n)]), what: `dup ${n} @${p}` };
    }
    case 9: {
      // tamper with a signature byte (r, s or the recovery byte)
      const c = Buffer.from(b);
      const p = Math.max(0, len - 1 - rng.int(Math.min(len, 65 * 2)));
      if (len > 0) c[p] = rng.chance(0.5) ? c[p]! ^ (1 << rng.int(8)) : rng.pick(INTERESTING_U8);
      return { bytes: c, what: `tamper sig byte @${p}` };
    }
    case 10: {
      // another fixture's credentials on this signed part
      const other = rng.pick(fixtures).tx;
      return {
        bytes: Buffer.concat([Buffer.from(fixture.tx.unsignedBytes), Buffer.from(other.bytes.subarray(other.unsignedBytes.length))]),
        what: 'swap credentials',
      };
    }
    default: {
      // splice the head of one fixture onto the tail of another
      const other = rng.pick(fixtures).tx.bytes;
      const p = rng.int(len + 1);
      const q = rng.int(other.length + 1);
      return { bytes: Buffer.concat([b.subarray(0, p), Buffer.from(other.subarray(q))]), what: `splice @${p}/${q}` };
    }
  }
}

/** 1 to 3 mutations of a fixture, retried until safe to send. */
export function mutatedTx(rng: Rng, fixtures: Fixture[]): { bytes: Buffer; what: string } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const fixture = rng.pick(fixtures);
    let bytes: Buffer = Buffer.from(fixture.tx.bytes);
    const steps: string[] = [];
    for (let i = rng.range(1, rng.chance(0.7) ? 1 : 3); i > 0; i--) {
      const m = mutateOnce(rng, bytes, fixture, fixtures);
      bytes = m.bytes;
      steps.push(m.what);
    }
    if (!eq(bytes, fixture.tx.bytes) && safeToSend(bytes, fixtures)) return { bytes, what: `${fixture.name}: ${steps.join(', ')}` };
  }
  // Never reached in practice; a byte that no tx starts with is always safe.
  return { bytes: Buffer.from([0xff]), what: 'fallback 0xff' };
}

const SCALARS = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '1',
  '-1',
  '2',
  '1.5',
  '-1.5',
  '1e3',
  '1E+2',
  '1e-7',
  '1e400',
  '-1e400',
  '0.0',
  '18446744073709551615',
  '18446744073709551616',
  '99999999999999999999999999999',
  '-9223372036854775809',
  '4294967295',
  '4294967296',
  '9007199254740993',
  '1024',
  '1025',
  '-0.0',
  '123456789012345678901234567890e-20',
  '""',
  '"0"',
  '"-1"',
  '"1.0"',
  '"1e3"',
  '"0x10"',
  '" 1"',
  '"1 "',
  '"abc"',
  '"AVAX"',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u00e9"',
  '"é"',
  '"😀"',
  '"\\n"',
  '"null"',
  '"true"',
  '"18446744073709551616"',
  '"hex"',
  '"X"',
  '"P"',
  '"C"',
  `"${X_ID}"`,
  `"${EWOQ_ADDR}"`,
  '"__proto__"',
  '"constructor"',
  '"toString"',
];

/** Any JSON value, nested up to `depth`. */
export function jsonValue(rng: Rng, depth = 2): string {
  const k = depth <= 0 ? 0 : rng.int(6);
  if (k <= 3) return rng.pick(SCALARS);
  if (k === 4) {
    const n = rng.int(4);
    return `[${Array.from({ length: n }, () => jsonValue(rng, depth - 1)).join(',')}]`;
  }
  const n = rng.int(4);
  return objText(
    Array.from({ length: n }, () =>
      member(rng.pick(['a', 'address', 'tx', 'id', '__proto__', 'encoding', '', 'ID', 'constructor']), jsonValue(rng, depth - 1)),
    ),
  );
}

// =============================================================================================
// Endpoints, methods and their parameter kinds.

type Kind =
  | 'string'
  | 'id'
  | 'assetID'
  | 'address'
  | 'addresses'
  | 'chain'
  | 'encoding'
  | 'bool'
  | 'u64'
  | 'u32'
  | 'txText'
  | 'startIndex'
  | 'tags'
  | 'nodeIDs'
  | 'logger'
  | 'level'
  | 'alias'
  | 'endpoint'
  | 'hexKey'
  | 'check'
  | 'text';

type Spec = Record<string, Kind>;

interface EndpointDef {
  name: string;
  service: string;
  paths: string[];
  methods: Record<string, Spec>;
  weight: number;
}

const X_PATHS = ['/ext/bc/X', '/ext/X', '/ext/avm', '/ext/bc/avm', `/ext/bc/${X_ID}`];
const P_PATHS = ['/ext/bc/P', '/ext/P', '/ext/platform', '/ext/bc/platform', `/ext/bc/${P_ID}`];
const INDEX_PATHS = ['/ext/index/X/block', '/ext/index/X/tx', '/ext/index/X/vtx', '/ext/index/P/block', '/ext/index/C/block'];

export const ENDPOINTS: EndpointDef[] = [
  {
    name: 'info',
    service: 'info',
    paths: ['/ext/info'],
    weight: 3,
    methods: {
      getNodeVersion: {},
      getNodeID: {},
      getNodeIP: {},
      getNetworkID: {},
      getNetworkName: {},
      getBlockchainID: { alias: 'chain' },
      peers: { nodeIDs: 'nodeIDs' },
      isBootstrapped: { chain: 'chain' },
      upgrades: {},
      uptime: {},
      acps: {},
      getTxFee: {},
      getVMs: {},
    },
  },
  {
    name: 'admin',
    service: 'admin',
    paths: ['/ext/admin'],
    weight: 2,
    methods: {
      alias: { endpoint: 'endpoint', alias: 'alias' },
      aliasChain: { chain: 'chain', alias: 'alias' },
      getChainAliases: { chain: 'chain' },
      setLoggerLevel: { loggerName: 'logger', logLevel: 'level', displayLevel: 'level' },
      getLoggerLevel: { loggerName: 'logger' },
      loadVMs: {},
      stopCPUProfiler: {},
      lockProfile: {},
      getConfig: {},
      dbGet: { key: 'hexKey' },
      // Scheduled only (see SCHEDULED): never picked by a family.
      startCPUProfiler: {},
      memoryProfile: {},
      stacktrace: {},
    },
  },
  {
    name: 'health',
    service: 'health',
    paths: ['/ext/health'],
    weight: 2,
    methods: { health: { tags: 'tags' }, readiness: { tags: 'tags' }, liveness: {} },
  },
  {
    name: 'avm',
    service: 'avm',
    paths: X_PATHS,
    weight: 6,
    methods: {
      getAssetDescription: { assetID: 'assetID' },
      getBalance: { address: 'address', assetID: 'assetID', includePartial: 'bool' },
      getAllBalances: { address: 'address', includePartial: 'bool' },
      getBlock: { blockID: 'id', encoding: 'encoding' },
      getBlockByHeight: { height: 'u64', encoding: 'encoding' },
      getHeight: {},
      getTx: { txID: 'id', encoding: 'encoding' },
      getTxFee: {},
      getTxStatus: { txID: 'id' },
      getUTXOs: { addresses: 'addresses', sourceChain: 'chain', limit: 'u32', startIndex: 'startIndex', encoding: 'encoding' },
      issueTx: { tx: 'txText', encoding: 'encoding' },
    },
  },
  { name: 'wallet', service: 'wallet', paths: X_PATHS.map((p) => `${p}/wallet`), weight: 2, methods: { issueTx: { tx: 'txText', encoding: 'encoding' } } },
  {
    name: 'platform',
    service: 'platform',
    paths: P_PATHS,
    weight: 4,
    methods: {
      getHeight: {},
      getProposedHeight: {},
      getBlock: { blockID: 'id', encoding: 'encoding' },
      getBlockByHeight: { height: 'u64', encoding: 'encoding' },
      getTx: { txID: 'id', encoding: 'encoding' },
      getTxStatus: { txID: 'id' },
      getUTXOs: { addresses: 'addresses', sourceChain: 'chain', limit: 'u32', startIndex: 'startIndex', encoding: 'encoding' },
      getBalance: { addresses: 'addresses' },
      getStake: { addresses: 'addresses', validatorsOnly: 'bool', encoding: 'encoding' },
      getRewardUTXOs: { txID: 'id', encoding: 'encoding' },
      getCurrentValidators: { subnetID: 'id', nodeIDs: 'nodeIDs' },
      getL1Validator: { validationID: 'id' },
      getValidatorsAt: { height: 'u64', subnetID: 'id' },
      getAllValidatorsAt: { height: 'u64' },
      sampleValidators: { size: 'u32', subnetID: 'id' },
      getCurrentSupply: { subnetID: 'id' },
      getSubnet: { subnetID: 'id' },
      getSubnets: {},
      getBlockchains: {},
      getBlockchainStatus: { blockchainID: 'chain' },
      validatedBy: { blockchainID: 'id' },
      validates: { subnetID: 'id' },
      getTimestamp: {},
      getStakingAssetID: { subnetID: 'id' },
      getMinStake: { subnetID: 'id' },
      getTotalStake: { subnetID: 'id' },
      getFeeConfig: {},
      getFeeState: {},
      getValidatorFeeConfig: {},
      getValidatorFeeState: {},
      issueTx: { tx: 'txText', encoding: 'encoding' },
    },
  },
  {
    name: 'avax',
    service: 'avax',
    paths: ['/ext/bc/C/avax', '/ext/C/avax', '/ext/bc/evm/avax'],
    weight: 2,
    methods: {
      getUTXOs: { addresses: 'addresses', sourceChain: 'chain', limit: 'u32', startIndex: 'startIndex', encoding: 'encoding' },
      issueTx: { tx: 'txText', encoding: 'encoding' },
      getAtomicTx: { txID: 'id', encoding: 'encoding' },
      getAtomicTxStatus: { txID: 'id' },
    },
  },
  {
    name: 'emulator',
    service: 'emulator',
    paths: ['/ext/emulator'],
    weight: 1,
    methods: { failHealthCheck: { name: 'check', error: 'text' }, recoverHealthCheck: { name: 'check' }, healthFaults: {} },
  },
  {
    name: 'index',
    service: 'index',
    paths: INDEX_PATHS,
    weight: 3,
    methods: {
      getContainerByID: { id: 'id', encoding: 'encoding' },
      getContainerByIndex: { index: 'u64', encoding: 'encoding' },
      getContainerRange: { startIndex: 'u64', numToFetch: 'u64', encoding: 'encoding' },
      getIndex: { id: 'id' },
      getLastAccepted: { encoding: 'encoding' },
      isAccepted: { id: 'id' },
    },
  },
  {
    // proposervm's API on every chain under proposervm.
    name: 'proposervm',
    service: 'proposervm',
    paths: ['/ext/bc/P/proposervm', '/ext/bc/X/proposervm', '/ext/bc/C/proposervm', '/ext/bc/myl1/proposervm'],
    weight: 1,
    methods: { getProposedHeight: {}, getCurrentEpoch: {} },
  },
  {
    // The L1's validators (gorilla).
    name: 'validators',
    service: 'validators',
    paths: ['/ext/bc/myl1/validators'],
    weight: 1,
    methods: { getCurrentValidators: { nodeIDs: 'nodeIDs' } },
  },
];

/** Methods that cost a lot (profiles) or write outside the temp dirs: run only at scheduled indices. */
export const RARE = new Set(['admin.startCPUProfiler', 'admin.memoryProfile', 'admin.stacktrace']);

/** Every JSON-RPC route the node serves (exact paths; the query string does not count). */
export const RPC_PATHS = new Set(ENDPOINTS.flatMap((e) => e.paths));
/** Every route the node serves, for alias take-over detection. */
export const KNOWN_PATHS = new Set([
  ...RPC_PATHS,
  '/ext/health/health',
  '/ext/health/readiness',
  '/ext/health/liveness',
  '/ext/metrics',
  // The EVM chains' roots (their /rpc, /ws, /avax, /validators live under them).
  '/ext/bc/C',
  '/ext/C',
  '/ext/bc/evm',
  `/ext/bc/${C_ID}`,
  '/ext/bc/myl1',
]);
const REST_PATHS = ['/ext/health', '/ext/health/health', '/ext/health/readiness', '/ext/health/liveness', '/ext/metrics'];

const endpointByName = (name: string) => ENDPOINTS.find((e) => e.name === name)!;

function pickEndpoint(rng: Rng): EndpointDef {
  return rng.weighted(ENDPOINTS.map((e) => [e, e.weight] as const));
}

function pickMethod(rng: Rng, e: EndpointDef): string {
  const names = Object.keys(e.methods).filter((m) => !RARE.has(`${e.service}.${m}`));
  return rng.pick(names);
}

// ---------------------------------------------------------------------------------------------
// Values: plausible (valid or nearly) per kind, and wrong types per kind.

/** The IDs of the setup txs (the second one is an asset). */
const setupIDs = (): string[] => setup().txs.map((t) => encodeCB58(t.id));

function cb58Random(rng: Rng, n = 32): string {
  return encodeCB58(rng.bytes(n));
}

const ENCODINGS = ['hex', 'hexc', 'hexnc', 'json', 'HEX', 'Json', 'HexNC', 'cb58', 'base58', '', 'hex ', ' hex', 'hex\u0000', 'hexnc\n', 'ḩex'];
const CHAINS = [
  'X',
  'P',
  'C',
  'avm',
  'platform',
  'evm',
  X_ID,
  C_ID,
  P_ID,
  '',
  'x',
  'bc/X',
  'Y',
  '11111111111111111111111111111111LpoYZ',
  'myl1',
  '..',
  '/',
  'X\u0000',
  AVAX_ID,
  NODE_ID,
];
const LOGGERS = [
  '',
  'main',
  'vm-factory',
  'P',
  'X',
  'C',
  'x',
  'MAIN',
  'nope',
  '../main',
  'main\u0000',
  'main ',
  '/',
  '..',
  'http',
  '__proto__',
  'constructor',
  'toString',
];
const LEVELS = [
  'verbo',
  'debug',
  'trace',
  'info',
  'warn',
  'error',
  'fatal',
  'off',
  'INFO',
  'Info',
  'DEBUG',
  '',
  'bogus',
  'verbose',
  'warning',
  'info ',
  ' info',
  'inf',
  'off\u0000',
  '0',
  '__proto__',
];
const CHECKS = [
  'database',
  'diskspace',
  'network',
  'router',
  'bls',
  'futureupgrade',
  'bootstrapped',
  'X',
  'P',
  'C',
  '',
  'nope',
  'Database',
  '__proto__',
  'constructor',
  'hasOwnProperty',
];
const ROUTE_NAMES = [
  'info',
  'admin',
  'health',
  'metrics',
  'emulator',
  'bc/X',
  'bc/P',
  `bc/${X_ID}`,
  'X',
  'P',
  'avm',
  'platform',
  'bc/avm',
  'index/X',
  'index/X/block',
  'index/P',
  'bc/X/wallet',
  'health/readiness',
  'health/health',
  'health/liveness',
];

function hostileAlias(rng: Rng): string {
  switch (rng.int(12)) {
    case 0:
      return rng.pick(['..', '../..', '.', '/', '//', '', ' ', '..%2f', '%2e%2e', 'a/../info', './info', '../ext/info', '\\..\\', 'bc/../info']);
    case 1:
      return rng.pick([
        'bc/X/wallet',
        'health/readiness',
        'health/health',
        'health/liveness',
        'index/X/block',
        'index/X/tx',
        'index/P/block',
        'metrics',
        'info',
        'admin',
        'emulator',
        'health',
      ]);
    case 2:
      return rng.pick(['bc/X', 'X', 'P', 'C', 'avm', 'platform', 'bc/P', 'bc/avm', `bc/${X_ID}`, X_ID, 'X/wallet', 'bc/X/wallet/', 'wallet']);
    case 3:
      return 'a'.repeat(rng.pick([511, 512, 513, 1024, 10_000]));
    case 4:
      return 'é'.repeat(rng.pick([255, 256, 257])); // 2 bytes each: around the 512-byte limit
    case 5:
      return `fz${rng.u32().toString(36)}`;
    case 6:
      return `fz/${rng.u32().toString(36)}/x`;
    case 7:
      return rng.pick(['\u0000', 'a\u0000b', '\n', 'ä', '😀', '\ud800', '%', '%00', '?x=1', '#frag', 'a b', '*']);
    case 8:
      return rng.pick(['/ext/info', 'ext/info', '/info', 'info/', 'health/', 'bc/X/', 'index/X/block/']);
    case 9:
      return rng.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']);
    case 10:
      return `${rng.pick(ROUTE_NAMES)}/${rng.pick(['x', '', '..', 'wallet', 'block', 'readiness'])}`;
    default:
      return rng.pick(ROUTE_NAMES);
  }
}

function addressValue(rng: Rng): string {
  switch (rng.int(10)) {
    case 0:
    case 1:
      return EWOQ_ADDR;
    case 2:
      return OTHER_ADDR;
    case 3:
      return rng.pick([
        'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        'C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        `${X_ID}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`,
        'X-LOCAL18JMA8PPW3NHX5R4AP8CLAZZ0DPS7RV5U00Z96U',
        'X-Local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        'X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        'X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96v',
      ]);
    case 4:
      return rng.pick([
        '',
        'X-',
        '-',
        'X',
        'X-local1',
        'X-local1qqqqqq',
        'X--local1',
        'Y-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
        'bc/X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u',
      ]);
    case 5:
      return EWOQ_SHORT_ID;
    case 6:
      return formatAddress(rng.pick(['X', 'P', 'C', 'avm']), rng.pick(['local', 'custom', 'avax', 'fuji', 'x']), rng.bytes(rng.pick([20, 20, 19, 21, 32, 0])));
    case 7:
      return cb58Random(rng, rng.pick([20, 19, 21]));
    case 8:
      return `X-local1${'q'.repeat(rng.range(1, 120))}`;
    default:
      return `X-local1${rng.bytes(rng.range(1, 40)).toString('latin1')}`;
  }
}

function idValue(rng: Rng): string {
  switch (rng.int(8)) {
    case 0:
      return rng.pick([AVAX_ID, X_ID, C_ID, P_ID, ...setupIDs()]);
    case 1:
      return cb58Random(rng);
    case 2:
      return rng.pick(setupIDs());
    case 3:
      return cb58Random(rng, rng.pick([0, 1, 31, 33, 64]));
    case 4: {
      const s = cb58Random(rng);
      return s.slice(0, -1) + (s.endsWith('1') ? '2' : '1');
    }
    case 5:
      return rng.pick(['', ' ', '0', 'O', 'I', 'l', '0x00', `${AVAX_ID} `, ` ${AVAX_ID}`, AVAX_ID.toLowerCase(), NODE_ID, 'AVAX', 'avax']);
    case 6:
      return rng.bytes(rng.range(1, 40)).toString('latin1');
    default:
      return '1'.repeat(rng.range(30, 60));
  }
}

function txTextValue(rng: Rng, fixtures: Fixture[]): string {
  const m = mutatedTx(rng, fixtures).bytes;
  return rng.chance(0.5) ? hexc(m) : `0x${m.toString('hex')}`;
}

export const hexnc = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;
export const hexc = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}${Buffer.from(sha256(b).subarray(28)).toString('hex')}`;

/** A plausible value of a kind, as raw JSON. */
function valueFor(rng: Rng, kind: Kind, fixtures: Fixture[]): string {
  switch (kind) {
    case 'string':
      return q(rng.pick(['', 'a', 'X', '0x00', AVAX_ID]));
    case 'id':
      return q(idValue(rng));
    case 'assetID':
      return q(rng.chance(0.4) ? rng.pick(['AVAX', AVAX_ID, 'avax', 'Avax', '']) : idValue(rng));
    case 'address':
      return q(addressValue(rng));
    case 'addresses': {
      const n = rng.weighted([
        [0, 1],
        [1, 6],
        [2, 3],
        [5, 1],
        [rng.range(6, 40), 1],
      ] as const);
      return `[${Array.from({ length: n }, () => (rng.chance(0.05) ? 'null' : q(addressValue(rng)))).join(',')}]`;
    }
    case 'chain':
      return q(rng.pick(CHAINS));
    case 'encoding':
      return q(rng.pick(ENCODINGS));
    case 'bool':
      return rng.pick(['true', 'false']);
    case 'u64':
      return rng.chance(0.5)
        ? rng.pick([
            '0',
            '1',
            '2',
            '3',
            '1023',
            '1024',
            '1025',
            '18446744073709551615',
            '"0"',
            '"1"',
            '"18446744073709551615"',
            '"18446744073709551616"',
            '"-1"',
            '"1e3"',
            '"0x1"',
            '"01"',
            '""',
            '" 1"',
          ])
        : String(rng.int(rng.pick([4, 100, 5000])));
    case 'u32':
      return rng.pick(['0', '1', '10', '1024', '1025', '4294967295', '4294967296', '"5"', '"-1"', '""', String(rng.int(2000))]);
    case 'txText':
      return q(txTextValue(rng, fixtures));
    case 'startIndex':
      return rng.chance(0.3) ? '{}' : objText([member('address', q(addressValue(rng))), member('utxo', q(idValue(rng)))]);
    case 'tags':
      return `[${Array.from({ length: rng.int(4) }, () => q(rng.pick([X_ID, P_ID, C_ID, '', 'X', cb58Random(rng), 'database']))).join(',')}]`;
    case 'nodeIDs':
      return `[${Array.from({ length: rng.int(3) }, () => q(rng.pick([NODE_ID, 'NodeID-', '', NODE_ID.toLowerCase(), `NodeID-${cb58Random(rng, 20)}`]))).join(',')}]`;
    case 'logger':
      return q(rng.pick(LOGGERS));
    case 'level':
      return rng.chance(0.15) ? 'null' : q(rng.pick(LEVELS));
    case 'alias':
      return q(hostileAlias(rng));
    case 'endpoint':
      return q(rng.chance(0.7) ? rng.pick(ROUTE_NAMES) : hostileAlias(rng));
    case 'hexKey':
      return q(
        rng.pick([
          '',
          '0x',
          '0x00',
          '00',
          '0xzz',
          '0x0',
          'zz',
          '0xffffffff',
          `0x${rng.bytes(rng.range(1, 40)).toString('hex')}`,
          `0x${'00'.repeat(rng.range(1, 100))}`,
          '0X00',
          '0x00 ',
          'lastAccepted',
        ]),
      );
    case 'check':
      return q(rng.pick(CHECKS));
    case 'text':
      return q(rng.pick(['', 'disk on fire', 'x'.repeat(rng.range(1, 300)), '\u0000', '😀', '\ud800', '<script>']));
  }
}

/** A value a client would send (mostly accepted), as raw JSON: rpc-call reaches the methods' real work. */
function validFor(rng: Rng, kind: Kind, fixtures: Fixture[]): string {
  const addr = () => rng.pick([EWOQ_ADDR, EWOQ_ADDR, OTHER_ADDR, formatAddress('X', 'local', rng.bytes(20))]);
  switch (kind) {
    case 'string':
      return q('X');
    case 'id':
      return q(rng.pick([AVAX_ID, X_ID, C_ID, P_ID, cb58Random(rng), ...setupIDs()]));
    case 'assetID':
      return q(rng.pick(['AVAX', AVAX_ID, setupIDs()[1]!]));
    case 'address':
      return q(addr());
    case 'addresses':
      return `[${Array.from({ length: rng.range(1, 3) }, () => q(addr())).join(',')}]`;
    case 'chain':
      return q(rng.pick(['X', 'P', 'C', X_ID, C_ID, P_ID]));
    case 'encoding':
      return q(rng.pick(['hex', 'hexc', 'hexnc', 'json']));
    case 'bool':
      return rng.pick(['true', 'false']);
    case 'u64':
    case 'u32':
      return rng.chance(0.5) ? String(rng.int(5)) : `"${rng.range(1, 1024)}"`;
    case 'txText':
      return valueFor(rng, kind, fixtures);
    case 'startIndex':
      return objText([member('address', q(addr())), member('utxo', q(cb58Random(rng)))]);
    case 'tags':
      return `[${q(rng.pick([X_ID, P_ID]))}]`;
    case 'nodeIDs':
      return `[${q(NODE_ID)}]`;
    case 'logger':
      return q(rng.pick(['main', 'X', 'P', 'C', 'vm-factory', '']));
    case 'level':
      return q(rng.pick(['info', 'warn', 'error', 'fatal', 'off']));
    case 'alias':
      return q(`fz${rng.u32().toString(36)}`);
    case 'endpoint':
      return q(rng.pick(ROUTE_NAMES));
    case 'hexKey':
      return q(`0x${rng.bytes(rng.range(1, 40)).toString('hex')}`);
    case 'check':
      return q(rng.pick(CHECKS.slice(0, 8)));
    case 'text':
      return q('disk on fire');
  }
}

/** A value of the wrong JSON type for a kind, as raw JSON. */
function wrongFor(rng: Rng, kind: Kind): string {
  const stringy = ['0', '1', '-1', '1.5', '1e400', 'true', 'false', '[]', '["a"]', '{}', '{"a":"b"}', '[[]]', '18446744073709551616'];
  const numbery = [
    'true',
    'false',
    '"abc"',
    '"1.5"',
    '"-1"',
    '"1e2"',
    '"0x10"',
    '""',
    '[]',
    '[1]',
    '{}',
    '-1',
    '1.5',
    '1e3',
    '-0',
    '1e400',
    '18446744073709551616',
    '99999999999999999999999',
    '"18446744073709551616"',
    '" 1"',
  ];
  switch (kind) {
    case 'bool':
      return rng.pick(['0', '1', '"true"', '"false"', '""', '[]', '{}', '[true]', 'null']);
    case 'u64':
    case 'u32':
      return rng.pick(numbery);
    case 'addresses':
    case 'tags':
    case 'nodeIDs':
      return rng.pick(['"X-local1"', '1', 'true', '{}', '{"0":"a"}', '[1]', '[true]', '[[]]', '[{}]', `[${q(EWOQ_ADDR)},1]`, '[null,null]', `"${EWOQ_ADDR}"`]);
    case 'startIndex':
      return rng.pick(['"x"', '1', 'true', '[]', '[1]', '{"address":1}', '{"utxo":[]}', '{"address":{}}', '{"ADDRESS":true}']);
    case 'level':
      return rng.pick(['0', '1', 'true', '[]', '{}', '["info"]']);
    default:
      return rng.pick(stringy);
  }
}

// =============================================================================================
// Requests.

const FAMILY_WEIGHTS: ReadonlyArray<readonly [Family, number]> = [
  ['rpc-call', 20],
  ['param-types', 13],
  ['envelope', 12],
  ['deep-nesting', 4],
  ['long-strings', 4],
  ['bad-bytes', 10],
  ['http', 8],
  ['paths', 8],
  ['rest', 5],
  ['tx-mutation', 11],
  ['admin-hostile', 5],
  // The EVM chains, the Data and Metrics APIs, websockets: a quarter of the requests (the suite's
  // 3,000 then take about as long as the node's own APIs alone did; about 60 websocket sessions).
  ['evm-call', 8],
  ['evm-params', 7],
  ['evm-envelope', 4],
  ['evm-tx', 4],
  ['evm-dev', 2],
  ['data-api', 3],
  ['metrics-api', 2],
  ['ws', 3],
];

interface Call {
  method: string;
  params?: string; // raw; undefined = no params member
  id?: string; // raw; undefined = no id member
  jsonrpc?: string; // raw; undefined = no jsonrpc member
}

function callEntries(c: Call): Entry[] {
  const e: Entry[] = [];
  if (c.jsonrpc !== undefined) e.push(member('jsonrpc', c.jsonrpc));
  e.push(member('method', q(c.method)));
  if (c.params !== undefined) e.push(member('params', c.params));
  if (c.id !== undefined) e.push(member('id', c.id));
  return e;
}

/** The effective member of an envelope: the last key equal to `name` ignoring ASCII case. */
function effective(entries: Entry[], name: string): { value: string; ambiguous: boolean } | undefined {
  let found: Entry | undefined;
  let ambiguous = false;
  for (const e of entries) {
    const key = decodeKey(e.key);
    if (key === undefined) {
      ambiguous = true;
      continue;
    }
    if (key.toLowerCase() === name) found = e;
    // Go folds some non-ASCII letters onto ASCII ones (ſ onto s, K onto k): such a key's fate is unknown here.
    else if (/[\u0080-\uffff]/.test(key)) ambiguous = true;
  }
  return found ? { value: found.value, ambiguous } : ambiguous ? { value: 'null', ambiguous } : undefined;
}

/** Serializes an envelope; the scheduled-only methods get params that cannot decode, so they never run. */
function envelopeBody(
  entries: Entry[],
  allowRare = false,
): { body: Buffer; hasId: boolean | undefined; rpcMethod: string | undefined; idRaw: string | undefined } {
  const m = effective(entries, 'method');
  let rpcMethod: string | undefined;
  try {
    const v = m ? (JSON.parse(m.value) as unknown) : undefined;
    if (typeof v === 'string') rpcMethod = v;
  } catch {
    /* not a string */
  }
  if (rpcMethod !== undefined && RARE.has(rpcMethod) && !allowRare) {
    entries = entries.filter((e) => {
      const k = decodeKey(e.key)?.toLowerCase();
      return k !== undefined && ['jsonrpc', 'method', 'id'].includes(k);
    });
    entries.push(member('params', '7'));
  }
  const id = effective(entries, 'id');
  const hasId = id === undefined ? false : id.ambiguous ? undefined : id.value.trim() !== 'null';
  return { body: Buffer.from(objText(entries), 'utf8'), hasId, rpcMethod, idRaw: hasId === true ? id!.value : undefined };
}

function rpcRequest(index: number, family: Family, note: string, path: string, entries: Entry[], extra: Partial<FuzzRequest> = {}): FuzzRequest {
  const { body, hasId, rpcMethod, idRaw } = envelopeBody(entries);
  return { index, family, note, method: 'POST', path, headers: { ...JSON_CT }, body, hasId, rpcMethod, ...(idRaw === undefined ? {} : { idRaw }), ...extra };
}

function plainId(rng: Rng): string {
  return rng.chance(0.8) ? String(rng.int(1_000_000)) : rng.pick(ID_VALUES);
}

/** Plausible params for a method of an endpoint (some fields left out, some extra); `valid` of them as a client sends them. */
function paramsFor(rng: Rng, spec: Spec, fixtures: Fixture[], valid = 0): string {
  const entries: Entry[] = [];
  for (const [field, kind] of Object.entries(spec)) {
    if (rng.chance(0.1)) continue;
    entries.push(member(rng.chance(0.05) ? field.toUpperCase() : field, rng.chance(valid) ? validFor(rng, kind, fixtures) : valueFor(rng, kind, fixtures)));
  }
  if (rng.chance(0.1)) entries.push(member(rng.pick(['extra', 'unknown', '__proto__', 'constructor']), jsonValue(rng, 1)));
  const obj = objText(entries);
  return rng.chance(0.1) ? `[${obj}]` : obj;
}

// ---------------------------------------------------------------------------------------------
// Families.

interface Ctx {
  index: number;
  rng: Rng;
  fixtures: Fixture[];
}

function rpcCall({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = rng.chance(0.03) ? rng.pick(['nope', 'getFoo', 'GetHeight', 'getheight', '']) : pickMethod(rng, e);
  const spec = e.methods[m] ?? {};
  const params = Object.keys(spec).length === 0 && rng.chance(0.5) ? undefined : paramsFor(rng, spec, fixtures, 0.75);
  const id = rng.chance(0.1) ? undefined : plainId(rng);
  const path = rng.pick(e.paths);
  const entries = callEntries({ jsonrpc: '"2.0"', method: `${e.service}.${m}`, params, id });
  return rpcRequest(index, 'rpc-call', `${e.service}.${m}${id === undefined ? ' (notification)' : ''}`, path, entries, aliasMeta(e.service, m, params));
}

/** admin.alias/aliasChain: which route the alias would occupy if it were accepted. */
function aliasMeta(service: string, method: string, params: string | undefined): Partial<FuzzRequest> {
  if (service !== 'admin' || (method !== 'alias' && method !== 'aliasChain') || params === undefined) return {};
  try {
    let p = JSON.parse(params) as unknown;
    if (Array.isArray(p)) p = p[0];
    const alias = (p as { alias?: unknown } | null)?.alias;
    if (typeof alias !== 'string') return {};
    return { aliasRoute: method === 'alias' ? `/ext/${alias}` : `/ext/bc/${alias}` };
  } catch {
    return {};
  }
}

function paramTypes({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const spec = e.methods[m]!;
  const fields = Object.entries(spec);
  let params: string;
  let note: string;
  if (fields.length === 0 || rng.chance(0.25)) {
    // The params member itself of the wrong shape.
    params = rng.pick([
      '1',
      '"x"',
      'true',
      'false',
      '[]',
      '[null]',
      '[1]',
      '[[]]',
      '["a","b"]',
      '[{},{}]',
      '{"":1}',
      '0',
      '-1',
      '1e400',
      '[true,{}]',
      '{}',
      'null',
    ]);
    note = `params ${params.slice(0, 20)}`;
  } else {
    const entries: Entry[] = [];
    const wrong: string[] = [];
    const forced = rng.int(fields.length);
    for (const [i, [field, kind]] of fields.entries()) {
      if (i === forced || rng.chance(0.35)) {
        entries.push(member(field, wrongFor(rng, kind)));
        wrong.push(field);
      } else if (rng.chance(0.8)) {
        entries.push(member(field, valueFor(rng, kind, fixtures)));
      }
    }
    const obj = objText(entries);
    params = rng.chance(0.15) ? `[${obj}]` : obj;
    note = `wrong ${wrong.join(',')}`;
  }
  const id = rng.chance(0.1) ? undefined : plainId(rng);
  const entries = callEntries({ jsonrpc: '"2.0"', method: `${e.service}.${m}`, params, id });
  return rpcRequest(index, 'param-types', `${e.service}.${m} ${note}`, rng.pick(e.paths), entries, aliasMeta(e.service, m, params));
}

const METHOD_NAMES = [
  '',
  '.',
  'avm',
  'avm.',
  '.getHeight',
  'avm..getHeight',
  'avm.getHeight.x',
  'AVM.getHeight',
  'avm.GetHeight',
  'avm.getheight',
  'avm.getHeight ',
  ' avm.getHeight',
  'avm.\u00e9',
  'avm.😀',
  'avm.getHeight\u0000',
  'rpc.discover',
  'system.listMethods',
  '__proto__.x',
  'avm.constructor',
  'avm.__proto__',
  'avm.toString',
  'avm.hasOwnProperty',
  'constructor.name',
  'avm.ǅx',
  'avm.ßx',
  'avm.İx',
  'avm.\ud800',
  'a.b.c.d',
  'info.getNetworkID',
  'health.health',
  'index.getIndex',
  'wallet.issueTx',
  'platform.getHeight',
];

function oddEnvelope({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const method = `${e.service}.${m}`;
  const params = paramsFor(rng, e.methods[m]!, fixtures);
  const path = rng.pick(e.paths);
  const kind = rng.int(11);
  const base = (): Entry[] => callEntries({ jsonrpc: '"2.0"', method, params, id: plainId(rng) });
  let entries: Entry[];
  let note: string;
  switch (kind) {
    case 0: {
      // ids of every JSON type
      const id = rng.chance(0.5) ? rng.pick(ID_VALUES) : jsonValue(rng, 3);
      entries = callEntries({ jsonrpc: '"2.0"', method, params, id });
      note = `id ${id.slice(0, 30)}`;
      break;
    }
    case 1: {
      // jsonrpc missing or wrong
      const jsonrpc = rng.pick([undefined, '"1.0"', '"2"', '2', '2.0', 'null', '""', '"2.0 "', '" 2.0"', '"2.00"', 'true', '[]', '{}', '"2.0\\u0000"']);
      entries = callEntries({ jsonrpc, method, params, id: plainId(rng) });
      note = `jsonrpc ${jsonrpc ?? '(missing)'}`;
      break;
    }
    case 2: {
      // method missing, of a wrong type, or an odd name
      const r = rng.int(3);
      entries = callEntries({ jsonrpc: '"2.0"', method, params, id: plainId(rng) }).filter((x) => x.key !== '"method"');
      if (r === 1) entries.push(member('method', rng.pick(['null', '1', '[]', '{}', 'true', `["${method}"]`])));
      if (r === 2) entries.push(member('method', q(rng.pick(METHOD_NAMES))));
      note = `method ${r === 0 ? '(missing)' : entries.at(-1)!.value.slice(0, 30)}`;
      break;
    }
    case 3: {
      // params of every shape
      const p = rng.pick([
        undefined,
        'null',
        '[]',
        '[null]',
        '[{}]',
        `[${params}]`,
        `[${params},${params}]`,
        `[${params},1]`,
        '"str"',
        '1',
        'true',
        '{}',
        '{"unknown":1}',
        jsonValue(rng, 3),
      ]);
      entries = callEntries({ jsonrpc: '"2.0"', method, params: p, id: plainId(rng) });
      note = `params ${(p ?? '(missing)').slice(0, 30)}`;
      break;
    }
    case 4: {
      // extra keys
      entries = base();
      const n = rng.range(1, 4);
      for (let i = 0; i < n; i++)
        entries.splice(
          rng.int(entries.length + 1),
          0,
          member(rng.pick(['extra', 'result', 'error', '__proto__', 'constructor', 'prototype', 'toString', '', 'jsonrpc2', 'ids']), jsonValue(rng, 2)),
        );
      note = 'extra keys';
      break;
    }
    case 5: {
      // duplicate keys (Go: the last one wins)
      entries = base();
      const key = rng.pick(['id', 'method', 'params', 'jsonrpc']);
      const dup =
        key === 'id'
          ? rng.pick(['null', '1', '"x"', '{}'])
          : key === 'method'
            ? q(rng.pick([method, 'avm.getHeight', 'nope.x', '']))
            : key === 'params'
              ? rng.pick(['null', '{}', '1', params])
              : rng.pick(['"2.0"', '"1.0"', 'null']);
      entries.splice(rng.int(entries.length + 1), 0, member(key, dup));
      note = `duplicate ${key}`;
      break;
    }
    case 6: {
      // keys in other cases and escaped forms
      entries = base().map((x) => {
        const k = decodeKey(x.key)!;
        const variant = rng.pick([
          k.toUpperCase(),
          k[0]!.toUpperCase() + k.slice(1),
          k,
          [...k].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
          k.replace('i', 'ı').replace('s', 'ſ'),
        ]);
        return { key: variant.includes('\\u') ? `"${variant}"` : q(variant), value: x.value };
      });
      note = 'key variants';
      break;
    }
    case 7: {
      // notifications
      entries = callEntries({ jsonrpc: '"2.0"', method, params, id: rng.chance(0.5) ? undefined : 'null' });
      note = 'notification';
      break;
    }
    case 8: {
      // batches (a parse error in this dialect)
      const n = rng.int(4);
      const items = Array.from({ length: n }, () => (rng.chance(0.8) ? objText(base()) : jsonValue(rng, 1)));
      return {
        index,
        family: 'envelope',
        note: `batch of ${n}`,
        method: 'POST',
        path,
        headers: { ...JSON_CT },
        body: Buffer.from(`[${items.join(',')}]`),
        hasId: undefined,
      };
    }
    case 9: {
      // top-level values that are not objects
      const body = rng.pick([
        '1',
        '"s"',
        'true',
        'null',
        '[]',
        '',
        ' ',
        '\n',
        '{}',
        '{"id":1}',
        '{"jsonrpc":"2.0","id":1}',
        '{"method":"avm.getHeight"}',
        '0',
        '-',
        '"',
        '[',
        '{',
        '}',
      ]);
      return {
        index,
        family: 'envelope',
        note: `top-level ${JSON.stringify(body)}`,
        method: 'POST',
        path,
        headers: { ...JSON_CT },
        body: Buffer.from(body),
        hasId: undefined,
      };
    }
    default: {
      // key order shuffled, method escaped
      entries = base();
      for (let i = entries.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [entries[i], entries[j]] = [entries[j]!, entries[i]!];
      }
      entries = entries.map((x) =>
        x.key === '"method"' && rng.chance(0.5)
          ? { key: x.key, value: `"${[...method].map((c) => (rng.chance(0.3) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')}"` }
          : x,
      );
      note = 'shuffled keys';
    }
  }
  return rpcRequest(index, 'envelope', `${method} ${note}`, path, entries);
}

/** `depth` levels of arrays, objects or both around `inner`. */
function nested(rng: Rng, depth: number, inner = '1'): string {
  const style = rng.int(4);
  if (style === 0) return '['.repeat(depth) + inner + ']'.repeat(depth);
  if (style === 1) return '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
  if (style === 2) return '[{"a":'.repeat(depth >> 1) + inner + '}]'.repeat(depth >> 1);
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    if (rng.chance(0.5)) {
      open.push('[');
      close.push(']');
    } else {
      open.push('{"k":');
      close.push('}');
    }
  }
  return open.join('') + inner + close.reverse().join('');
}

function deepNesting({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const method = `${e.service}.${m}`;
  const depth = rng.chance(0.85) ? rng.range(3000, 12000) : rng.range(12001, 40000);
  const where = rng.pick(['params', 'id', 'field', 'top', 'extra', 'method'] as const);
  const deep = nested(rng, depth, rng.pick(['1', '""', 'null', '[]', '{}']));
  const path = rng.pick(e.paths);
  if (where === 'top')
    return {
      index,
      family: 'deep-nesting',
      note: `${method} top-level depth ${depth}`,
      method: 'POST',
      path,
      headers: { ...JSON_CT },
      body: Buffer.from(deep),
      hasId: undefined,
    };
  const fields = Object.keys(e.methods[m]!);
  const params =
    where === 'params'
      ? deep
      : where === 'field'
        ? objText([member(fields.length > 0 ? rng.pick(fields) : 'x', deep)])
        : paramsFor(rng, e.methods[m]!, fixtures);
  const entries = callEntries({ jsonrpc: '"2.0"', method, params, id: where === 'id' ? deep : plainId(rng) });
  if (where === 'extra') entries.push(member('extra', deep));
  if (where === 'method') entries[1] = member('method', deep);
  return rpcRequest(index, 'deep-nesting', `${method} ${where} depth ${depth}`, path, entries);
}

function longString(rng: Rng, size: number): string {
  switch (rng.int(6)) {
    case 0:
      return 'a'.repeat(size);
    case 1:
      return `0x${'ab'.repeat(size >> 1)}`;
    case 2:
      return 'é'.repeat(size >> 1);
    case 3:
      return '😀'.repeat(size >> 2);
    case 4:
      return '1'.repeat(size);
    default: {
      const b = rng.bytes(size >> 1);
      return `0x${b.toString('hex')}`;
    }
  }
}

function longStrings({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const method = `${e.service}.${m}`;
  const path = rng.pick(e.paths);
  const overLimit = rng.chance(0.02);
  const size = overLimit ? 4 * 1024 * 1024 + rng.range(1, 300_000) : rng.logInt(1024, 1024 * 1024);
  const kind = overLimit ? 0 : rng.int(8);
  const fields = Object.keys(e.methods[m]!);
  const s = () => q(longString(rng, size));
  let entries: Entry[];
  let note: string;
  switch (kind) {
    case 0:
    case 1: {
      // a long param value
      const field = fields.length > 0 ? rng.pick(fields) : 'x';
      const obj: Entry[] = [member(field, s())];
      for (const f of fields) if (f !== field && rng.chance(0.5)) obj.push(member(f, valueFor(rng, e.methods[m]![f]!, fixtures)));
      entries = callEntries({ jsonrpc: '"2.0"', method, params: objText(obj), id: plainId(rng) });
      note = `${field} of ${size} chars`;
      break;
    }
    case 2: // a long method name
      entries = callEntries({ jsonrpc: '"2.0"', method: `${method}${'x'.repeat(size)}`, params: '{}', id: plainId(rng) });
      note = `method of ${size} chars`;
      break;
    case 3: // a long id
      entries = callEntries({ jsonrpc: '"2.0"', method, params: '{}', id: s() });
      note = `id of ${size} chars`;
      break;
    case 4: // a long key
      entries = callEntries({ jsonrpc: '"2.0"', method, params: `{${q('k'.repeat(size))}:1}`, id: plainId(rng) });
      note = `key of ${size} chars`;
      break;
    case 5: {
      // many keys
      const n = Math.min(50_000, size >> 4);
      entries = callEntries({ jsonrpc: '"2.0"', method, params: `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`, id: plainId(rng) });
      note = `${n} keys`;
      break;
    }
    case 6: {
      // a long array
      const n = Math.min(100_000, size >> 2);
      const item = rng.pick(['1', 'null', '""', '{}', '[]']);
      const field = fields.length > 0 ? rng.pick(fields) : 'x';
      entries = callEntries({ jsonrpc: '"2.0"', method, params: `{${q(field)}:[${Array(n).fill(item).join(',')}]}`, id: plainId(rng) });
      note = `${field}: array of ${n}`;
      break;
    }
    default: {
      // getUTXOs at and over its 1024-address limit
      const n = rng.pick([1024, 1025, 2000]);
      const addrs = Array.from({ length: n }, (_, i) => q(i % 2 === 0 ? EWOQ_ADDR : formatAddress('X', 'local', sha256(utf8(`a${i}`)).subarray(0, 20))));
      entries = callEntries({ jsonrpc: '"2.0"', method: 'avm.getUTXOs', params: `{"addresses":[${addrs.join(',')}],"limit":1024}`, id: plainId(rng) });
      return rpcRequest(index, 'long-strings', `avm.getUTXOs with ${n} addresses`, rng.pick(X_PATHS), entries);
    }
  }
  return rpcRequest(index, 'long-strings', `${method} ${note}${overLimit ? ' (over the body limit)' : ''}`, path, entries, overLimit ? { mayReset: true } : {});
}

const BAD_UTF8 = [[0xff], [0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3]];
const BAD_JSON = [
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1}x',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1}{}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1,}',
  "{'jsonrpc':'2.0','method':'avm.getHeight','id':1}",
  '{jsonrpc:"2.0",method:"avm.getHeight",id:1}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":NaN}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":Infinity}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":0x10}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":01}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":+1}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":.5}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1.}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":-}',
  '{"jsonrpc":"2.0","method":"avm\\x41","id":1}',
  '{"jsonrpc":"2.0","method":"avm\\u12","id":1}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1} // c',
  '/* c */{"jsonrpc":"2.0","method":"avm.getHeight","id":1}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1e}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":tru}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":nul}',
  '{"jsonrpc":"2.0""method":"avm.getHeight"}',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":1',
  '{"jsonrpc":"2.0","method":"avm.getHeight","id":"1}',
  '{"a":1,"a":2,"jsonrpc":"2.0","method":"avm.getHeight","id":1}',
];

function badBytes({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const method = `${e.service}.${m}`;
  const path = rng.pick(e.paths);
  const good = envelopeBody(callEntries({ jsonrpc: '"2.0"', method, params: paramsFor(rng, e.methods[m]!, fixtures), id: plainId(rng) })).body;
  const post = (note: string, body: Buffer): FuzzRequest => ({
    index,
    family: 'bad-bytes',
    note: `${method} ${note}`,
    method: 'POST',
    path,
    headers: { ...JSON_CT },
    body,
    hasId: undefined,
  });
  switch (rng.int(8)) {
    case 0:
      return post('random bytes', rng.bytes(rng.logInt(1, 8192)));
    case 1: {
      // invalid UTF-8 inside a string of a valid envelope
      const quotes = [...good.entries()].filter(([, c]) => c === 0x22).map(([i]) => i);
      const at = quotes.length > 0 ? rng.pick(quotes) + 1 : 0;
      const bad = Buffer.from(rng.pick(BAD_UTF8));
      return post(`invalid UTF-8 ${bad.toString('hex')} @${at}`, Buffer.concat([good.subarray(0, at), bad, good.subarray(at)]));
    }
    case 2: {
      // raw control bytes inside a string
      const quotes = [...good.entries()].filter(([, c]) => c === 0x22).map(([i]) => i);
      const at = quotes.length > 0 ? rng.pick(quotes) + 1 : 0;
      const ctl = Buffer.from([rng.chance(0.9) ? rng.int(0x20) : 0x7f]);
      return post(`control byte ${ctl.toString('hex')} @${at}`, Buffer.concat([good.subarray(0, at), ctl, good.subarray(at)]));
    }
    case 3:
      return post('BOM prefix', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), good]));
    case 4:
      return post('NUL suffix', Buffer.concat([good, Buffer.from(rng.pick([[0], [0, 0], [0x0a, 0], [0x1a]]))]));
    case 5: {
      // byte-level mutations of a valid envelope
      let b = good;
      const steps: string[] = [];
      for (let i = rng.range(1, 4); i > 0; i--) {
        const p = rng.int(b.length + 1);
        switch (rng.int(4)) {
          case 0:
            b = Buffer.from(b);
            if (p < b.length) b[p] = rng.u32() & 0xff;
            steps.push(`set@${p}`);
            break;
          case 1:
            b = Buffer.concat([b.subarray(0, p), rng.bytes(rng.range(1, 4)), b.subarray(p)]);
            steps.push(`ins@${p}`);
            break;
          case 2:
            b = Buffer.concat([b.subarray(0, p), b.subarray(p + rng.range(1, 4))]);
            steps.push(`del@${p}`);
            break;
          default:
            b = b.subarray(0, p);
            steps.push(`trunc@${p}`);
        }
      }
      return post(`mutated envelope ${steps.join(',')}`, Buffer.from(b));
    }
    case 6:
      return post('malformed JSON', Buffer.from(rng.pick(BAD_JSON)));
    default: {
      // a lone surrogate escape, or invalid escapes, in a value
      const esc = rng.pick(['\\ud800', '\\udc00', '\\ud800\\ud800', '\\uDFFF', '\\u0000', '\\u00', '\\x00', '\\', '\\U0041', '\\/', '\\b\\f\\n\\r\\t']);
      return post(
        `escape ${esc}`,
        Buffer.from(`{"jsonrpc":"2.0","method":"${method}","params":{"${rng.pick(Object.keys(e.methods[m]!).concat('x'))}":"a${esc}b"},"id":"${esc}"}`),
      );
    }
  }
}

const CONTENT_TYPES = [
  undefined,
  '',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json-rpc',
  'application/jsonx',
  'application/json;',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'Application/Json; charset=UTF-8',
  'application/json , text/plain',
  ' application/json',
  'application/json\t',
  '*/*',
  'application/*',
  'json',
  'application',
  'application/json; charset="utf-8"',
  ';application/json',
  'application/json;;;',
  'text/json',
  'application/vnd.api+json',
  'application/jsón',
];
const HTTP_METHODS = [
  'GET',
  'HEAD',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PURGE',
  'MKCOL',
  'SEARCH',
  'M-SEARCH',
  'LINK',
  'UNLINK',
  'REPORT',
  'FOO',
  'post',
  'Post',
];

function oddHttp({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const method = `${e.service}.${m}`;
  const path = rng.pick(e.paths);
  const { body, hasId, idRaw } = envelopeBody(callEntries({ jsonrpc: '"2.0"', method, params: paramsFor(rng, e.methods[m]!, fixtures), id: plainId(rng) }));
  const r: FuzzRequest = {
    index,
    family: 'http',
    note: '',
    method: 'POST',
    path,
    headers: {},
    body,
    hasId,
    rpcMethod: method,
    ...(idRaw === undefined ? {} : { idRaw }),
  };
  switch (rng.int(7)) {
    case 0: {
      // content types
      const ct = rng.pick(CONTENT_TYPES);
      if (ct !== undefined) r.headers['content-type'] = ct;
      r.note = `content-type ${JSON.stringify(ct ?? null)}`;
      break;
    }
    case 1: {
      // HTTP methods
      r.method = rng.pick(HTTP_METHODS);
      r.headers['content-type'] = 'application/json';
      if (rng.chance(0.3)) delete r.body;
      r.note = `method ${r.method}`;
      break;
    }
    case 2: {
      // CORS: preflights and origins
      r.headers['content-type'] = 'application/json';
      r.headers.origin = rng.pick(['null', 'http://evil.example', 'https://localhost', '*', '', 'http://127.0.0.1:1', 'x'.repeat(2000)]);
      if (rng.chance(0.5)) {
        r.method = 'OPTIONS';
        r.headers['access-control-request-method'] = rng.pick(['POST', 'GET', 'DELETE', 'post', '', 'X']);
        if (rng.chance(0.5))
          r.headers['access-control-request-headers'] = rng.pick(['content-type', 'Content-Type, X-Custom', '', ',,', 'origin,accept', 'x-'.repeat(300)]);
      }
      r.note = `CORS ${r.method} origin ${r.headers.origin.slice(0, 30)}`;
      break;
    }
    case 3: {
      // Host header
      r.headers['content-type'] = 'application/json';
      r.headers.host = rng.pick([
        'evil.example',
        'localhost',
        'LOCALHOST',
        'localhost:1',
        '[::1]',
        '[::1]:9650',
        '127.0.0.1:9',
        '',
        'a'.repeat(1000),
        '[',
        '[::1',
        ':80',
        'localhost.',
        '0x7f.1',
      ]);
      r.expectRpc = false;
      r.note = `host ${JSON.stringify(r.headers.host.slice(0, 30))}`;
      break;
    }
    case 4: {
      // header routing
      r.headers['content-type'] = 'application/json';
      r.headers['avalanche-api-route'] = rng.pick(['', 'X', `bc/${X_ID}`, 'x'.repeat(500)]);
      r.expectRpc = false;
      r.note = `avalanche-api-route ${JSON.stringify(r.headers['avalanche-api-route'].slice(0, 20))}`;
      break;
    }
    case 5: {
      // a chunked body
      r.headers['content-type'] = 'application/json';
      r.chunked = true;
      r.note = 'chunked body';
      break;
    }
    default: {
      // assorted headers
      r.headers['content-type'] = 'application/json';
      const h = rng.pick([
        ['accept-encoding', 'gzip, br'],
        ['accept', 'text/html'],
        ['expect', '100-continue'],
        ['connection', 'close'],
        ['x-forwarded-for', '1.2.3.4'],
        ['cookie', 'a=b'],
        ['te', 'trailers'],
        ['x-long', 'v'.repeat(8000)],
      ] as const);
      r.headers[h[0]] = h[1];
      r.note = `header ${h[0]}`;
    }
  }
  return r;
}

function oddPaths({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = pickEndpoint(rng);
  const m = pickMethod(rng, e);
  const method = `${e.service}.${m}`;
  const p = rng.pick(e.paths);
  const variants = [
    `${p}/`,
    `/${p}`,
    p.replace('/ext/', '/ext//'),
    p.replace('/ext/', '/ext/./'),
    `${p}/..`,
    `${p}/../..${p}`,
    p.replace('/ext/', '/ext/%2e%2e/ext/'),
    p.replace(/\/([^/]+)$/, '%2F$1'),
    `${p}%`,
    `${p}%zz`,
    `${p}%00`,
    `${p}%C0%80`,
    p.toUpperCase(),
    p.replace('/ext', '/EXT'),
    `${p}?x=1&y`,
    `${p}?`,
    `${p}#frag`,
    `${p}?tag=${'z'.repeat(100)}`,
    `${p}\xff`,
    `${p}/\xe9`,
    '/ext',
    '/ext/',
    '/',
    '*',
    '/ext/bc',
    '/ext/bc/',
    '/ext/bc/Y',
    '/ext/bc/C',
    '/ext/bc/C/rpc',
    '/ext/bc/C/avax',
    '/ext/index/X',
    '/ext/index/X/blocks',
    '/ext/index',
    '/ext/bc/X/wallet/x',
    '/ext/health/foo',
    '/ext/metrics/x',
    '/ext/info/x',
    '/ext/keystore',
    '/ext/ipcs',
    `/ext/${'a'.repeat(rng.pick([100, 4000, 20000]))}`,
    `${p}?${'q'.repeat(rng.pick([100, 8000]))}`,
    'http://127.0.0.1/ext/info',
    `/ext/bc/${X_ID.toLowerCase()}`,
    `/ext/bc/${C_ID}`,
    `/ext/bc/${AVAX_ID}`,
    '/ext/%62c/X',
    '/ext/bc/X%2fwallet',
    '/..',
    '/./ext/info',
    '/ext/info/.',
    '/ext/info/./',
  ];
  const path = rng.pick(variants);
  const { body, hasId } = envelopeBody(callEntries({ jsonrpc: '"2.0"', method, params: paramsFor(rng, e.methods[m]!, fixtures), id: plainId(rng) }));
  return {
    index,
    family: 'paths',
    note: `${method} at ${JSON.stringify(path.slice(0, 60))}`,
    method: rng.chance(0.85) ? 'POST' : 'GET',
    path,
    headers: { ...JSON_CT },
    body,
    hasId,
    rpcMethod: method,
  };
}

function restEndpoints({ index, rng }: Ctx): FuzzRequest {
  const path = rng.pick(REST_PATHS);
  const tags = Array.from({ length: rng.int(4) }, () => rng.pick([X_ID, P_ID, C_ID, '', 'X', 'a'.repeat(300), '%00', '%zz', '&', '=', cb58Random(rng)]));
  const query = rng.chance(0.5)
    ? `?${tags.map((t) => `tag=${t}`).join('&')}${rng.chance(0.2) ? '&tag' : ''}`
    : rng.chance(0.1)
      ? rng.pick(['?', '?=', '?&&', '?tag=%ff', '?tag=\xff'])
      : '';
  const method = rng.weighted([
    ['GET', 8],
    ['HEAD', 1],
    ['POST', 2],
    ['PUT', 1],
    ['DELETE', 1],
    ['OPTIONS', 1],
  ] as const);
  const headers: Record<string, string> = {};
  if (rng.chance(0.5)) headers['content-type'] = rng.pick(['application/json', 'text/plain', '']);
  const body = rng.chance(0.3) ? Buffer.from(rng.pick(['{}', '{"jsonrpc":"2.0","method":"health.health","id":1}', 'x'.repeat(1000), ''])) : undefined;
  const r: FuzzRequest = { index, family: 'rest', note: `${method} ${path}${query.slice(0, 40)}`, method, path: path + query, headers, hasId: undefined };
  if (body) r.body = body;
  return r;
}

function txMutation({ index, rng, fixtures }: Ctx): FuzzRequest {
  const wallet = rng.chance(0.4);
  const e = endpointByName(wallet ? 'wallet' : 'avm');
  const path = rng.chance(0.7) ? e.paths[0]! : rng.pick(e.paths);
  const { bytes, what } = mutatedTx(rng, fixtures);
  const form = rng.weighted([
    ['hex', 4],
    ['hexc', 3],
    ['hexnc', 4],
    ['default', 2],
    ['hex-badsum', 1],
    ['cb58', 2],
    ['cb58-as-hex', 1],
    ['json', 1],
    ['upper', 1],
    ['0X', 1],
  ] as const);
  let text: string;
  let encoding: string | undefined;
  switch (form) {
    case 'hex':
    case 'hexc':
      text = hexc(bytes);
      encoding = form;
      break;
    case 'hexnc':
      text = hexnc(bytes);
      encoding = 'hexnc';
      break;
    case 'default':
      text = hexc(bytes);
      encoding = undefined;
      break;
    case 'hex-badsum':
      text = `${hexnc(bytes)}00000000`;
      encoding = 'hex';
      break;
    case 'cb58':
      text = encodeCB58(bytes);
      encoding = 'cb58';
      break;
    case 'cb58-as-hex':
      text = encodeCB58(bytes);
      encoding = 'hex';
      break;
    case 'json':
      text = hexc(bytes);
      encoding = 'json';
      break;
    case 'upper':
      text = `0x${hexc(bytes).slice(2).toUpperCase()}`;
      encoding = 'hex';
      break;
    default:
      text = `0X${hexnc(bytes).slice(2)}`;
      encoding = 'hexnc';
  }
  const params = objText([member('tx', q(text)), ...(encoding === undefined ? [] : [member('encoding', q(encoding))])]);
  const entries = callEntries({ jsonrpc: '"2.0"', method: `${e.service}.issueTx`, params, id: plainId(rng) });
  return rpcRequest(index, 'tx-mutation', `${e.service}.issueTx ${form}: ${what}`, path, entries);
}

function adminHostile({ index, rng, fixtures }: Ctx): FuzzRequest {
  const e = endpointByName('admin');
  const m = rng.weighted([
    ['alias', 5],
    ['aliasChain', 4],
    ['getChainAliases', 2],
    ['setLoggerLevel', 4],
    ['getLoggerLevel', 2],
    ['dbGet', 3],
    ['loadVMs', 1],
    ['getConfig', 1],
    ['lockProfile', 1],
    ['stopCPUProfiler', 1],
  ] as const);
  let params: string;
  switch (m) {
    case 'alias':
      params = objText([member('endpoint', valueFor(rng, 'endpoint', fixtures)), member('alias', q(hostileAlias(rng)))]);
      break;
    case 'aliasChain':
      params = objText([member('chain', q(rng.pick(CHAINS))), member('alias', q(hostileAlias(rng)))]);
      break;
    case 'getChainAliases':
      params = objText([member('chain', q(rng.chance(0.5) ? rng.pick(CHAINS) : hostileAlias(rng)))]);
      break;
    case 'setLoggerLevel': {
      const entries = [member('loggerName', q(rng.chance(0.7) ? rng.pick(LOGGERS) : hostileAlias(rng)))];
      // Never turn display logging up: the node's stdout would then carry a line per call.
      if (rng.chance(0.7)) entries.push(member('logLevel', valueFor(rng, 'level', fixtures)));
      if (rng.chance(0.5)) entries.push(member('displayLevel', q(rng.pick(['off', 'fatal', 'error', 'bogus', '', 'OFF', 'Fatal']))));
      params = objText(entries);
      break;
    }
    case 'getLoggerLevel':
      params = objText([member('loggerName', q(rng.chance(0.7) ? rng.pick(LOGGERS) : hostileAlias(rng)))]);
      break;
    case 'dbGet':
      params = objText([member('key', rng.chance(0.8) ? valueFor(rng, 'hexKey', fixtures) : q(`0x${'ab'.repeat(rng.logInt(1, 100_000))}`))]);
      break;
    default:
      params = rng.chance(0.5) ? '{}' : jsonValue(rng, 2);
  }
  const entries = callEntries({ jsonrpc: '"2.0"', method: `admin.${m}`, params, id: plainId(rng) });
  return rpcRequest(index, 'admin-hostile', `admin.${m} ${params.slice(0, 80)}`, e.paths[0]!, entries, aliasMeta('admin', m, params));
}

const GENERATORS: Record<Family, (ctx: Ctx) => FuzzRequest> = {
  'rpc-call': rpcCall,
  'param-types': paramTypes,
  envelope: oddEnvelope,
  'deep-nesting': deepNesting,
  'long-strings': longStrings,
  'bad-bytes': badBytes,
  http: oddHttp,
  paths: oddPaths,
  rest: restEndpoints,
  'tx-mutation': txMutation,
  'admin-hostile': adminHostile,
  'evm-call': ({ index, rng }) => evmCall(index, rng),
  'evm-params': ({ index, rng }) => evmParams(index, rng),
  'evm-envelope': ({ index, rng }) => evmEnvelope(index, rng),
  'evm-tx': ({ index, rng }) => evmTx(index, rng),
  'evm-dev': ({ index, rng }) => evmDev(index, rng),
  'data-api': ({ index, rng }) => dataApi(index, rng),
  'metrics-api': ({ index, rng }) => metricsApi(index, rng),
  ws: ({ index, rng }) => wsSession(index, rng),
};

/** The costly admin methods, run (for real) only at these indices: [method, period, offset]. */
export const SCHEDULED: ReadonlyArray<readonly [string, number, number]> = [
  ['admin.startCPUProfiler', 1500, 100],
  ['admin.stopCPUProfiler', 1500, 400],
  ['admin.memoryProfile', 4000, 777],
  ['admin.stacktrace', 5000, 1234],
];

/** Request `index` of the run seeded `seed`: a pure function of both. */
export function generate(seed: number, index: number, fixtures: Fixture[]): FuzzRequest {
  for (const [method, period, offset] of SCHEDULED) {
    if (index % period === offset) {
      const { body, hasId, rpcMethod } = envelopeBody(callEntries({ jsonrpc: '"2.0"', method, params: '{}', id: String(index) }), true);
      return {
        index,
        family: 'admin-hostile',
        note: `${method} (scheduled)`,
        method: 'POST',
        path: '/ext/admin',
        headers: { ...JSON_CT },
        body,
        hasId,
        rpcMethod,
      };
    }
  }
  const rng = new Rng(seed, index);
  const family = rng.weighted(FAMILY_WEIGHTS);
  return GENERATORS[family]({ index, rng, fixtures });
}

// =============================================================================================
// Sending and judging.

export interface Outcome {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: Buffer;
  error?: string;
  timedOut?: boolean;
  /** The request went out on a kept-alive socket (a reset there can be the client's race). */
  reused?: boolean;
  ms: number;
}

const MAX_REPLY = 64 * 1024 * 1024;

export function send(base: URL, agent: http.Agent, r: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (o: Omit<Outcome, 'ms'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...o, reused: req.reusedSocket, ms: performance.now() - t0 });
    };
    let req!: http.ClientRequest;
    try {
      // Framing is always explicit: Node sends a GET's or an OPTIONS's body unframed otherwise, and the
      // server would read it as the next request on the connection.
      const headers: Record<string, string> = { ...r.headers };
      if (r.chunked) headers['transfer-encoding'] = 'chunked';
      else if (r.body !== undefined) headers['content-length'] = String(r.body.length);
      else if (r.method !== 'GET' && r.method !== 'HEAD') headers['content-length'] = '0';
      req = http.request({ host: base.hostname, port: base.port, method: r.method, path: r.path, headers, agent });
    } catch (err) {
      resolve({ error: `client refused the request: ${(err as Error).message}`, ms: 0 });
      return;
    }
    const timer = setTimeout(() => {
      finish({ timedOut: true });
      req.destroy(new Error('fuzz timeout'));
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_REPLY) chunks.push(c);
      });
      res.on('end', () => finish({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err: NodeJS.ErrnoException) => finish({ status: res.statusCode!, error: err.code ?? err.message }));
      res.on('aborted', () => finish({ status: res.statusCode!, error: 'response aborted' }));
    });
    if (r.body === undefined) {
      req.end();
    } else if (r.chunked) {
      const b = r.body;
      const step = Math.max(1, Math.ceil(b.length / 7));
      for (let i = 0; i < b.length; i += step) req.write(b.subarray(i, i + step));
      req.end();
    } else {
      req.end(r.body);
    }
  });
}

/** The JSON-RPC expectation: a POST of JSON to a JSON-RPC route, without the oddities that answer before it. */
export function expectsRpc(r: FuzzRequest): boolean {
  if (r.expectRpc !== undefined) return r.expectRpc;
  if (r.method !== 'POST') return false;
  const q = r.path.indexOf('?');
  const path = q < 0 ? r.path : r.path.slice(0, q);
  if (r.dialect === 'geth' ? !EVM_RPC_PATHS.has(path) : !RPC_PATHS.has(path)) return false;
  const ct = r.headers['content-type'];
  if (ct === undefined) return false;
  const semi = ct.indexOf(';');
  return (semi < 0 ? ct : ct.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

/** A gorilla reply: one JSON-RPC 2.0 object. */
export function rpcReplyError(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  return rpcObjectError(v);
}

/** The reply to a request with a known id echoes it (JSON-equal), unless the body did not parse (-32700, id null). */
function idEchoError(r: FuzzRequest, text: string): string | undefined {
  if (r.idRaw === undefined || r.idRaw.length > 4096) return undefined;
  try {
    const reply = JSON.parse(text) as { id?: unknown; error?: { code?: unknown } };
    if (Array.isArray(reply)) return undefined;
    if (reply.error?.code === -32700) return undefined;
    // coreth's hasValidID: an object or array is no id, and the request is invalid (id null).
    const first = r.idRaw.trimStart()[0];
    if (r.dialect === 'geth' && (first === '{' || first === '[')) {
      return reply.id === null && reply.error?.code === -32600 ? undefined : `an object or array id is no id to coreth, yet: ${text.slice(0, 80)}`;
    }
    const want = JSON.stringify(JSON.parse(r.idRaw));
    const got = JSON.stringify(reply.id);
    return want === got ? undefined : `id ${got.slice(0, 60)} does not echo the request's ${r.idRaw.slice(0, 60)}`;
  } catch {
    return undefined; // too deep to compare here
  }
}

/** A 503 that is a health report (a failing check, e.g. injected by emulator.failHealthCheck); HEAD gets its headers only. */
function isHealthReport(r: FuzzRequest, o: Outcome): boolean {
  if (r.method === 'HEAD') return o.headers?.['content-type'] === 'application/json' && REST_PATHS.includes(r.path.split('?')[0]!);
  try {
    const v = JSON.parse(o.body?.toString('utf8') ?? '') as { checks?: unknown; healthy?: unknown };
    return typeof v === 'object' && v !== null && typeof v.checks === 'object' && v.healthy === false;
  } catch {
    return false;
  }
}

/** README: aggregateSignatures answers a failed aggregation with icm-services' 500 (`failed to aggregate signatures. error: …`). */
export function isDocumented500(r: FuzzRequest, o: Outcome): boolean {
  return (
    r.restApi === 'data' && o.status === 500 && r.path.includes('/aggregateSignatures') && /failed to aggregate signatures/.test(o.body?.toString('utf8') ?? '')
  );
}

export function judge(r: FuzzRequest, o: Outcome): Problem[] {
  const p = (kind: ProblemKind, detail: string): Problem => ({ kind, index: r.index, family: r.family, note: r.note, detail });
  if (o.timedOut) return [p('hang', `no answer within the per-request timeout (${Math.round(o.ms)} ms)`)];
  if (o.status === undefined) return r.mayReset ? [] : [p('connection', o.error ?? 'no status')];
  if (o.status >= 500 && !(o.status === 503 && isHealthReport(r, o)) && !isDocumented500(r, o)) return [p('5xx', `HTTP ${o.status}: ${snippet(o.body)}`)];
  if (o.error && !r.mayReset) return [p('connection', `${o.error} after HTTP ${o.status}`)];
  const problems: Problem[] = [];
  // The Data and Metrics APIs' own routes (a path elsewhere, /V1 say, is the node's plain 404).
  if (r.restApi && /^\/v[12](\/|\?|$)/.test(r.path) && o.status >= 400 && o.status < 500 && r.method !== 'HEAD') {
    const bad = restBodyError(o.status, o.body?.toString('utf8') ?? '');
    if (bad) problems.push(p('rest-body', `${bad}: ${snippet(o.body)}`));
  }
  if (expectsRpc(r)) {
    const text = o.body?.toString('utf8') ?? '';
    // A body over the 4 MiB limit is refused with 413 before it is parsed.
    if (o.status === 413 && (r.mayReset || (r.body?.length ?? 0) > 4 * 1024 * 1024)) return problems;
    if (o.status !== 200) problems.push(p('invalid-reply', `HTTP ${o.status} from a JSON-RPC route: ${snippet(o.body)}`));
    else if (text === '') {
      if (r.hasId === true) problems.push(p('invalid-reply', 'empty body for a request with an id'));
    } else {
      const bad = (r.dialect === 'geth' ? gethReplyError(text) : rpcReplyError(text)) ?? idEchoError(r, text);
      if (bad) problems.push(p('invalid-reply', `${bad}: ${snippet(o.body)}`));
      else if (r.rpcMethod === 'avm.issueTx' && r.family === 'tx-mutation' && X_PATHS.includes(r.path) && text.includes('"result"')) {
        problems.push(p('tx-accepted', `avm.issueTx accepted a mutated tx: ${snippet(o.body)}`));
      } else if (r.mutatedEvmTx !== undefined && /"result"\s*:\s*"0x/.test(text)) {
        problems.push(p('tx-accepted', `eth_sendRawTransaction accepted a mutated or foreign tx ${r.mutatedEvmTx}: ${snippet(o.body)}`));
      }
    }
  }
  return problems;
}

/** The close codes a session may see when the node closes it while it is being answered (a whole-node revert or load ends every websocket). */
const CLOSED_WHILE_ANSWERING = new Set<number | 'none' | undefined>([undefined, 1001, 1012]);

export function judgeWs(r: FuzzRequest, o: WsOutcome): Problem[] {
  const s = r.ws!;
  const p = (kind: ProblemKind, detail: string): Problem => ({ kind, index: r.index, family: r.family, note: r.note, detail });
  const problems: Problem[] = [];
  for (const bad of o.invalid.slice(0, 3)) problems.push(p('invalid-reply', bad));
  if (o.status === undefined) {
    problems.push(
      o.timedOut
        ? p('ws-hang', `no answer to the handshake within ${Math.round(o.ms)} ms`)
        : p('connection', `the handshake got no answer (${o.error ?? 'closed'})`),
    );
    return problems;
  }
  if (o.status >= 500) return [...problems, p('5xx', `the handshake got HTTP ${o.status}`)];
  if (s.refused) {
    if (o.status === 101) problems.push(p('ws-protocol', 'an invalid handshake was upgraded'));
    else if (o.status < 400) problems.push(p('ws-protocol', `the handshake got HTTP ${o.status}`));
    return problems;
  }
  if (o.status !== 101) return [...problems, p('ws-protocol', `the handshake got HTTP ${o.status}, not 101`)];
  if (s.closeCodes) {
    if (o.timedOut && o.closeCode === undefined && !o.ended)
      problems.push(p('ws-hang', `neither answered nor closed within ${Math.round(o.ms)} ms (${o.replies}/${o.expected} answers)`));
    else if (typeof o.closeCode === 'number' && !s.closeCodes.includes(o.closeCode))
      problems.push(p('ws-protocol', `closed with ${o.closeCode}, RFC 6455 says ${s.closeCodes.join(' or ')}`));
    return problems;
  }
  if (o.replies < o.expected) {
    if (o.timedOut && o.closeCode === undefined && !o.ended)
      problems.push(p('ws-hang', `${o.replies} of ${o.expected} answers within ${Math.round(o.ms)} ms, and not closed`));
    else if (!CLOSED_WHILE_ANSWERING.has(o.closeCode))
      problems.push(p('ws-protocol', `closed with ${o.closeCode} after ${o.replies} of ${o.expected} answers`));
  }
  return problems;
}

// =============================================================================================
// The run.

export interface RunOptions {
  uri: string;
  seed: number;
  indices: Iterable<number> | number;
  concurrency: number;
  timeoutMs: number;
  fixtures: Fixture[];
  /** The node's dump after the setup (hex): what `$DUMP` stands for. */
  dump?: string;
  /** Send only the requests of these families (the others are generated and skipped: indices keep their requests). */
  families?: ReadonlySet<string>;
  /** Stop early (the node died, too many hangs). */
  shouldStop?: () => string | undefined;
  onResult?: (r: FuzzRequest, o: Outcome, problems: Problem[]) => void;
}

export interface RunStats {
  sent: number;
  perFamily: Record<string, number>;
  /** The time the requests of each family took, in all (ms). */
  msPerFamily: Record<string, number>;
  statuses: Record<string, number>;
  problems: Problem[];
  counts: Record<ProblemKind, number>;
  /** admin.alias/aliasChain calls accepted with the name of an existing route (which must keep its handler). */
  aliasesOnKnownRoutes: Array<{ index: number; route: string }>;
  /** Connection errors on a kept-alive socket, retried once on a fresh one (the client's race, not a failure). */
  retried: Array<{ index: number; family: Family; error: string }>;
  walletTxIDs: string[];
  /** JSON-RPC replies judged (valid shape), and among them ids compared with the request's. */
  rpcReplies: number;
  idsCompared: number;
  /** Valid EVM txs: sent, accepted (a hash back), refused with the reason; hashes of some accepted ones per chain. */
  evmValid: { sent: number; accepted: number; refused: Record<string, number>; hashes: Array<{ chain: string; hash: string }> };
  /** Mutated and foreign EVM txs sent, and some of their hashes (never to be mined). */
  evmMutated: { sent: number; hashes: Array<{ chain: string; hash: string }> };
  /** Websocket sessions: frames and messages written, close codes seen per case, sessions the node closed while answering. */
  ws: { sessions: number; framesSent: number; closeCodes: Record<string, Record<string, number>>; closedWhileAnswering: number };
  /** Data API 500s the README documents (aggregateSignatures' failed aggregations). */
  documented500: number;
  /** When admin.memoryProfile ran (Date.now() from, to): V8's heap snapshot stops the node for its whole length. */
  heapSnapshots: Array<[number, number]>;
  stoppedEarly?: string;
  ms: number;
  slowest: Array<{ index: number; ms: number; note: string }>;
}

const FILTER_METHODS = /"method":"eth_new(Block|PendingTransaction)?Filter"/;

/** A per-key mutex: the valid txs of one chain are signed and sent one at a time (their nonces follow one another). */
class Lanes {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.tails.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }
}

export async function runFuzz(o: RunOptions): Promise<RunStats> {
  const base = new URL(o.uri);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const stats: RunStats = {
    sent: 0,
    perFamily: Object.fromEntries(FAMILIES.map((f) => [f, 0])),
    msPerFamily: Object.fromEntries(FAMILIES.map((f) => [f, 0])),
    statuses: {},
    problems: [],
    counts: Object.fromEntries(PROBLEM_KINDS.map((k) => [k, 0])) as Record<ProblemKind, number>,
    aliasesOnKnownRoutes: [],
    retried: [],
    walletTxIDs: [],
    rpcReplies: 0,
    idsCompared: 0,
    evmValid: { sent: 0, accepted: 0, refused: {}, hashes: [] },
    evmMutated: { sent: 0, hashes: [] },
    ws: { sessions: 0, framesSent: 0, closeCodes: {}, closedWhileAnswering: 0 },
    documented500: 0,
    heapSnapshots: [],
    ms: 0,
    slowest: [],
  };
  const lanes = new Lanes();
  const lastFilter = new Map<string, string>();
  const lastPage = new Map<string, string>();
  const chainOf = (path: string) => (path.includes('/myl1/') ? 'myl1' : 'C');
  const restKey = (path: string) => path.split('?')[0]!;

  /** Fills in what only the run knows ($FILTER, $PAGE, $DUMP). */
  const materialize = (r: FuzzRequest): FuzzRequest => {
    let out = r;
    if (r.body?.includes('"$')) {
      let text = r.body.toString('utf8');
      text = text.replaceAll('"$FILTER"', JSON.stringify(lastFilter.get(chainOf(r.path)) ?? '0x0'));
      text = text.replaceAll('"$DUMP"', JSON.stringify(o.dump ?? '0x'));
      out = { ...r, body: Buffer.from(text, 'utf8') };
    }
    if (r.path.includes('$PAGE')) out = { ...out, path: r.path.replaceAll('$PAGE', encodeURIComponent(lastPage.get(restKey(r.path)) ?? 'none')) };
    return out;
  };

  /** A valid EVM tx: the sender's pending nonce now, signed, sent; one at a time per chain. */
  const sendValidTx = (r: FuzzRequest): Promise<{ sent: FuzzRequest; outcome: Outcome }> =>
    lanes.run(r.evmTx!.chain, async () => {
      const t = r.evmTx!;
      const path = EVM_CHAINS[t.chain].paths[0]!;
      const nonceReq: FuzzRequest = {
        ...r,
        body: Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionCount","params":["${TEST0_EVM}","pending"]}`),
        path,
      };
      const got = await send(base, agent, nonceReq, o.timeoutMs);
      let nonce = 0;
      try {
        nonce = Number(BigInt((JSON.parse(got.body?.toString('utf8') ?? '') as { result: string }).result));
      } catch {
        /* the send below reports what is wrong */
      }
      const raw = await signTemplate(t, nonce);
      const sent: FuzzRequest = { ...r, path, body: sendRawBody(raw, r.idRaw ?? '1') };
      const outcome = await send(base, agent, sent, o.timeoutMs);
      stats.evmValid.sent++;
      const text = outcome.body?.toString('utf8') ?? '';
      const m = /"result":"(0x[0-9a-f]{64})"/.exec(text);
      if (m) {
        stats.evmValid.accepted++;
        if (stats.evmValid.hashes.length < 400) stats.evmValid.hashes.push({ chain: t.chain, hash: m[1]! });
      } else {
        const reason = (/"message":"([^"]{0,200})/.exec(text)?.[1] ?? (outcome.timedOut ? 'timeout' : `HTTP ${outcome.status ?? outcome.error}`))
          .replace(/0x[0-9a-f]{6,}/gi, '0x…')
          .replace(/\d{4,}/g, 'N');
        stats.evmValid.refused[reason] = (stats.evmValid.refused[reason] ?? 0) + 1;
      }
      return { sent, outcome };
    });

  const iter = (typeof o.indices === 'number' ? Array.from({ length: o.indices }, (_, i) => i) : [...o.indices])[Symbol.iterator]();
  const t0 = performance.now();
  const record = (r: FuzzRequest, ms: number) => {
    stats.msPerFamily[r.family] = (stats.msPerFamily[r.family] ?? 0) + ms;
    stats.slowest.push({ index: r.index, ms, note: `${r.family}: ${r.note.slice(0, 80)}` });
    if (stats.slowest.length > 40) stats.slowest = stats.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
  };
  const count = (problems: Problem[]) => {
    for (const p of problems) {
      stats.counts[p.kind]++;
      if (stats.problems.length < 200) stats.problems.push(p);
    }
  };
  const worker = async () => {
    for (;;) {
      if (stats.stoppedEarly) return;
      const reason = o.shouldStop?.();
      if (reason) {
        stats.stoppedEarly = reason;
        return;
      }
      const next = iter.next();
      if (next.done) return;
      const generated = generate(o.seed, next.value, o.fixtures);
      if (o.families && !o.families.has(generated.family)) continue;
      stats.sent++;
      stats.perFamily[generated.family] = (stats.perFamily[generated.family] ?? 0) + 1;
      if (generated.ws) {
        const wo = await runWsSession(base, generated.ws, o.timeoutMs);
        stats.ws.sessions++;
        stats.ws.framesSent += wo.framesSent;
        const key = generated.ws.kind.replace(/text frame of \d+ bytes/, 'text frame over 4 MiB');
        const codes = stats.ws.closeCodes[key] ?? {};
        stats.ws.closeCodes[key] = codes;
        const code = wo.status !== 101 ? `HTTP ${wo.status ?? '-'}` : wo.closeCode !== undefined ? String(wo.closeCode) : wo.ended ? 'dropped' : 'open';
        codes[code] = (codes[code] ?? 0) + 1;
        if (!generated.ws.closeCodes && wo.status === 101 && wo.replies < wo.expected && (wo.closeCode !== undefined || wo.ended))
          stats.ws.closedWhileAnswering++;
        const status = wo.timedOut ? 'timeout' : `ws ${code}`;
        stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
        const problems = judgeWs(generated, wo);
        count(problems);
        record(generated, wo.ms);
        o.onResult?.(generated, { status: wo.status, ms: wo.ms, timedOut: wo.timedOut, body: Buffer.from(JSON.stringify(wo)) }, problems);
        continue;
      }
      let r: FuzzRequest;
      let outcome: Outcome;
      const startedAt = Date.now();
      if (generated.evmTx) {
        ({ sent: r, outcome } = await sendValidTx(generated));
      } else {
        r = materialize(generated);
        // A body over the 4 MiB limit: the node answers 413 and may close before it has read it all.
        if ((r.body?.length ?? 0) > 4 * 1024 * 1024) r = { ...r, mayReset: true };
        outcome = await send(base, agent, r, o.timeoutMs);
      }
      if (r.rpcMethod === 'admin.memoryProfile') stats.heapSnapshots.push([startedAt, Date.now()]);
      const key = outcome.timedOut ? 'timeout' : outcome.status === undefined ? `error ${outcome.error}` : String(outcome.status);
      stats.statuses[key] = (stats.statuses[key] ?? 0) + 1;
      let problems = judge(r, outcome);
      // A reset of a kept-alive socket can be the client's race with the server closing it: retry once alone.
      if (outcome.reused && problems.some((p) => p.kind === 'connection')) {
        stats.retried.push({ index: r.index, family: r.family, error: outcome.error ?? '' });
        const again = await send(base, new http.Agent({ keepAlive: false }), r, o.timeoutMs);
        problems = judge(r, again).map((p) => (p.kind === 'connection' ? { ...p, detail: `${p.detail} (also on a fresh connection)` } : p));
      }
      count(problems);
      if (isDocumented500(r, outcome)) stats.documented500++;
      const text = outcome.status === 200 ? (outcome.body?.toString('utf8') ?? '') : '';
      if (expectsRpc(r) && outcome.status === 200 && text.length > 0) {
        stats.rpcReplies++;
        if (r.idRaw !== undefined && r.idRaw.length <= 4096 && !text.includes('"code":-32700')) stats.idsCompared++;
      }
      if (r.aliasRoute && KNOWN_PATHS.has(r.aliasRoute) && outcome.status === 200 && /"result"\s*:/.test(text)) {
        stats.aliasesOnKnownRoutes.push({ index: r.index, route: r.aliasRoute });
      }
      if (r.rpcMethod === 'wallet.issueTx' && outcome.status === 200 && stats.walletTxIDs.length < 300) {
        const m = /"txID":"([1-9A-HJ-NP-Za-km-z]+)"/.exec(text);
        if (m) stats.walletTxIDs.push(m[1]!);
      }
      if (r.mutatedEvmTx !== undefined) {
        stats.evmMutated.sent++;
        if (stats.evmMutated.hashes.length < 400) stats.evmMutated.hashes.push({ chain: chainOf(r.path), hash: r.mutatedEvmTx });
      }
      if (r.dialect === 'geth' && text.length < 200 && FILTER_METHODS.test(r.body?.toString('utf8') ?? '')) {
        const m = /"result":"(0x[0-9a-f]+)"/.exec(text);
        if (m) lastFilter.set(chainOf(r.path), m[1]!);
      }
      if (r.restApi && text.includes('"nextPageToken"')) {
        const m = /"nextPageToken":"([^"]+)"/.exec(text);
        if (m) lastPage.set(restKey(r.path), m[1]!);
      }
      record(r, outcome.ms);
      o.onResult?.(r, outcome, problems);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  stats.ms = performance.now() - t0;
  stats.slowest = stats.slowest.sort((a, b) => b.ms - a.ms).slice(0, 5);
  agent.destroy();
  return stats;
}

// =============================================================================================
// The node's memory, from /proc.

export interface Memory {
  rssKiB: number;
  hwmKiB: number;
}

export function readMemory(pid: number): Memory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKiB: kib('VmRSS'), hwmKiB: kib('VmHWM') };
  } catch {
    return undefined;
  }
}

export const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;

/** The CPU time a process has used (user + system), in seconds, from /proc (clock ticks of 10 ms). */
export function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

// =============================================================================================
// After the run: every route still serves its own API (admin.alias/aliasChain never take a path).

export async function probeRoutes(uri: string, timeoutMs = 10_000): Promise<string[]> {
  const failures: string[] = [];
  const fetchText = async (path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> => {
    const res = await fetch(uri + path, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, text: await res.text() };
  };
  const rpc = async (path: string, method: string, params: unknown, ok: (reply: { result?: any; error?: { message: string } }) => boolean) => {
    try {
      const { status, text } = await fetchText(path, { method: 'POST', headers: JSON_CT, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      let reply: { result?: any; error?: { message: string } } | undefined;
      try {
        reply = JSON.parse(text) as typeof reply;
      } catch {
        /* judged below */
      }
      if (status !== 200 || !reply || !ok(reply)) failures.push(`${path} ${method}: HTTP ${status} ${text.slice(0, 160)}`);
    } catch (err) {
      failures.push(`${path} ${method}: ${(err as Error).message}`);
    }
  };
  const get = async (path: string, ok: (text: string) => boolean) => {
    try {
      const { status, text } = await fetchText(path);
      // A 503 report is still the health API (a check may fail while faults are injected).
      if ((status !== 200 && status !== 503) || !ok(text)) failures.push(`GET ${path}: HTTP ${status} ${text.slice(0, 160)}`);
    } catch (err) {
      failures.push(`GET ${path}: ${(err as Error).message}`);
    }
  };
  const isReport = (text: string) => {
    try {
      return typeof (JSON.parse(text) as { checks?: unknown }).checks === 'object';
    } catch {
      return false;
    }
  };
  for (const p of X_PATHS) await rpc(p, 'avm.getHeight', {}, (r) => typeof r.result?.height === 'string');
  for (const p of X_PATHS)
    await rpc(`${p}/wallet`, 'wallet.issueTx', { tx: '0x00' }, (r) => r.error?.message.startsWith('problem decoding transaction') === true);
  for (const p of P_PATHS) await rpc(p, 'platform.getFeeConfig', {}, (r) => Array.isArray(r.result?.weights));
  for (const p of INDEX_PATHS) await rpc(p, 'index.isAccepted', { id: P_ID }, (r) => r.result?.isAccepted === false);
  await rpc('/ext/info', 'info.getNetworkID', {}, (r) => r.result?.networkID === '12345');
  await rpc('/ext/admin', 'admin.getLoggerLevel', { loggerName: 'main' }, (r) => typeof r.result?.loggerLevels === 'object');
  await rpc('/ext/emulator', 'emulator.healthFaults', {}, (r) => typeof r.result?.faults === 'object');
  await rpc('/ext/health', 'health.liveness', {}, (r) => typeof r.result?.checks === 'object');
  for (const p of ['/ext/health', '/ext/health/health', '/ext/health/readiness', '/ext/health/liveness']) await get(p, isReport);
  await get('/ext/metrics', (t) => t.includes('process_resident_memory_bytes'));
  // The EVM chains (geth's dialect), the C-Chain's avax API, the L1's validators, the Data and Metrics APIs, websockets.
  for (const chain of Object.values(EVM_CHAINS)) {
    for (const p of chain.paths) {
      try {
        const { status, text } = await fetchText(p, { method: 'POST', headers: JSON_CT, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
        const want = `0x${chain.chainId.toString(16)}`;
        if (status !== 200 || (JSON.parse(text) as { result?: string }).result !== want)
          failures.push(`${p} eth_chainId: HTTP ${status} ${text.slice(0, 160)}`);
      } catch (err) {
        failures.push(`${p} eth_chainId: ${(err as Error).message}`);
      }
    }
    for (const path of chain.ws) {
      const o = await runWsSession(
        new URL(uri),
        { path, handshake: {}, steps: [{ message: '{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}', replies: 1 }], kind: 'probe' },
        timeoutMs,
      );
      if (o.status !== 101 || o.replies !== 1 || o.invalid.length > 0) failures.push(`${path}: ${JSON.stringify(o).slice(0, 200)}`);
    }
  }
  await rpc('/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID: X_ID }, (r) => r.result?.status === 'Unknown');
  await rpc('/ext/bc/myl1/validators', 'validators.getCurrentValidators', {}, (r) => Array.isArray(r.result?.validators));
  const rest = async (path: string, ok: (v: any) => boolean) => {
    try {
      const { status, text } = await fetchText(path);
      if (status !== 200 || !ok(JSON.parse(text))) failures.push(`GET ${path}: HTTP ${status} ${text.slice(0, 160)}`);
    } catch (err) {
      failures.push(`GET ${path}: ${(err as Error).message}`);
    }
  };
  await rest('/v1/chains/43112', (v) => v.chainId === '43112');
  await rest('/v1/chains/99999/transactions?pageSize=1', (v) => Array.isArray(v.transactions));
  await rest('/v2/chains/43112/metrics/txCount', (v) => Array.isArray(v.results));
  await rest('/v1/avg_tps/99999', (v) => Array.isArray(v.results));
  return failures;
}
