// Proposer details of the primary network's blocks: proposervm keeps only its last outer block, so
// the Data API records each outer block's header as it is accepted, in the block's own write (an
// acceptor of the accepted stream). Blocks accepted while the Data API was off have none (the field
// is optional).
import type { AcceptedBlock, BlockAcceptor } from '../../chains/acceptance.js';
import { parseOuterHeader } from '../../chains/proposervm.js';
import type { Database, WriteBatch } from '../../storage/db.js';

export interface ProposerRecord {
  id: Uint8Array;
  parentID: Uint8Array;
  timestamp: bigint;
  pChainHeight: bigint;
}

const PRIMARY = new Uint8Array(32);
const key = (chainID: Uint8Array, height: bigint) => {
  const k = Buffer.alloc(40);
  Buffer.from(chainID).copy(k, 0);
  k.writeBigUInt64BE(height, 32);
  return k;
};

export class ProposerRecords implements BlockAcceptor {
  constructor(private readonly db: Database) {}

  async prepare(block: AcceptedBlock, batch: WriteBatch): Promise<void> {
    if (!Buffer.from(block.subnetID).equals(PRIMARY)) return;
    const header = parseOuterHeader(block.bytes);
    if (!header) return;
    const v = Buffer.alloc(80);
    Buffer.from(block.id).copy(v, 0);
    Buffer.from(header.parentID).copy(v, 32);
    v.writeBigInt64BE(header.timestamp, 64);
    v.writeBigUInt64BE(header.pChainHeight, 72);
    batch.put(this.db, key(block.chainID, block.height), v);
  }

  committed(): void {}

  async get(chainID: Uint8Array, height: bigint): Promise<ProposerRecord | undefined> {
    const v = await this.db.get(key(chainID, height));
    if (!v) return undefined;
    const b = Buffer.from(v);
    return { id: b.subarray(0, 32), parentID: b.subarray(32, 64), timestamp: b.readBigInt64BE(64), pChainHeight: b.readBigUInt64BE(72) };
  }
}
