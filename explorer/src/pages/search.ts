// One box for everything: a tx hash or ID, an address, a block number or hash, a chain alias or ID,
// a subnet ID or an ICM message ID. One match opens its page; several are listed.
import { getJson, tryRpc } from '../api.js';
import { chains, findChain, isEvm } from '../chains.js';
import { type Child, errorBox, fill, h, link, section } from '../dom.js';
import type { PageCtx } from '../page.js';
import { atomicTx, primaryTx } from '../primary.js';
import { chainBadge } from '../ui.js';
import { height } from './home.js';
import { findEvmTx } from './tx.js';

interface Hit {
  path: string;
  label: Child;
}

export async function resolve(q: string): Promise<Hit[]> {
  const hits: Hit[] = [];
  const all = await chains();
  if (/^0x[0-9a-fA-F]{40}$/.test(q) || /^[XPC]-\w+1[02-9ac-hj-np-z]{38}$/.test(q)) return [{ path: `/address/${q}`, label: `Address ${q}` }];
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
    const tx = await findEvmTx(q);
    if (tx) hits.push({ path: `/tx/${q}`, label: ['Transaction on ', chainBadge(tx.chain)] });
    for (const c of all.filter(isEvm)) {
      if (await tryRpc(c.rpc, 'eth_getBlockByHash', [q, false])) hits.push({ path: `/block/${c.key}/${q}`, label: ['Block on ', chainBadge(c)] });
    }
    if (hits.length === 0) {
      // An ICM message ID, if the Data API lists it among the newest messages.
      const page = await getJson('/v1/icm/messages?pageSize=100').catch(() => ({ messages: [] }));
      if ((page.messages as any[]).some((m) => m.messageId.toLowerCase() === q.toLowerCase())) hits.push({ path: `/icm/${q}`, label: `ICM message ${q}` });
    }
    return hits;
  }
  if (/^\d+$/.test(q)) {
    for (const c of all) if (String(c.evmChainId) === q) hits.push({ path: `/chain/${c.key}`, label: ['Chain ', chainBadge(c), ` (EVM chain ID ${q})`] });
    for (const c of all) {
      // A chain that does not answer has no block to offer (it fails no search).
      const at = await height(c).catch(() => -1);
      if (Number(q) <= at) hits.push({ path: `/block/${c.key}/${q}`, label: ['Block ', q, ' on ', chainBadge(c)] });
    }
    return hits;
  }
  const chain = await findChain(q);
  if (chain) return [{ path: `/chain/${chain.key}`, label: ['Chain ', chainBadge(chain)] }];
  if (/^[1-9A-HJ-NP-Za-km-z]{40,60}$/.test(q)) {
    const tx = await primaryTx(q);
    if (tx) hits.push({ path: `/tx/${q}`, label: `${tx.chain}-Chain transaction` });
    else if (await atomicTx(q)) hits.push({ path: `/tx/${q}`, label: 'C-Chain atomic transaction' });
    if (await tryRpc('/ext/bc/P', 'platform.getSubnet', { subnetID: q })) hits.push({ path: `/subnet/${q}`, label: 'Subnet' });
    for (const c of all.filter((x) => !isEvm(x))) {
      if (await tryRpc(c.rpc, c.kind === 'P' ? 'platform.getBlock' : 'avm.getBlock', { blockID: q, encoding: 'json' }))
        hits.push({ path: `/block/${c.key}/${q}`, label: ['Block on ', chainBadge(c)] });
    }
  }
  return hits;
}

export async function searchPage(ctx: PageCtx): Promise<void> {
  const q = (ctx.query.get('q') ?? '').trim();
  ctx.title(`Search ${q}`);
  fill(ctx.view, h('p', { class: 'muted' }, `Searching for ${q}…`));
  try {
    const hits = q === '' ? [] : await resolve(q);
    if (hits.length === 1) {
      ctx.redirect(hits[0]!.path);
      return;
    }
    fill(
      ctx.view,
      h('h1', null, 'Search'),
      section(
        hits.length ? `${hits.length} matches for ${q}` : `Nothing on this node matches ${q}`,
        hits.length
          ? h(
              'ul',
              { class: 'hits' },
              hits.map((hit) => h('li', null, link(hit.path, hit.label))),
            )
          : h('p', { class: 'muted' }, 'Try a tx hash or ID, an address (0x…, X-…, P-…), a block number, a chain (C, X, P, an L1 name) or a subnet ID.'),
      ),
    );
  } catch (err) {
    fill(ctx.view, errorBox(err));
  }
}
