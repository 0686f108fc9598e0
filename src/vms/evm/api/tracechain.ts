// debug_subscribe("traceChain", start, end[, config]) (coreth's TraceChain, debug-tracer API): the
// blocks after `start` up to `end` traced one after another over a websocket, each pushed as
// {block, hash, traces} in order; a block without txs is pushed only when it is `end`. A tx whose
// trace fails is pushed as {txHash, error}, the block's txs after it as null, and the chain goes on.
// The trace stops when the subscription or its connection ends, or a block is no longer there (a
// revert took it); each block's run is paced (trace/pacer.ts), so the node answers others meanwhile.
import type { JsonValue } from '../../../encoding/gojson.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { unsubscribeMethod } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import type { TraceConfig } from '../trace/index.js';
import { traceBlock } from '../trace/replay.js';
import { blockAt } from './blocks.js';
import { blockReply, rpcEnv, traceConfig } from './debug.js';
import { type BlockTag, blockNumber, raw } from './fields.js';
import { subscribe, subscriptionArgs, subscriptionErrors } from '../../../rpc/subscriptions.js';

/** rpc.BlockNumber's value as Go's %d prints it: the tags are negative (coreth's "accepted" is finalized's). */
function goBlockNumber(tag: BlockTag): bigint {
  const tags: Record<string, bigint> = { safe: -4n, finalized: -3n, latest: -2n, pending: -1n, earliest: 0n };
  return typeof tag === 'bigint' ? tag : tags[tag]!;
}

export const traceChainErrors = {
  order: (start: BlockTag, end: BlockTag) => new RpcError(`end block (#${goBlockNumber(end)}) needs to come after start block (#${goBlockNumber(start)})`),
};

/** The blocks after `from` up to `to`, traced and pushed in order, until `stopped()`. */
async function traceChain(chain: EvmChain, from: bigint, to: bigint, config: TraceConfig | undefined, send: (json: string) => void, stopped: () => boolean) {
  for (let n = from + 1n; n <= to && !stopped(); n++) {
    const block = await chain.store.blockAt(n);
    if (!block) return;
    const traces = await traceBlock(rpcEnv(chain), block, config, () => true, true);
    if (stopped()) return;
    if (block.body.length === 0 && n !== to) continue;
    const json = await blockReply(traces, block.body.length);
    send(`{"block":"0x${n.toString(16)}","hash":"${toHex0x(block.hash)}","traces":${json.text}}`);
  }
}

/** debug_subscribe, for traceChain (coreth's only debug subscription), and debug_unsubscribe (any subscription's, rpc/geth.ts). */
export function traceChainService(chain: EvmChain): ServiceDef['methods'] {
  const start = async (name: string, params: JsonValue[], send: (json: string) => void) => {
    if (name !== 'traceChain') throw subscriptionErrors.unknown('debug', name);
    const [startTag, endTag, config] = subscriptionArgs(params, [blockNumber.decode, blockNumber.decode, (v) => traceConfig.decode(v)], 2) as [
      BlockTag,
      BlockTag,
      TraceConfig | undefined,
    ];
    const [from, to] = [await blockAt(chain, startTag), await blockAt(chain, endTag)];
    if (from.header.number >= to.header.number) throw traceChainErrors.order(startTag, endTag);
    let stopped = false;
    // A failure past the subscription's answer ends the pushes, as coreth's tracer logs it and stops.
    traceChain(chain, from.header.number, to.header.number, config, send, () => stopped).catch(() => {});
    return () => {
      stopped = true;
    };
  };
  return {
    subscribe: method(raw, (params, ctx) => subscribe(ctx, 'debug', params, start)),
    unsubscribe: unsubscribeMethod,
  };
}
