// The X-Chain genesis block after linearization (avalanchego vms/avm/state initializeChainState):
// a StandardBlock (type 20) at height 0 whose parent is the Cortina stop vertex, stamped with the
// Cortina time. Built from its byte layout so that its ID is the real node's.
import { sha256 } from '../../crypto/sha256.js';
import { decodeCB58, encodeCB58 } from '../../encoding/cb58.js';
import { buildBlock } from './codec/index.js';
import type { StandardBlock } from './types.js';
import { u16, u32, u64 } from '../../encoding/bytes.js';

/** Local `upgrade.Default` CortinaTime: 2020-12-05T05:00:00Z. */
export const CORTINA_TIME = 1607144400;

/** The stop vertex of an empty DAG: vertex codec v1 ‖ chainID ‖ height 0 ‖ no parents. */
export function stopVertexId(chainId: string): Uint8Array {
  return sha256(Buffer.concat([u16(1), decodeCB58(chainId), u64(0n), u32(0)]));
}

/** The X-Chain genesis block of the chain with this ID. */
export function xGenesisBlock(chainID: Uint8Array): StandardBlock {
  return buildBlock({ parentID: stopVertexId(encodeCB58(chainID)), height: 0n, time: BigInt(CORTINA_TIME), txs: [] });
}
