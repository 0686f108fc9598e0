// txpool_* (geth's TxPoolAPI, off unless the chain config or --dev enables it): the pool's pending
// (runnable now) and queued (behind a nonce gap) txs by sender and nonce.
import { toChecksumAddress } from '@ethereumjs/util';
import { method, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import type { PoolTx } from '../pool.js';
import { address } from './fields.js';
import { formatTx, qty } from './format.js';

export function txpoolService(chain: EvmChain): ServiceDef {
  const split = async () => {
    const nonces = new Map<string, bigint>();
    for (const from of chain.pool.senders()) nonces.set(from, (await chain.account(Buffer.from(from.slice(2), 'hex')))?.nonce ?? 0n);
    return chain.pool.content((from) => nonces.get(from) ?? 0n);
  };
  const group = (m: Map<string, PoolTx[]>, f: (p: PoolTx) => unknown) => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [from, txs] of m) {
      const byNonce: Record<string, unknown> = {};
      for (const p of txs) byNonce[p.nonce.toString()] = f(p);
      out[toChecksumAddress(from)] = byNonce;
    }
    return out;
  };
  const summary = (p: PoolTx) => {
    const to = p.tx.to ? toChecksumAddress(p.tx.to.toString()) : 'contract creation';
    return `${to}: ${p.tx.value} wei + ${p.tx.gasLimit} gas × ${p.feeCap} wei`;
  };
  return {
    name: 'txpool',
    methods: {
      content: method(positional([]), async () => {
        const { pending, queued } = await split();
        const f = (p: PoolTx) => formatTx(p.tx, p.from, undefined);
        return { pending: group(pending, f), queued: group(queued, f) };
      }),
      contentFrom: method(positional([address]), async ([a]) => {
        const { pending, queued } = await split();
        const key = `0x${Buffer.from(a as Uint8Array).toString('hex')}`;
        const f = (p: PoolTx) => formatTx(p.tx, p.from, undefined);
        const pick = (m: Map<string, PoolTx[]>) => Object.fromEntries((m.get(key) ?? []).map((p) => [p.nonce.toString(), f(p)]));
        return { pending: pick(pending), queued: pick(queued) };
      }),
      status: method(positional([]), async () => {
        const { pending, queued } = await split();
        const count = (m: Map<string, PoolTx[]>) => [...m.values()].reduce((n, txs) => n + txs.length, 0);
        return { pending: qty(count(pending)), queued: qty(count(queued)) };
      }),
      inspect: method(positional([]), async () => {
        const { pending, queued } = await split();
        return { pending: group(pending, summary), queued: group(queued, summary) };
      }),
    },
  };
}
