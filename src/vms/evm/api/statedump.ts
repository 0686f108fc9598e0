// coreth's `debug` API (eth/api_debug.go, subnet-evm's the same): a state walked by hashed key
// (debug_dumpBlock, debug_accountRange, debug_storageRangeAt), the accounts two states differ in
// (debug_getModifiedAccountsBy*), a key's preimage, the first block with state, and the bad blocks.
// Accounts and slots are named by the preimages the chain keeps (preimages.ts): with coreth's
// default (preimages-enabled off) a range names none, and debug_getModifiedAccountsBy* fails on the
// first account, as coreth does. Answers are written as encoding/json writes coreth's structs: field
// order, omitempty, maps by sorted key, []byte in base64.
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt, KECCAK256_NULL, KECCAK256_RLP, toChecksumAddress } from '@ethereumjs/util';
import { concatBytes, equalBytes, toHex, toHex0x } from '../../../encoding/bytes.js';
import { goMarshal, numberText, RawJson } from '../../../encoding/gojson.js';
import { method, RpcError } from '../../../rpc/method.js';
import { type Field, optional } from '../../../rpc/schema.js';
import { positional } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import { type Changed, diffRefs } from '../statediff.js';
import type { StoredBlock } from '../store.js';
import { leavesFrom, TrieNodes } from '../trienodes.js';
import { MISSING_NODE } from '../triepath.js';
import { blockErrors, blockOf } from './blocks.js';
import { debugErrors } from './debug.js';
import { address, type BlockRef, type BlockTag, blockNumber, blockRef, boolean, bytes, goInt, goUint64, hash } from './fields.js';

/** eth/api_debug.go's AccountRangeMaxResults: the most accounts one range answers. */
const MAX_RESULTS = 256;

export const stateDumpErrors = {
  blockNumberNotFound: (n: bigint) => new RpcError(`block #${n} not found`),
  blockHashNotFound: (h: Uint8Array) => new RpcError(`block ${toHex0x(h)} not found`),
  neither: () => new RpcError('either block number or block hash must be specified'),
  startNotFound: (what: string) => new RpcError(`start block ${what} not found`),
  endNotFound: (what: string) => new RpcError(`end block ${what} not found`),
  noParent: (n: bigint) => new RpcError(`block ${n.toString(16)} has no parent`),
  order: (a: bigint, b: bigint) => new RpcError(`start block height (${a}) must be less than end block height (${b})`),
  noPreimage: (h: string) => new RpcError(`no preimage found for hash ${h}`),
  unknownPreimage: () => new RpcError('unknown preimage'),
  sameRange: () => new RpcError('from and to needs to be different'),
  missingHeader: (n: bigint) => new RpcError(`missing header ${n}`),
  noState: () => new RpcError('no state found'),
  parentNotFound: (h: Uint8Array) => new RpcError(`parent ${toHex0x(h)} not found`),
  /** A node the store lacks: on a fork, one of the upstream's the fork never fetched (a walk fetches nothing). */
  missingNode: () => new RpcError('missing trie node: the state walked has a node this node does not hold (on a fork, an upstream node not fetched yet)'),
};

/** A uint64 argument (a JSON number only), as a bigint. */
const uint64Number: Field<bigint> = {
  decode(v) {
    goUint64.decode(v);
    return BigInt(numberText(v)!);
  },
  zero: () => 0n,
};

/** A walk's missing node as the method's error. */
async function walking<T>(walk: () => Promise<T>): Promise<T> {
  try {
    return await walk();
  } catch (err) {
    if ((err as Error).message === MISSING_NODE) throw stateDumpErrors.missingNode();
    throw err;
  }
}

/** The block a dump names by number: the head for a tag (as coreth's IsAccepted tags), else the block at it. */
async function dumpedBlock(chain: EvmChain, tag: BlockTag): Promise<StoredBlock> {
  if (tag === 'earliest') return chain.genesis;
  if (typeof tag !== 'bigint') return chain.head;
  const block = await chain.store.blockAt(tag);
  if (!block) throw stateDumpErrors.blockNumberNotFound(tag);
  return block;
}

async function rangedBlock(chain: EvmChain, ref: BlockRef): Promise<StoredBlock> {
  if ('tag' in ref) return dumpedBlock(chain, ref.tag);
  if ('neither' in ref) throw stateDumpErrors.neither();
  const block = await chain.store.block(ref.hash);
  if (!block) throw stateDumpErrors.blockHashNotFound(ref.hash);
  return block;
}

interface DumpOptions {
  skipCode: boolean;
  skipStorage: boolean;
  onlyWithAddresses: boolean;
  start: Uint8Array;
  max: number;
}

/** state.Dump of the state at `root`, as JSON text: {root, accounts, next}. */
async function dumpState(chain: EvmChain, root: Uint8Array, o: DumpOptions): Promise<RawJson> {
  const nodes = new TrieNodes(chain.nodes);
  const accounts: Array<[string, string]> = [];
  let next: Uint8Array | undefined;
  for await (const leaf of leavesFrom(nodes, root, o.start)) {
    if (accounts.length >= o.max) {
      next = leaf.key;
      break;
    }
    const addr = await chain.nodes.preimages?.get(leaf.key);
    if (!addr && o.onlyWithAddresses) continue;
    const name = addr ? toChecksumAddress(toHex0x(addr)) : `pre(${toHex0x(leaf.key)})`;
    accounts.push([name, await dumpAccount(chain, nodes, root, leaf.key, leaf.value, addr, o)]);
  }
  accounts.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const body = accounts.map(([name, json]) => `${goMarshal(name)}:${json}`).join(',');
  const tail = next ? `,"next":"${Buffer.from(next).toString('base64')}"` : '';
  return new RawJson(`{"root":"${toHex(root)}","accounts":{${body}}${tail}}`);
}

/** state.DumpAccount's JSON: balance (decimal), nonce, root, codeHash, code and storage unless skipped or empty, address, key. */
async function dumpAccount(
  chain: EvmChain,
  nodes: TrieNodes,
  root: Uint8Array,
  key: Uint8Array,
  rlp: Uint8Array,
  addr: Uint8Array | undefined,
  o: DumpOptions,
): Promise<string> {
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(rlp) as Uint8Array[];
  const fields = [
    `"balance":"${bytesToBigInt(balance!)}"`,
    `"nonce":${bytesToBigInt(nonce!)}`,
    `"root":"${toHex0x(storageRoot!)}"`,
    `"codeHash":"${toHex0x(codeHash!)}"`,
  ];
  if (!o.skipCode) {
    const code = await codeOf(chain, root, codeHash!, addr);
    if (code.length > 0) fields.push(`"code":"${toHex0x(code)}"`);
  }
  if (!o.skipStorage) {
    const storage = new Map<string, string>();
    for await (const slot of leavesFrom(nodes, storageRoot)) {
      // A slot without its preimage is written under the zero hash, as geth's map keeps the last such.
      const preimage = await chain.nodes.preimages?.get(slot.key);
      storage.set(toHex0x(preimage ? padded(preimage) : new Uint8Array(32)), toHex(RLP.decode(slot.value) as Uint8Array));
    }
    const sorted = [...storage].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (sorted.length > 0) fields.push(`"storage":{${sorted.map(([k, v]) => `"${k}":"${v}"`).join(',')}}`);
  }
  if (addr) fields.push(`"address":"${toHex0x(addr)}"`);
  fields.push(`"key":"${toHex0x(key)}"`);
  return `{${fields.join(',')}}`;
}

/**
 * An account's code, by its hash from the chain's store (a reader is not moved to this state for
 * it); on a fork, code not fetched yet through the state by address, which fetches it.
 */
async function codeOf(chain: EvmChain, root: Uint8Array, codeHash: Uint8Array, addr: Uint8Array | undefined): Promise<Uint8Array> {
  if (equalBytes(codeHash, KECCAK256_NULL)) return new Uint8Array();
  const code = await chain.nodes.get(concatBytes(CODEHASH_PREFIX, codeHash));
  if (code !== undefined) return typeof code === 'string' ? Buffer.from(code, 'hex') : code;
  return addr ? chain.code(addr, root) : new Uint8Array();
}

/** common.BytesToHash: the last 32 bytes, left-padded. */
function padded(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(b.subarray(Math.max(0, b.length - 32)), Math.max(0, 32 - b.length));
  return out;
}

/**
 * StorageRangeAt: the storage of `addr` as the block's tx `txIndex` found it. coreth re-executes the
 * txs before it, but reads the storage trie at the root the account had at the block's start (its
 * state objects' roots move only when a state root is asked for), so the range is the parent state's.
 */
async function storageRangeAt(chain: EvmChain, ref: BlockRef, txIndex: bigint, addr: Uint8Array, start: Uint8Array, max: bigint) {
  const block = 'hash' in ref ? await chain.store.block(ref.hash) : await blockOf(chain, ref);
  if (!block) throw blockErrors.hashNotFound();
  if (block.header.number === 0n) throw debugErrors.noTxInGenesis();
  const parent = await chain.store.block(block.header.parentHash);
  if (!parent) throw stateDumpErrors.parentNotFound(block.header.parentHash);
  const txs = BigInt(block.body.length);
  if (!(txIndex === 0n && txs === 0n) && (txIndex < 0n || txIndex >= txs)) throw debugErrors.txIndexOutOfRange(txIndex, block.hash);
  const account = await chain.account(addr, await chain.builtOn(block, parent));
  if (!account || equalBytes(account.storageRoot, KECCAK256_RLP)) return { storage: null, nextKey: null };
  const nodes = new TrieNodes(chain.nodes);
  const storage: Record<string, { key: string | null; value: string }> = {};
  let nextKey: string | null = null;
  let count = 0n;
  for await (const slot of leavesFrom(nodes, account.storageRoot, start)) {
    if (count++ >= max) {
      nextKey = toHex0x(slot.key);
      break;
    }
    const preimage = await chain.nodes.preimages?.get(slot.key);
    storage[toHex0x(slot.key)] = { key: preimage ? toHex0x(padded(preimage)) : null, value: toHex0x(padded(RLP.decode(slot.value) as Uint8Array)) };
  }
  return { storage, nextKey };
}

/** The accounts whose leaf in `to`'s state is new or differs from `from`'s, by their preimages, in hashed-key order (null: none). */
async function modifiedAccounts(chain: EvmChain, from: StoredBlock, to: StoredBlock): Promise<string[] | null> {
  if (from.header.number >= to.header.number) throw stateDumpErrors.order(from.header.number, to.header.number);
  const changed: Changed = new Map();
  await diffRefs(new TrieNodes(chain.nodes), from.header.stateRoot, to.header.stateRoot, '', changed);
  const keys = [...changed].filter(([, [, now]]) => now !== null && now.length > 0).map(([key]) => key);
  keys.sort();
  const out: string[] = [];
  for (const key of keys) {
    const addr = await chain.nodes.preimages?.get(Buffer.from(key, 'hex'));
    if (!addr) throw stateDumpErrors.noPreimage(key);
    out.push(toHex0x(addr));
  }
  return out.length > 0 ? out : null;
}

/** With one block, the block and its parent; else the two blocks. */
async function modifiedRange(
  chain: EvmChain,
  start: StoredBlock | undefined,
  end: StoredBlock | undefined | 'none',
  names: { start: string; end: string },
): Promise<[StoredBlock, StoredBlock]> {
  if (!start) throw stateDumpErrors.startNotFound(names.start);
  if (end === 'none') {
    const parent = await chain.store.block(start.header.parentHash);
    if (!parent) throw stateDumpErrors.noParent(start.header.number);
    return [parent, start];
  }
  if (!end) throw stateDumpErrors.endNotFound(names.end);
  return [start, end];
}

/** GetAccessibleState: the first block from `from` towards `to` (not included) whose state root the store holds. */
async function accessibleState(chain: EvmChain, from: BlockTag, to: BlockTag): Promise<bigint> {
  const resolve = (t: BlockTag) => (typeof t === 'bigint' ? t : t === 'earliest' ? 0n : chain.head.header.number);
  const [start, end] = [resolve(from), resolve(to)];
  if (start === end) throw stateDumpErrors.sameRange();
  const step = start < end ? 1n : -1n;
  // Below a fork's block the state is the upstream's, read key by key and never held whole: those
  // blocks are not looked at (each would be an upstream request), a walk up starts at the fork block.
  const base = chain.nodes.fork?.base;
  for (let n = start; n !== end; n += step) {
    if (base !== undefined && n < base) {
      if (step < 0n || base >= end) break;
      n = base;
    }
    const block = await chain.store.blockAt(n);
    if (!block) throw stateDumpErrors.missingHeader(n);
    if ((await chain.nodes.get(block.header.stateRoot)) !== undefined) return n;
  }
  throw stateDumpErrors.noState();
}

export function stateDebugMethods(chain: EvmChain) {
  const byNumber = (n: bigint) => chain.store.blockAt(n);
  return {
    // The node builds every block it accepts and never meets a bad one.
    getBadBlocks: method(positional([]), () => []),
    dumpBlock: method(positional([blockNumber]), async ([tag]) => {
      const block = await dumpedBlock(chain, tag as BlockTag);
      const o = { skipCode: false, skipStorage: false, onlyWithAddresses: true, start: new Uint8Array(), max: MAX_RESULTS };
      return walking(() => dumpState(chain, chain.stateRootOf(block), o));
    }),
    accountRange: method(positional([blockRef, bytes, goInt, boolean, boolean, boolean]), async ([ref, start, max, nocode, nostorage, incompletes]) => {
      const block = await rangedBlock(chain, ref as BlockRef);
      const n = max as bigint;
      const o = {
        skipCode: nocode as boolean,
        skipStorage: nostorage as boolean,
        onlyWithAddresses: !(incompletes as boolean),
        start: start as Uint8Array,
        max: n > MAX_RESULTS || n <= 0n ? MAX_RESULTS : Number(n),
      };
      return walking(() => dumpState(chain, chain.stateRootOf(block), o));
    }),
    storageRangeAt: method(positional([blockRef, goInt, address, bytes, goInt]), ([ref, txIndex, addr, start, max]) =>
      walking(() => storageRangeAt(chain, ref as BlockRef, txIndex as bigint, addr as Uint8Array, start as Uint8Array, max as bigint)),
    ),
    getModifiedAccountsByNumber: method(positional([uint64Number, optional(uint64Number)], 1), async ([a, b]) => {
      const [start, end] = [a as bigint, b as bigint | undefined];
      const range = await modifiedRange(chain, await byNumber(start), end === undefined ? 'none' : await byNumber(end), {
        start: start.toString(16),
        end: `${end}`,
      });
      return walking(() => modifiedAccounts(chain, ...range));
    }),
    getModifiedAccountsByHash: method(positional([hash, optional(hash)], 1), async ([a, b]) => {
      const [start, end] = [a as Uint8Array, b as Uint8Array | undefined];
      const range = await modifiedRange(chain, await chain.store.block(start), end === undefined ? 'none' : await chain.store.block(end), {
        start: toHex(start),
        end: end ? toHex(end) : '',
      });
      return walking(() => modifiedAccounts(chain, ...range));
    }),
    preimage: method(positional([hash]), async ([h]) => {
      const preimage = await chain.nodes.preimages?.get(h as Uint8Array);
      if (!preimage) throw stateDumpErrors.unknownPreimage();
      return toHex0x(preimage);
    }),
    getAccessibleState: method(positional([blockNumber, blockNumber]), async ([from, to]) =>
      Number(await accessibleState(chain, from as BlockTag, to as BlockTag)),
    ),
  };
}
