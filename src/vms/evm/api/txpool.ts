// txpool_* (geth's TxPoolAPI, off unless the chain config or --dev enables it): the pool's pending
// and queued txs by sender and nonce, as geth's pool classes them. Pending means runnable by nonce
// (from the account's nonce on, without a gap), whatever the fee: a tx whose fee cap is under the
// next base fee is pending, and waits there until the fee falls. Queued txs wait behind a gap.
import { toChecksumAddress } from '@ethereumjs/util';
import { method, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import type { PoolTx } from '../pooltx.js';
import { address } from './fields.js';
import { formatTx, qty } from './format.js';

type Split = 'pending' | 'queued';

export function txpoolService(chain: EvmChain): ServiceDef {
  /** Each side of the pool by checksummed sender, then by nonce (a decimal string, as geth's fmt.Sprint). */
  const grouped = (side: Split, f: (p: PoolTx) => unknown) => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [from, txs] of chain.pool.content()) {
      if (txs[side].length === 0) continue;
      out[toChecksumAddress(from)] = byNonce(txs[side], f);
    }
    return out;
  };
  const byNonce = (txs: PoolTx[], f: (p: PoolTx) => unknown) => Object.fromEntries(txs.map((p) => [p.nonce.toString(), f(p)]));
  const full = (p: PoolTx) => formatTx(p.tx, p.from, undefined);
  // geth's inspect: "<to>: <value> wei + <gas> gas × <gas price> wei", a dynamic-fee tx's gas price being its fee cap.
  const summary = (p: PoolTx) => {
    const to = p.tx.to ? toChecksumAddress(p.tx.to.toString()) : 'contract creation';
    return `${to}: ${p.tx.value} wei + ${p.tx.gasLimit} gas × ${p.feeCap} wei`;
  };
  return {
    name: 'txpool',
    methods: {
      content: method(positional([]), () => ({ pending: grouped('pending', full), queued: grouped('queued', full) })),
      contentFrom: method(positional([address]), ([a]) => {
        const txs = chain.pool.content().get(`0x${Buffer.from(a as Uint8Array).toString('hex')}`);
        return { pending: byNonce(txs?.pending ?? [], full), queued: byNonce(txs?.queued ?? [], full) };
      }),
      status: method(positional([]), () => {
        const { pending, queued } = chain.pool.stats();
        return { pending: qty(pending), queued: qty(queued) };
      }),
      inspect: method(positional([]), () => ({ pending: grouped('pending', summary), queued: grouped('queued', summary) })),
    },
  };
}
