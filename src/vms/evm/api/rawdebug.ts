// debug_getRaw* (ethapi's DebugAPI, coreth's internal-debug API): a header, a block, a block's
// receipts and a tx in their consensus encodings. coreth's block is its own RLP (version and
// extData after the uncles), as the node's block bytes are.
import { encodeReceipt } from '@ethereumjs/vm';
import { method, RpcError } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import { encodeBlock, encodeHeader } from '../header.js';
import { blockTxs, findTx } from '../queries.js';
import type { StoredBlock } from '../store.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { blockOf } from './blocks.js';
import { type BlockRef, blockRef, hash } from './fields.js';
import { logsBloom } from './format.js';

/** Go's `%d` of a common.Hash: its bytes in decimal, as an array prints (`[0 17 …]`). */
const decimalBytes = (h: Uint8Array) => `[${[...h].join(' ')}]`;

export const rawErrors = {
  headerNotFound: (h: Uint8Array) => new RpcError(`header #${decimalBytes(h)} not found`),
  blockNotFound: (h: Uint8Array) => new RpcError(`block #${decimalBytes(h)} not found`),
};

export function rawDebugMethods(chain: EvmChain) {
  /** The block a BlockNumberOrHash names: a hash is looked up as it is (requireCanonical is not read), undefined if unknown. */
  const named = async (ref: BlockRef): Promise<{ block: StoredBlock | undefined; hash: Uint8Array }> => {
    if ('hash' in ref) return { block: await chain.store.block(ref.hash), hash: ref.hash };
    const block = await blockOf(chain, ref);
    return { block, hash: block.hash };
  };
  const receiptsOf = async (block: StoredBlock) => {
    const records = await chain.store.txRecords(block.hash);
    const txs = blockTxs(chain, block);
    return records.map((r, i) =>
      toHex0x(
        encodeReceipt(
          {
            status: r.status,
            cumulativeBlockGasUsed: r.cumulativeGasUsed,
            bitvector: logsBloom(r.logs, chain.common),
            logs: r.logs.map((l) => [l.address, l.topics, l.data]),
          },
          txs[i]!.type,
        ),
      ),
    );
  };
  return {
    getRawHeader: method(positional([blockRef], 1), async ([ref]) => {
      const { block, hash: h } = await named(ref as BlockRef);
      if (!block) throw rawErrors.headerNotFound(h);
      return toHex0x(encodeHeader(block.header));
    }),
    getRawBlock: method(positional([blockRef], 1), async ([ref]) => {
      const { block, hash: h } = await named(ref as BlockRef);
      if (!block) throw rawErrors.blockNotFound(h);
      return toHex0x(encodeBlock(block.header, block.body, block.extData));
    }),
    // An unknown hash has no receipts: an empty list.
    getRawReceipts: method(positional([blockRef], 1), async ([ref]) => {
      const { block } = await named(ref as BlockRef);
      return block ? receiptsOf(block) : [];
    }),
    getRawTransaction: method(positional([hash], 1), ([h]) => rawTransaction(chain, h as Uint8Array)),
  };
}

/**
 * A tx's encoding (eth_getRawTransactionByHash, debug_getRawTransaction): an accepted tx's, else a
 * pooled one's, else none, which coreth's hexutil.Bytes writes as "0x" (a nil slice, not null).
 */
export async function rawTransaction(chain: EvmChain, h: Uint8Array): Promise<string> {
  const found = await findTx(chain, h);
  if (found) return toHex0x(found.tx.serialize());
  const pending = chain.pool.get(toHex0x(h));
  return pending ? toHex0x(pending.bytes) : '0x';
}
