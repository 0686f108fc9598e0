// P-Chain blocks (vms/platformvm/block): the Banff standard block this VM builds and the Apricot
// commit block that is the genesis. A block's ID is the sha256 of all its bytes; its txs are
// written as in a tx slice, without their own codec version.
import { sha256 } from '../../../crypto/sha256.js';
import { CodecError, type Reader, unmarshal, versioned } from '../../../encoding/packer.js';
import type { Block, GenesisBlock, OptionBlock, ProposalBlock, SignedTx, StandardBlock } from '../types.js';
import { readTypeID, SLOTS } from './slots.js';
import { readTx } from './tx.js';

export function buildStandardBlock(b: { time: bigint; parentID: Uint8Array; height: bigint; txs: SignedTx[] }): StandardBlock {
  const w = versioned().u32(32).u64(b.time).fixed(b.parentID, 32).u64(b.height).u32(b.txs.length);
  for (const tx of b.txs) w.fixed(tx.bytes.subarray(2));
  const bytes = w.finish();
  return { type: 32, ...b, bytes, id: sha256(bytes) };
}

export function buildProposalBlock(b: { time: bigint; parentID: Uint8Array; height: bigint; decisionTxs: SignedTx[]; tx: SignedTx }): ProposalBlock {
  const w = versioned().u32(29).u64(b.time).u32(b.decisionTxs.length);
  for (const tx of b.decisionTxs) w.fixed(tx.bytes.subarray(2));
  w.fixed(b.parentID, 32).u64(b.height).fixed(b.tx.bytes.subarray(2));
  const bytes = w.finish();
  return { type: 29, ...b, bytes, id: sha256(bytes) };
}

/** A proposal's commit (31) or abort (30) option: same time, the proposal as parent, the next height. */
export function buildOptionBlock(type: 30 | 31, b: { time: bigint; parentID: Uint8Array; height: bigint }): OptionBlock {
  const bytes = versioned().u32(type).u64(b.time).fixed(b.parentID, 32).u64(b.height).finish();
  return { type, ...b, bytes, id: sha256(bytes) };
}

/** The genesis block: an ApricotCommitBlock whose parent is the ID of the genesis bytes (state.init). */
export function buildGenesisBlock(genesisID: Uint8Array): GenesisBlock {
  const bytes = versioned().u32(2).fixed(genesisID, 32).u64(0n).finish();
  return { type: 2, parentID: genesisID, height: 0n, bytes, id: sha256(bytes) };
}

function readBlock(r: Reader): Block {
  const type = readTypeID(r, SLOTS.block, true);
  if (type === 2) {
    const parentID = r.fixed(32);
    if (r.u64() !== 0n) throw new CodecError('only the genesis commit block is stored');
    return { type: 2, parentID, height: 0n, bytes: new Uint8Array(), id: new Uint8Array() };
  }
  if (type === 30 || type === 31) {
    return { type, time: r.u64(), parentID: r.fixed(32), height: r.u64(), bytes: new Uint8Array(), id: new Uint8Array() };
  }
  if (type === 29) {
    const time = r.u64();
    const n = r.sliceLength();
    const decisionTxs: SignedTx[] = [];
    for (let i = 0; i < n; i++) decisionTxs.push(readTx(r));
    return { type: 29, time, decisionTxs, parentID: r.fixed(32), height: r.u64(), tx: readTx(r), bytes: new Uint8Array(), id: new Uint8Array() };
  }
  if (type !== 32) throw new CodecError(`block type ${type} is not built by this emulator`);
  const time = r.u64();
  const parentID = r.fixed(32);
  const height = r.u64();
  const n = r.sliceLength();
  const txs: SignedTx[] = [];
  for (let i = 0; i < n; i++) txs.push(readTx(r));
  return { type: 32, time, parentID, height, txs, bytes: new Uint8Array(), id: new Uint8Array() };
}

/** A stored block back from its bytes. */
export function parseBlock(bytes: Uint8Array): Block {
  const block = unmarshal(bytes, readBlock);
  return { ...block, bytes, id: sha256(bytes) };
}
