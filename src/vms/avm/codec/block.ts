// The X-Chain StandardBlock (vms/avm/block): u16 0 ‖ u32 20 ‖ parentID ‖ u64 height ‖ u64 time ‖
// merkleRoot ‖ u32 nTxs ‖ txs. The txs are []*txs.Tx (pointers, so no type ID and no version).
import { sha256 } from '../../../crypto/sha256.js';
import type { SignedTx, StandardBlock } from '../types.js';
import { readTypeID, SLOTS, STANDARD_BLOCK_TYPE } from './fx.js';
import { unmarshal, versioned } from '../../../encoding/packer.js';
import { readTx } from './tx.js';

export function buildBlock(b: { parentID: Uint8Array; height: bigint; time: bigint; txs: SignedTx[] }): StandardBlock {
  const merkleRoot = new Uint8Array(32); // never set by avalanchego
  const w = versioned().u32(STANDARD_BLOCK_TYPE).fixed(b.parentID, 32).u64(b.height).u64(b.time).fixed(merkleRoot).u32(b.txs.length);
  for (const tx of b.txs) w.fixed(tx.bytes.subarray(2)); // a tx's own codec version is not repeated
  const bytes = w.finish();
  return { parentID: b.parentID, height: b.height, time: b.time, merkleRoot, txs: b.txs, bytes, id: sha256(bytes) };
}

/** block.Parser.ParseBlock: the block interface value (only StandardBlock implements it). */
export function parseBlock(input: Uint8Array): StandardBlock {
  const bytes = new Uint8Array(input); // a copy: the block keeps its bytes
  return unmarshal(bytes, (r) => {
    readTypeID(r, SLOTS.block);
    const parentID = r.fixed(32);
    const height = r.u64();
    const time = r.u64();
    const merkleRoot = r.fixed(32);
    const n = r.sliceLength();
    const txs: SignedTx[] = [];
    for (let i = 0; i < n; i++) txs.push(readTx(r));
    return { parentID, height, time, merkleRoot, txs, bytes, id: sha256(bytes) };
  });
}
