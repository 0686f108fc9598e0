// Resolving the blocks RPC arguments name, with coreth's finality: every accepted block is final, so
// latest = pending = safe = finalized, and a number past the head is `cannot query unfinalized data`.
import { Address } from '@ethereumjs/util';
import { RpcError } from '../../../rpc/method.js';
import type { EvmChain } from '../chain.js';
import type { StoredBlock } from '../store.js';
import type { BlockRef, BlockTag } from './fields.js';

export const blockErrors = {
  unfinalized: () => new RpcError('cannot query unfinalized data'),
  headerNotFound: () => new RpcError('header not found'),
  hashNotFound: () => new RpcError('header for hash not found'),
  notCanonical: () => new RpcError('hash is not currently canonical'),
  neither: () => new RpcError('invalid arguments; neither block nor hash specified'),
};

/** The block a tag names; undefined for a number past the head when `lenient` (the by-number getters answer null). */
export async function blockAt(chain: EvmChain, tag: BlockTag): Promise<StoredBlock> {
  if (typeof tag !== 'bigint') return tag === 'earliest' ? chain.genesis : chain.head;
  if (tag > chain.head.header.number) throw blockErrors.unfinalized();
  const block = await chain.store.blockAt(tag);
  if (!block) throw blockErrors.headerNotFound();
  return block;
}

export async function blockOf(chain: EvmChain, ref: BlockRef): Promise<StoredBlock> {
  if ('tag' in ref) return blockAt(chain, ref.tag);
  if ('neither' in ref) throw blockErrors.neither();
  const block = await chain.store.block(ref.hash);
  if (!block) throw blockErrors.hashNotFound();
  if (ref.requireCanonical) {
    const canonical = await chain.store.hashAt(block.header.number);
    if (!canonical || Buffer.compare(canonical, ref.hash) !== 0) throw blockErrors.notCanonical();
  }
  return block;
}

/**
 * The first block number in [lo, hi] at which `holds` is true, by bisection: it must hold at `hi`
 * and, once true, stay so for every later block (a sender's nonce past a value, code in place).
 */
export async function firstBlockWhere(lo: bigint, hi: bigint, holds: (n: bigint) => Promise<boolean>): Promise<bigint> {
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (await holds(mid)) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/** The state an account is read at for a block argument (eth_getBalance and its kin): the block, its root, the address. */
export async function stateAt(chain: EvmChain, addr: Uint8Array, ref: BlockRef): Promise<{ block: StoredBlock; root: Uint8Array; addr: Address }> {
  const block = await blockOf(chain, ref);
  return { block, root: chain.stateRootOf(block), addr: new Address(addr) };
}
