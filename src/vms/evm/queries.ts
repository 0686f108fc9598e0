// Reads of accepted history that the chain's APIs (api/) and the node's followers (the Data API)
// share: a block's decoded txs (kept for recent blocks) and a tx with its position and record. They
// answer values, not JSON: each API formats them its own way.
import { createTxFromBlockBodyData, type TypedTransaction } from '@ethereumjs/tx';
import type { EvmChain } from './chain.js';
import type { TxRecord } from './records.js';
import { decodedTxs, type StoredBlock } from './store.js';

/** A block's txs, decoded once and kept with the block object the store holds. */
export function blockTxs(chain: EvmChain, block: StoredBlock): TypedTransaction[] {
  let txs = decodedTxs.get(block);
  if (!txs) {
    // Not frozen: a replayed tx with warp predicates gets its intrinsic gas set (warp/receive.ts).
    txs = block.body.map((item) => createTxFromBlockBodyData(item, { common: chain.common, freeze: false }));
    decodedTxs.set(block, txs);
  }
  return txs;
}

export interface FoundTx {
  tx: TypedTransaction;
  block: StoredBlock;
  index: number;
  records: readonly TxRecord[];
}

/** An accepted tx by hash: the tx, its block, its position there and the block's records. */
export async function findTx(chain: EvmChain, hash: Uint8Array): Promise<FoundTx | undefined> {
  const at = await chain.store.lookup(hash);
  if (!at) return undefined;
  const block = await chain.store.blockAt(at.number);
  if (!block) return undefined;
  return { tx: blockTxs(chain, block)[at.index]!, block, index: at.index, records: await chain.store.txRecords(block.hash) };
}
