// The chain-level methods: heights, blocks, txs and their status, issueTx, chain time and fees.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { RawJson } from '../../../encoding/gojson.js';
import { decodeHex } from '../../../encoding/hex.js';
import { formatRFC3339Nano } from '../../../encoding/time.js';
import { method, RpcError } from '../../../rpc/method.js';
import { none, string, struct, uint64 } from '../../../rpc/schema.js';
import { FEE_CONFIG, gasPrice, VALIDATOR_FEE_CONFIG, validatorFeePrice } from '../fees.js';
import { blockJson, txJson } from '../json.js';
import type { Block, SignedTx } from '../types.js';
import { IssueError, TxParseError } from '../vm.js';
import { type Encoding, encodeBytes, encoding, errors, id, type PlatformDeps } from './common.js';

const time = (seconds: bigint) => formatRFC3339Nano(seconds * 1_000_000_000n);

export function chainMethods(d: PlatformDeps) {
  const jsonCtx = { hrp: d.hrp };
  const blockReply = (block: Block, enc: Encoding) =>
    enc === 'json' ? new RawJson(`{"block":${blockJson(block, jsonCtx)},"encoding":"json"}`) : { block: encodeBytes(block.bytes, enc), encoding: enc };
  const txReply = (tx: SignedTx, enc: Encoding) =>
    enc === 'json' ? new RawJson(`{"tx":${txJson(tx, jsonCtx)},"encoding":"json"}`) : { tx: encodeBytes(tx.bytes, enc), encoding: enc };
  return {
    getHeight: method(none, () => ({ height: String(d.vm.state.lastAccepted().height) })),
    // Blocks are accepted as soon as they are built: the proposed height is the last accepted one.
    getProposedHeight: method(none, () => ({ height: String(d.vm.state.lastAccepted().height) })),

    getBlock: method(struct({ blockID: id, encoding }), async ({ blockID, encoding: enc }) => {
      const block = await d.vm.state.getBlock(blockID);
      if (!block) throw errors.noBlockWithID(encodeCB58(blockID));
      return blockReply(block, enc);
    }),

    getBlockByHeight: method(struct({ height: uint64, encoding }), async (args) => {
      const h = args.height;
      const blockID = await d.vm.state.getBlockIdAtHeight(h);
      const block = blockID && (await d.vm.state.getBlock(blockID));
      if (!block) throw errors.noBlockAtHeight(h);
      return blockReply(block, args.encoding);
    }),

    getTx: method(struct({ txID: id, encoding }), async ({ txID, encoding: enc }) => {
      const tx = await d.vm.state.getTx(txID);
      if (!tx) throw errors.txNotFound();
      return txReply(tx, enc);
    }),

    getTxStatus: method(struct({ txID: id }), async ({ txID }) => {
      if (await d.vm.state.getTx(txID)) return { status: d.vm.state.ledger.aborted.has(Buffer.from(txID).toString('hex')) ? 'Aborted' : 'Committed' };
      const reason = d.vm.dropReason(txID);
      if (reason !== undefined) return { status: 'Dropped', reason };
      // In the mempool (block production stalled by an emulator fault).
      if (d.vm.isWaiting(txID)) return { status: 'Processing' };
      return { status: 'Unknown' };
    }),

    issueTx: method(struct({ tx: string, encoding }), async ({ tx, encoding: enc }) => {
      let bytes: Uint8Array;
      try {
        if (enc === 'json') throw new Error('unsupported encoding in method');
        bytes = decodeHex(tx, enc);
      } catch (err) {
        throw errors.decodingTx((err as Error).message);
      }
      try {
        return { txID: encodeCB58(await d.vm.issueTx(bytes)) };
      } catch (err) {
        // avalanchego's service: txs.Parse's error under `couldn't parse tx`, the rest under `couldn't issue tx`.
        if (err instanceof TxParseError) throw new RpcError(`couldn't parse tx: ${err.message}`);
        if (err instanceof IssueError) throw new RpcError(`couldn't issue tx: ${err.message}`);
        throw err;
      }
    }),

    getTimestamp: method(none, () => ({ timestamp: time(d.vm.state.ledger.c.timestamp) })),

    getFeeConfig: method(none, () => ({
      weights: FEE_CONFIG.weights.map(Number),
      maxCapacity: Number(FEE_CONFIG.maxCapacity),
      maxPerSecond: Number(FEE_CONFIG.maxPerSecond),
      targetPerSecond: Number(FEE_CONFIG.targetPerSecond),
      minPrice: Number(FEE_CONFIG.minPrice),
      excessConversionConstant: Number(FEE_CONFIG.excessConversionConstant),
    })),

    getFeeState: method(none, () => {
      const c = d.vm.state.ledger.c;
      const state = { capacity: c.feeCapacity, excess: c.feeExcess };
      return { capacity: Number(c.feeCapacity), excess: Number(c.feeExcess), price: Number(gasPrice(state)), timestamp: time(c.timestamp) };
    }),

    getValidatorFeeConfig: method(none, () => ({
      capacity: Number(VALIDATOR_FEE_CONFIG.capacity),
      target: Number(VALIDATOR_FEE_CONFIG.target),
      minPrice: Number(VALIDATOR_FEE_CONFIG.minPrice),
      excessConversionConstant: Number(VALIDATOR_FEE_CONFIG.excessConversionConstant),
    })),

    getValidatorFeeState: method(none, () => {
      const c = d.vm.state.ledger.c;
      return { excess: Number(c.l1Excess), price: Number(validatorFeePrice(c.l1Excess)), timestamp: time(c.timestamp) };
    }),
  };
}
