// The state of a forked chain, read lazily from its upstream. The chain's tries start at the
// upstream's state root of the fork block, so every trie node the chain reads is either one it wrote
// itself or one of the upstream's, found by its hash. An upstream node the chain lacks is fetched
// with eth_getProof of the key being looked up (the proof is the path to that key: every node the
// lookup walks), checked by its hash and kept in the fork cache. A local block's state root is then
// the true root of the forked state, as the upstream would compute it.
//
// One case a proof does not cover: a deletion that leaves a branch with one child merges that child
// upward, and the child (a sibling of the deleted key) is on no path the chain has asked for. Its
// position in the trie is known (the deleted key's proof holds the branch), so a key whose hash
// starts with that position is searched for, and its proof holds the sibling.
import { RLP } from '@ethereumjs/rlp';
import { KECCAK256_RLP } from '@ethereumjs/util';
import { keccak256 } from '../../../crypto/keccak.js';
import { fromHex0x, toHex, toHex0x } from '../../../encoding/bytes.js';
import { RpcError } from '../../../rpc/method.js';
import type { Database } from '../../../storage/db.js';
import { type ProofNode, siblingPrefix } from './proofpath.js';

/** What the fork asks of its upstream (upstream.ts): one JSON-RPC call, batched and retried there. */
export interface UpstreamCaller {
  call<T = unknown>(method: string, params: unknown[]): Promise<T>;
}

/** Where a trie lookup happens: the account trie (key: an address) or an account's storage trie (key: a slot). */
export interface TrieSite {
  /** The upstream block whose state the trie's upstream nodes are from. */
  block: bigint;
  /** The account's address: the key of an account-trie lookup, the owner of a storage trie. */
  address: Uint8Array;
  /** The storage slot, for a storage-trie lookup. */
  slot?: Uint8Array;
}

interface ProofReply {
  accountProof: string[];
  storageProof: Array<{ key: string; proof: string[] }>;
}

/** Hashed-key prefixes longer than this are not searched for: 16^6 keccaks is a few seconds. */
const SEARCH_NIBBLES = 6;
/** Entries each of the maps below keeps, the newest (what a client touches stays bounded). */
const KEPT = 100_000;
/** Proofs kept with their nodes (a few KiB each): enough for the reads of one call to share them. */
const KEPT_PROOFS = 1_024;

/** Sets `key` in `map`, forgetting its oldest entry past `cap`. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, cap = KEPT): void {
  if (map.size >= cap) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * What a fork could not read of its upstream: an error of the method that asked (a JSON-RPC server
 * error with the upstream's own one-line message), never an internal error or a hang.
 */
export class ForkFailure extends RpcError {}

export class ForkStateError extends ForkFailure {}

/** An upstream's hex quantity (eth_chainId, eth_blockNumber), or a ForkFailure naming what it answered instead. */
export function quantity(reply: unknown, method: string): bigint {
  if (typeof reply !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(reply))
    throw new ForkFailure(`the fork's upstream answered ${method} with ${JSON.stringify(reply)?.slice(0, 80)}, not a quantity`);
  return BigInt(reply);
}

/** What `read` makes of an upstream's reply; a reply it cannot read is a ForkFailure naming `what`. */
export function parsed<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ForkFailure) throw err;
    throw new ForkFailure(`the fork's upstream answered ${what} with what coreth does not: ${(err as Error).message}`);
  }
}

/** The upstream, its failures as ForkFailures. */
export function guarded(upstream: UpstreamCaller): UpstreamCaller {
  return {
    async call<T>(method: string, params: unknown[]): Promise<T> {
      try {
        return await upstream.call<T>(method, params);
      } catch (err) {
        throw err instanceof ForkFailure ? err : new ForkFailure((err as Error).message);
      }
    },
  };
}

/** The account ForkState.probe proves at a fork block: the zero address (any would do). */
const probeSite = (block: bigint): TrieSite => ({ block, address: new Uint8Array(20) });

/** Asks the upstream for a site's proof (eth_getProof). */
function askProof(upstream: UpstreamCaller, site: TrieSite): Promise<unknown> {
  const slots = site.slot ? [toHex0x(site.slot)] : [];
  return upstream.call('eth_getProof', [toHex0x(site.address), slots, qty(site.block)]);
}

/** Asks the proof ForkState.probe reads, before the fork's state exists (with the fork's first calls). */
export const askProbe = (upstream: UpstreamCaller, block: bigint): Promise<unknown> => askProof(upstream, probeSite(block));

export class ForkState {
  /** Proofs asked for or under way, by block, address and slot: each is fetched once. */
  private readonly proofs = new Map<string, Promise<Uint8Array[][]>>();
  /** Upstream blocks by state root: a trie at one of these reads that block's state. */
  private readonly roots = new Map<string, bigint>();
  /** Roots made from a pre-fork block's state (a trace), by that block. */
  private readonly derived = new Map<string, bigint>();
  /** Code hashes whose code the store holds. */
  private readonly codes = new Map<string, true>();
  /** Addresses by their hash: a storage trie knows only its account's hashed address (an account is read before its storage). */
  private readonly addresses = new Map<string, Uint8Array>();
  /**
   * Whether the fork's state is the upstream head's with its state edits (ChainFork.editedRoot): the
   * upstream proves that state only until it builds a block or edits again, so a miss may be that.
   */
  editedHead = false;

  constructor(
    private readonly upstream: UpstreamCaller,
    /** The fork cache's nodes and code, by the keys the tries and the state manager read. */
    private readonly nodes: Database,
    /** The fork block: the state a trie reads when its root is one the chain made. */
    readonly base: bigint,
  ) {}

  /** The upstream's node or code under `key`, if the fork has fetched it. */
  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.nodes.get(key);
  }

  /** The fork cache's nodes and code with keys past `after` (all: undefined), in key order, `limit` at most. */
  cachedEntries(after: Uint8Array | undefined, limit: number): Promise<Array<[Uint8Array, Uint8Array]>> {
    return this.nodes.entries(after ? { gt: after, limit } : { limit });
  }

  /** Marks `root` as the state root of upstream block `number` (what the history read). */
  noteRoot(root: Uint8Array, number: bigint): void {
    keep(this.roots, toHex(root), number);
  }

  /**
   * Marks `root`, made by changing a trie at upstream block `number`'s state, as reading that block's
   * nodes where it changed nothing (a pre-fork block run again). A block's own root is never
   * relabelled (a replay recomputes it), and roots made from the fork block need no mark.
   */
  noteDerived(root: Uint8Array, number: bigint): void {
    if (number === this.base) return;
    const key = toHex(root);
    if (!this.roots.has(key)) keep(this.derived, key, number);
  }

  /** The upstream block a trie rooted at `root` reads: its own, its origin's, or the fork block for a root the chain made. */
  blockOf(root: Uint8Array): bigint {
    const key = toHex(root);
    return this.roots.get(key) ?? this.derived.get(key) ?? this.base;
  }

  /** Remembers the address behind a hashed address, for its storage trie's lookups. */
  noteAddress(address: Uint8Array): Uint8Array {
    const hashed = keccak256(address);
    const key = toHex(hashed);
    if (!this.addresses.has(key)) keep(this.addresses, key, address);
    return hashed;
  }

  addressOf(hashed: Uint8Array): Uint8Array | undefined {
    return this.addresses.get(toHex(hashed));
  }

  /**
   * Fetches what a lookup misses, `sites` being the keys the trie was walking (newest first: its
   * reads may run concurrently): the proof of each until one holds the node, then, when none does
   * (a deletion's sibling), the proof of a key found to lead to it. Throws when nothing holds it.
   */
  async resolve(sites: readonly TrieSite[], missing: Uint8Array): Promise<void> {
    // The newest key is the lookup's own unless reads overlapped; the others go out as one batch.
    const [newest, ...rest] = sites;
    if (newest) await this.proof(newest);
    if (await this.nodes.get(missing)) return;
    await Promise.all(rest.map((site) => this.proof(site)));
    if (await this.nodes.get(missing)) return;
    for (const site of sites) if (await this.searchSibling(site, missing)) return;
    const site = sites[0];
    const where = site ? ` (on the path of ${toHex0x(site.slot ?? site.address)} at block ${site.block})` : '';
    const edited = this.editedHead
      ? `: the fork began from the edits the upstream's head (block ${this.base}) had, which the upstream proves only while that head and its edits stay as they were`
      : '';
    throw new ForkStateError(`forked state: the upstream's trie node ${toHex0x(missing)}${where} is on no path the fork can fetch${edited}`);
  }

  /** Whether a key leading to `missing`, a child of a branch on the path of `site`'s key, found it. */
  private async searchSibling(site: TrieSite, missing: Uint8Array): Promise<boolean> {
    const paths = await this.proof(site);
    const path = site.slot === undefined ? paths[0]! : paths[1]!;
    // Decoded only here: most proofs are never read again, their nodes found by hash.
    const nodes = path.map((node) => RLP.decode(node) as ProofNode);
    const prefix = siblingPrefix(nodes, keccak256(site.slot ?? site.address), missing);
    if (!prefix || prefix.length > SEARCH_NIBBLES) return false;
    const found = searchKey(prefix, site.slot === undefined ? 20 : 32);
    await this.proof(site.slot === undefined ? { block: site.block, address: found } : { ...site, slot: found });
    return (await this.nodes.get(missing)) !== undefined;
  }

  /** The code behind `codeHash` (the key `codeKey` the state manager reads), fetched when missing. */
  async ensureCode(address: Uint8Array, codeHash: Uint8Array, codeKey: Uint8Array, block: bigint, stored: () => Promise<boolean>): Promise<void> {
    // Known present: a call reads its contract's code at every new head, and the store would be asked each time.
    const known = toHex(codeHash);
    if (this.codes.has(known)) return;
    // In the chain's store (which reads the fork cache too): fetched before, or the chain's own code
    // (a contract deployed or set on the fork), no upstream's to fetch.
    if (await stored()) {
      keep(this.codes, known, true);
      return;
    }
    const reply = await this.upstream.call<unknown>('eth_getCode', [toHex0x(address), qty(block)]);
    if (typeof reply !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(reply))
      throw new ForkStateError(`forked state: the upstream answered eth_getCode with ${JSON.stringify(reply)?.slice(0, 80)}`);
    const code = fromHex0x(reply);
    if (toHex(keccak256(code)) !== toHex(codeHash))
      throw new ForkStateError(`forked state: the upstream's code of ${toHex0x(address)} at block ${block} does not hash to the account's code hash`);
    await this.nodes.put(codeKey, code);
    keep(this.codes, known, true);
  }

  /**
   * Asks the upstream to prove an account at the fork block (its nodes kept, as any proof's): a fork
   * reads its state by proof only, so an upstream that cannot is refused at start, not at a first read.
   * Returns the root the proof starts from: the state the upstream serves at the fork block (an
   * empty proof is an empty state's).
   */
  async probe(asked?: Promise<unknown>): Promise<Uint8Array> {
    const [account] = await this.proof(probeSite(this.base), asked);
    const root = account?.[0];
    return root ? keccak256(root) : KECCAK256_RLP;
  }

  /**
   * The proof of an account (and a slot): [account path, storage path] as RLP nodes, each kept by
   * hash. `asked`: the upstream's reply, when the proof was asked before this state existed.
   */
  private proof(site: TrieSite, asked?: Promise<unknown>): Promise<Uint8Array[][]> {
    const id = `${site.block}:${toHex(site.address)}:${site.slot ? toHex(site.slot) : ''}`;
    let pending = this.proofs.get(id);
    if (!pending) {
      pending = this.keepProof(site, asked ?? askProof(this.upstream, site));
      keep(this.proofs, id, pending, KEPT_PROOFS);
      // A failure is not kept: the next lookup asks again (the upstream may be back).
      pending.catch(() => this.proofs.delete(id));
    }
    return pending;
  }

  private async keepProof(site: TrieSite, asked: Promise<unknown>): Promise<Uint8Array[][]> {
    const reply = (await asked) as ProofReply | null;
    if (!reply || typeof reply !== 'object') throw new ForkStateError(`forked state: the upstream answered eth_getProof with ${JSON.stringify(reply)}`);
    const account = await this.keep(reply.accountProof);
    const storage = site.slot ? await this.keep(Array.isArray(reply.storageProof) ? (reply.storageProof[0]?.proof ?? []) : []) : [];
    return [account, storage];
  }

  /** Keeps each node of a proof under its hash (a node that is not what the hash names is never found). */
  private async keep(proof: unknown): Promise<Uint8Array[]> {
    if (!Array.isArray(proof)) throw new ForkStateError('forked state: the upstream answered eth_getProof without a proof');
    const nodes = proof.map((hex) => fromHex0x(String(hex)));
    await this.nodes.batch(nodes.map((node) => ({ type: 'put' as const, key: keccak256(node), value: node })));
    return nodes;
  }
}

const qty = (n: bigint) => `0x${n.toString(16)}`;

/**
 * A key of `length` bytes whose keccak starts with the nibbles `prefix`: counted up from zero, so
 * the same position always finds the same key.
 */
function searchKey(prefix: number[], length: number): Uint8Array {
  const key = new Uint8Array(length);
  const view = new DataView(key.buffer);
  for (let i = 0; i < 2 ** 32; i++) {
    view.setUint32(length - 4, i);
    const hash = keccak256(key);
    let match = true;
    for (let j = 0; j < prefix.length && match; j++) match = (j % 2 === 0 ? hash[j >> 1]! >> 4 : hash[j >> 1]! & 15) === prefix[j];
    if (match) return key;
  }
  throw new ForkStateError('forked state: no key found for a trie position');
}
