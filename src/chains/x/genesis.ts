// The X-Chain genesis block after linearization (avalanchego vms/avm/state initializeChainState):
// a StandardBlock (type 20) at height 0 whose parent is the Cortina stop vertex, stamped with the
// Cortina time. Built from its byte layout so that its ID is the real node's.
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeCB58, encodeCB58 } from '../../encoding/cb58.js';

/** Local `upgrade.Default` CortinaTime: 2020-12-05T05:00:00Z. */
export const CORTINA_TIME = 1607144400;
const STANDARD_BLOCK_TYPE = 20;

function u16(n: number) { const b = Buffer.alloc(2); b.writeUInt16BE(n); return b; }
function u32(n: number) { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; }
function u64(n: bigint) { const b = Buffer.alloc(8); b.writeBigUInt64BE(n); return b; }

/** The stop vertex of an empty DAG: vertex codec v1 ‖ chainID ‖ height 0 ‖ no parents. */
export function stopVertexId(chainId: string): Uint8Array {
  return sha256(Buffer.concat([u16(1), decodeCB58(chainId), u64(0n), u32(0)]));
}

export interface GenesisBlock {
  id: string;
  bytes: Uint8Array;
  height: bigint;
  timestamp: number;
}

export function xGenesisBlock(chainId: string): GenesisBlock {
  const bytes = Buffer.concat([
    u16(0), u32(STANDARD_BLOCK_TYPE), stopVertexId(chainId), u64(0n), u64(BigInt(CORTINA_TIME)), Buffer.alloc(32), u32(0),
  ]);
  return { id: encodeCB58(sha256(bytes)), bytes, height: 0n, timestamp: CORTINA_TIME };
}
