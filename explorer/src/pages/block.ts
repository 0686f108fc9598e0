// A block of any chain, by number (height) or by ID/hash.
import { rpc } from '../api.js';
import { type Chain, chains, findChain, isEvm } from '../chains.js';
import { parseAtomicBatch } from '../cb58.js';
import { addressLink, badge, errorBox, facts, fill, h, ident, link, section, table, time, txLink } from '../dom.js';
import { toBlock } from '../evm.js';
import { gwei, hexBig, int, navax, wei } from '../format.js';
import type { PageCtx } from '../page.js';
import { height as chainHeight } from './home.js';
import { avaxAssetID, outputAmount, outputsOf, pTxType, xTxType } from '../primary.js';
import { chainBadge } from '../ui.js';

export async function blockPage(ctx: PageCtx): Promise<void> {
  const chain = await findChain(ctx.params[0]!);
  const ref = ctx.params[1]!;
  if (!chain) {
    fill(ctx.view, errorBox(`no chain ${ctx.params[0]} on this node`));
    return;
  }
  ctx.title(`${chain.name} block ${ref}`);
  try {
    if (isEvm(chain)) await evmBlock(ctx, chain, ref);
    else await primaryBlock(ctx, chain, ref);
  } catch (err) {
    fill(ctx.view, h('h1', null, `${chain.name} block ${ref}`), errorBox(err));
  }
}

/** Links to the previous block, and to the next one when there is one (not past the chain's head). */
const nav = (chain: Chain, height: number, head: number) =>
  h(
    'span',
    { class: 'pager' },
    height > 0 && link(`/block/${chain.key}/${height - 1}`, '← previous'),
    ' ',
    height < head && link(`/block/${chain.key}/${height + 1}`, 'next →'),
  );

async function evmBlock(ctx: PageCtx, chain: Chain, ref: string): Promise<void> {
  const raw = /^0x[0-9a-fA-F]{64}$/.test(ref)
    ? await rpc(chain.rpc, 'eth_getBlockByHash', [ref, true])
    : await rpc(chain.rpc, 'eth_getBlockByNumber', [/^\d+$/.test(ref) ? `0x${BigInt(ref).toString(16)}` : ref, true]);
  if (!raw) throw new Error(`no block ${ref} on ${chain.name} yet`);
  const b = toBlock(raw);
  // The C-Chain's atomic txs (imports and exports of AVAX) ride in its blocks' extra data.
  const atomic = chain.kind === 'C' ? parseAtomicBatch(raw.blockExtraData) : [];
  const all = await chains();
  fill(
    ctx.view,
    h('h1', null, `Block ${int(b.number)} `, chainBadge(chain), ' ', nav(chain, b.number, await chainHeight(chain))),
    section(
      'Overview',
      facts([
        ['Number', int(b.number)],
        ['Hash', ident(b.hash, undefined, true)],
        ['Parent', b.number > 0 ? ident(b.parentHash, `/block/${chain.key}/${b.parentHash}`, true) : '—'],
        ['Time', time(b.time)],
        ['Transactions', atomic.length ? `${b.txs.length} (and ${atomic.length} atomic)` : String(b.txs.length)],
        ['Gas used', `${int(b.gasUsed)} of ${int(b.gasLimit)} (${b.gasLimit > 0n ? ((Number(b.gasUsed) / Number(b.gasLimit)) * 100).toFixed(2) : '0'} %)`],
        b.baseFee !== undefined && ['Base fee', gwei(b.baseFee)],
        ['Fee recipient', addressLink(b.miner)],
        ['Size', `${int(b.size)} bytes`],
      ]),
    ),
    section(
      'Transactions',
      table(
        ['Tx', 'From', 'To', 'Value', 'Gas price'],
        b.txs.map((tx: any) => [
          txLink(tx.hash),
          addressLink(tx.from),
          tx.to ? addressLink(tx.to) : badge('contract creation'),
          wei(hexBig(tx.value), chain.symbol),
          gwei(hexBig(tx.gasPrice)),
        ]),
        'No transactions in this block.',
      ),
    ),
    atomic.length > 0 &&
      section(
        'Atomic transactions',
        table(
          ['Tx', 'Type', 'Chain', 'Amount'],
          atomic.map((t) => {
            const other = all.find((c) => c.id === t.otherChain);
            const moved = (t.type === 'ImportTx' ? t.evm : t.utxos).reduce((n, x) => n + x.amount, 0n);
            return [txLink(t.id), badge(t.type), [t.type === 'ImportTx' ? 'from ' : 'to ', other ? chainBadge(other) : t.otherChain], navax(moved)];
          }),
        ),
      ),
  );
}

async function primaryBlock(ctx: PageCtx, chain: Chain, ref: string): Promise<void> {
  const api = chain.kind === 'P' ? 'platform' : 'avm';
  const { block } = /^\d+$/.test(ref)
    ? await rpc(chain.rpc, `${api}.getBlockByHeight`, { height: ref, encoding: 'json' })
    : await rpc(chain.rpc, `${api}.getBlock`, { blockID: ref, encoding: 'json' });
  const txs: any[] = block.txs ?? (block.tx ? [block.tx] : []);
  const height = Number(block.height);
  const id = block.id ?? (/^\d+$/.test(ref) ? undefined : ref);
  const typeOf = chain.kind === 'P' ? pTxType : xTxType;
  const avax = await avaxAssetID();
  fill(
    ctx.view,
    h('h1', null, `Block ${int(height)} `, chainBadge(chain), ' ', nav(chain, height, await chainHeight(chain))),
    section(
      'Overview',
      facts([
        ['Height', int(height)],
        id && ['ID', ident(id, undefined, true)],
        ['Parent', height > 0 ? ident(block.parentID, `/block/${chain.key}/${height - 1}`, true) : '—'],
        ['Time', block.time ? time(Number(block.time)) : '—'],
        ['Transactions', String(txs.length)],
      ]),
    ),
    section(
      'Transactions',
      table(
        ['Tx', 'Type', 'Outputs'],
        txs.map((tx) => [
          txLink(tx.id),
          badge(typeOf(tx.unsignedTx)),
          h(
            'div',
            { class: 'outputs' },
            outputsOf(tx.unsignedTx).map((o) => h('div', null, addressLink(o.address), ' ', outputAmount(o, avax))),
          ),
        ]),
        'No transactions in this block.',
      ),
    ),
  );
}
