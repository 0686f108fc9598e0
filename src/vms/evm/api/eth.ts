// The eth namespace of an EVM chain (internal/ethapi and eth/api, with Avalanche's eth_baseFee):
// reads of accepted state and history, calls and estimates, txs filled in (eth_fillTransaction) and
// tx submission through the pool.
// What only coreth or only Subnet-EVM adds is in coreth.ts and subnetevm.ts.
import type { Clock } from '../../../chains/clock.js';
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { arrayOf, float } from '../../../rpc/schema.js';
import { call, callDetailed } from '../calls.js';
import { estimateGas } from '../estimate.js';
import type { EvmChain } from '../chain.js';
import { blockAt, blockOf, stateAt } from './blocks.js';
import {
  address,
  hexOrDecimal64,
  blockNumber,
  blockOverrides,
  blockRef,
  boolean,
  bytes,
  callArgs,
  hash,
  stateOverrides,
  text,
  txArgs,
  uint,
} from './fields.js';
import { formatBlock, formatHeader, formatReceipt, formatTx, formatUnsignedTx, qty } from './format.js';
import type { GasOracle } from './gas.js';
import { blockTxs, findTx } from '../queries.js';
import { txHash } from '../txcodec.js';
import { accountMethods, type KeyRing, sendError } from './accounts.js';
import { signingMethods } from './signing.js';
import { getProof } from './proof.js';
import { rawTransaction } from './rawdebug.js';
import { createAccessList } from '../accesslist.js';
import { encodeUnsigned, setDefaults, type TxArgs } from '../txargs.js';
import { toHex0x } from '../../../encoding/bytes.js';

export interface EthDeps {
  chain: EvmChain;
  gas: GasOracle;
  clock: Clock;
  /** The keys eth_accounts lists and eth_sendTransaction signs with (--dev: the test accounts). */
  ring: KeyRing;
  /** coreth's internal-account API (eth_accounts): on with --dev or eth-apis "internal-account". */
  accountsApi?: boolean;
  /** --dev: Anvil's signing methods and shapes (signing.ts). */
  dev?: boolean;
}

const none = positional([]);
/** The miner's etherbase both VMs answer eth_coinbase with (constants.BlackholeAddr). */
const ETHERBASE = '0x0100000000000000000000000000000000000000';

export function ethService(d: EthDeps): ServiceDef {
  const { chain } = d;
  const { ring } = d;
  const state = (addr: Uint8Array, ref: Parameters<typeof blockOf>[1]) => stateAt(chain, addr, ref);
  const txsOf = (block: Awaited<ReturnType<typeof blockOf>>, full: boolean) =>
    full
      ? chain.store.txRecords(block.hash).then((records) => blockTxs(chain, block).map((tx, index) => formatTx(tx, records[index]!.from, { block, index })))
      : Promise.resolve(blockTxs(chain, block).map((tx) => toHex0x(txHash(tx))));
  // coreth's getters that swallow BlockByNumber's error answer null past the head (transaction
  // counts, txs by index, uncle counts); getBlockByNumber, getHeaderByNumber and
  // getUncleByBlockNumberAndIndex pass it on: `cannot query unfinalized data` (blockAt).
  const byNumber = async (tag: Parameters<typeof blockAt>[1]) => {
    if (typeof tag === 'bigint' && tag > chain.head.header.number) return undefined;
    return blockAt(chain, tag);
  };
  const txAt = async (block: Awaited<ReturnType<typeof blockOf>> | undefined, index: bigint) => {
    if (!block) return null;
    const txs = blockTxs(chain, block);
    if (index >= BigInt(txs.length)) return null;
    const records = await chain.store.txRecords(block.hash);
    return formatTx(txs[Number(index)]!, records[Number(index)]!.from, { block, index: Number(index) });
  };
  // No block or no tx there: a nil hexutil.Bytes, which encodes as "0x".
  const rawTxAt = (block: Awaited<ReturnType<typeof blockOf>> | undefined, index: bigint) => {
    const tx = block ? blockTxs(chain, block)[Number(index)] : undefined;
    return tx ? toHex0x(tx.serialize()) : '0x';
  };
  return {
    name: 'eth',
    methods: {
      chainId: method(none, () => qty(chain.chainId)),
      blockNumber: method(none, () => qty(chain.head.header.number)),
      syncing: method(none, () => false),
      coinbase: method(none, () => ETHERBASE),
      etherbase: method(none, () => ETHERBASE),
      getBalance: method(positional([address, blockRef]), async ([a, ref]) => {
        const s = await state(a as Uint8Array, ref as Parameters<typeof blockOf>[1]);
        return qty((await chain.account(s.addr.bytes, s.root))?.balance ?? 0n);
      }),
      getTransactionCount: method(positional([address, blockRef]), async ([a, ref]) => {
        const r = ref as Parameters<typeof blockOf>[1];
        const s = await state(a as Uint8Array, r);
        const nonce = (await chain.account(s.addr.bytes, s.root))?.nonce ?? 0n;
        // geth's GetPoolNonce: 'pending' counts the sender's txs the pool can run next.
        if ('tag' in r && r.tag === 'pending') return qty(nonce + BigInt(chain.pool.executable(s.addr.toString(), nonce).length));
        return qty(nonce);
      }),
      getCode: method(positional([address, blockRef]), async ([a, ref]) => {
        const s = await state(a as Uint8Array, ref as Parameters<typeof blockOf>[1]);
        return toHex0x(await chain.code(s.addr.bytes, s.root));
      }),
      // The key is a plain string, decoded once the state is found (decodeHash).
      getStorageAt: method(positional([address, text, blockRef]), async ([a, hexKey, ref]) => {
        const s = await state(a as Uint8Array, ref as Parameters<typeof blockOf>[1]);
        const key = storageKey(hexKey as string);
        const value = await chain.withState(s.root, async (vm) =>
          (await vm.stateManager.getAccount(s.addr)) ? vm.stateManager.getStorage(s.addr, key) : new Uint8Array(),
        );
        const out = new Uint8Array(32);
        out.set(value, 32 - value.length);
        return toHex0x(out);
      }),
      call: method(positional([callArgs, blockRef, stateOverrides, blockOverrides], 1), async ([args, ref, overrides, header]) => {
        const block = await blockOf(chain, (ref ?? { tag: 'latest' }) as Parameters<typeof blockOf>[1]);
        try {
          const o = overrides as Parameters<typeof call>[3];
          return toHex0x(await call(chain, block, args as Parameters<typeof call>[2], o, header as Parameters<typeof call>[4], 'eth_call'));
        } catch (err) {
          sendError(err);
        }
      }),
      // Its block is taken by value (required; null names neither block nor hash), unlike eth_call's.
      callDetailed: method(positional([callArgs, blockRef, stateOverrides], 2), async ([args, ref, overrides]) => {
        const block = await blockOf(chain, ref as Parameters<typeof blockOf>[1]);
        try {
          const r = await callDetailed(chain, block, args as Parameters<typeof call>[2], overrides as Parameters<typeof call>[3]);
          return { ...r, returnData: toHex0x(r.returnData) };
        } catch (err) {
          sendError(err);
        }
      }),
      // The node builds every block it accepts: it never meets a bad one.
      getBadBlocks: method(none, () => []),
      estimateGas: method(positional([callArgs, blockRef, stateOverrides], 1), async ([args, ref, overrides]) => {
        const block = await blockOf(chain, (ref ?? { tag: 'latest' }) as Parameters<typeof blockOf>[1]);
        try {
          return qty(await estimateGas(chain, block, args as Parameters<typeof call>[2], overrides as Parameters<typeof call>[3]));
        } catch (err) {
          sendError(err);
        }
      }),
      createAccessList: method(positional([txArgs, blockRef], 1), async ([args, ref]) => {
        const block = await blockOf(chain, (ref ?? { tag: 'latest' }) as Parameters<typeof blockOf>[1]);
        try {
          return await createAccessList(chain, block, args as TxArgs, d.gas.feeSource());
        } catch (err) {
          sendError(err);
        }
      }),
      // TransactionAPI.FillTransaction: setDefaults (the estimate included), toTransaction, and the
      // unsigned tx as {raw: MarshalBinary, tx: MarshalJSON}; nothing is signed or sent.
      fillTransaction: method(positional([txArgs]), async ([args]) => {
        try {
          const filled = await setDefaults(chain, args as TxArgs, d.gas.feeSource());
          return { raw: toHex0x(encodeUnsigned(filled)), tx: formatUnsignedTx(filled) };
        } catch (err) {
          sendError(err);
        }
      }),
      sendRawTransaction: method(positional([bytes]), async ([raw]) => {
        try {
          return toHex0x(await chain.sendRawTransaction(raw as Uint8Array));
        } catch (err) {
          sendError(err);
        }
      }),
      ...accountMethods(chain, d.gas, ring, d.accountsApi ?? false),
      ...signingMethods(chain, d.gas, ring, d.dev ?? false),
      getTransactionByHash: method(positional([hash]), async ([h]) => {
        const found = await findTx(chain, h as Uint8Array);
        if (found) return formatTx(found.tx, found.records[found.index]!.from, found);
        const pending = chain.pool.get(toHex0x(h as Uint8Array));
        return pending ? formatTx(pending.tx, pending.from, undefined) : null;
      }),
      getRawTransactionByHash: method(positional([hash]), ([h]) => rawTransaction(chain, h as Uint8Array)),
      getTransactionReceipt: method(positional([hash]), async ([h]) => {
        const found = await findTx(chain, h as Uint8Array);
        return found ? formatReceipt(found.tx, found.records, found) : null;
      }),
      getBlockByNumber: method(positional([blockNumber, boolean]), async ([tag, full]) => {
        const block = await blockAt(chain, tag as Parameters<typeof blockAt>[1]);
        return formatBlock(block, await txsOf(block, full as boolean));
      }),
      getBlockByHash: method(positional([hash, boolean]), async ([h, full]) => {
        const block = await chain.store.block(h as Uint8Array);
        return block ? formatBlock(block, await txsOf(block, full as boolean)) : null;
      }),
      getHeaderByNumber: method(positional([blockNumber]), async ([tag]) => {
        const block = await blockAt(chain, tag as Parameters<typeof blockAt>[1]);
        return formatHeader(block, { totalDifficulty: qty(block.header.number) });
      }),
      getHeaderByHash: method(positional([hash]), async ([h]) => {
        const block = await chain.store.block(h as Uint8Array);
        return block ? formatHeader(block, { totalDifficulty: qty(block.header.number) }) : null;
      }),
      getBlockTransactionCountByNumber: method(positional([blockNumber]), async ([tag]) => {
        const block = await byNumber(tag as Parameters<typeof blockAt>[1]);
        return block ? qty(block.body.length) : null;
      }),
      getBlockTransactionCountByHash: method(positional([hash]), async ([h]) => {
        const block = await chain.store.block(h as Uint8Array);
        return block ? qty(block.body.length) : null;
      }),
      getTransactionByBlockNumberAndIndex: method(positional([blockNumber, uint]), async ([tag, i]) =>
        txAt(await byNumber(tag as Parameters<typeof blockAt>[1]), i as bigint),
      ),
      getTransactionByBlockHashAndIndex: method(positional([hash, uint]), async ([h, i]) => txAt(await chain.store.block(h as Uint8Array), i as bigint)),
      getRawTransactionByBlockNumberAndIndex: method(positional([blockNumber, uint]), async ([tag, i]) =>
        rawTxAt(await byNumber(tag as Parameters<typeof blockAt>[1]), i as bigint),
      ),
      getRawTransactionByBlockHashAndIndex: method(positional([hash, uint]), async ([h, i]) => rawTxAt(await chain.store.block(h as Uint8Array), i as bigint)),
      // coreth answers null for a block it cannot find, whatever the reason (past the head included).
      getBlockReceipts: method(positional([blockRef]), async ([ref]) => {
        const block = await blockOf(chain, ref as Parameters<typeof blockOf>[1]).catch(() => undefined);
        if (!block) return null;
        const records = await chain.store.txRecords(block.hash);
        // Each receipt's first log index counted on from the last, not again from the block's first tx.
        let first = 0;
        return blockTxs(chain, block).map((tx, index) => {
          const receipt = formatReceipt(tx, records, { block, index }, first);
          first += records[index]!.logs.length;
          return receipt;
        });
      }),
      getUncleCountByBlockNumber: method(positional([blockNumber]), async ([tag]) => ((await byNumber(tag as Parameters<typeof blockAt>[1])) ? '0x0' : null)),
      getUncleCountByBlockHash: method(positional([hash]), async ([h]) => ((await chain.store.block(h as Uint8Array)) ? '0x0' : null)),
      getUncleByBlockNumberAndIndex: method(positional([blockNumber, uint]), async ([tag]) => {
        await blockAt(chain, tag as Parameters<typeof blockAt>[1]);
        return null;
      }),
      getUncleByBlockHashAndIndex: method(positional([hash, uint]), () => null),
      gasPrice: method(none, async () => qty((await d.gas.suggestTip()) + d.gas.nextBaseFee())),
      maxPriorityFeePerGas: method(none, async () => qty(await d.gas.suggestTip())),
      baseFee: method(none, () => qty(d.gas.nextBaseFee())),
      getProof: method(positional([address, arrayOf(text, '[]string'), blockRef]), async ([a, keys, ref]) =>
        getProof(chain, await blockOf(chain, ref as Parameters<typeof blockOf>[1]), a as Uint8Array, keys as string[]),
      ),
      // rewardPercentiles is a []float64, not a pointer: required, and null is none.
      feeHistory: method(positional([hexOrDecimal64, blockNumber, arrayOf(float, '[]float64')]), async ([count, last, pcts]) =>
        d.gas.feeHistory(count as bigint, last as Parameters<GasOracle['feeHistory']>[1], (pcts as number[] | undefined) ?? []),
      ),
    },
  };
}

/**
 * ethapi's decodeHash: an optional 0x, odd lengths padded with a 0, at most 32 bytes, left-padded
 * to a hash; its failures are the method's (-32000).
 */
function storageKey(text: string): Uint8Array {
  let digits = /^0[xX]/.test(text) ? text.slice(2) : text;
  if (digits.length % 2 === 1) digits = `0${digits}`;
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new RpcError('unable to decode storage key: hex string invalid');
  if (digits.length > 64) throw new RpcError('unable to decode storage key: hex string too long, want at most 32 bytes');
  return new Uint8Array(Buffer.from(digits.padStart(64, '0'), 'hex'));
}
