// The home page: every chain with its height, last block and recent activity, then the newest
// blocks and txs across chains, polled every 2 s.
import { type Chain, chains, isEvm } from '../chains.js';
import { addressLink, amount, badge, type Child, errorBox, fill, h, ident, link, section, table, time, txLink } from '../dom.js';
import { fullBlock, latestBlocks } from '../evm.js';
import { hexBig, hexNum, int } from '../format.js';
import { rpc, tryRpc } from '../api.js';
import type { PageCtx } from '../page.js';
import { avaxAssetID, avaxMoved, outputsOf, primaryBlocks, primaryTx, pTxType, xTxType } from '../primary.js';
import { chainBadge, sparkline } from '../ui.js';

interface BlockRow {
  chain: Chain;
  height: number;
  id: string;
  time: number;
  txCount: number;
}

interface TxRow {
  chain: Chain;
  id: string;
  time: number;
  what: Child;
  value: Child;
}

export interface Summary {
  chain: Chain;
  /** The newest first. */
  blocks: BlockRow[];
  txs: TxRow[];
}

/** A chain's height: its last accepted block's number. */
export async function height(chain: Chain): Promise<number> {
  if (isEvm(chain)) return hexNum(await rpc(chain.rpc, 'eth_blockNumber', []));
  return Number((await rpc(chain.rpc, chain.kind === 'P' ? 'platform.getHeight' : 'avm.getHeight', {})).height);
}

/** A chain's newest `count` blocks and the txs of the newest of them, at least `rows` txs where there are as many. */
export async function summarize(chain: Chain, count = 20, rows = 15): Promise<Summary> {
  if (isEvm(chain)) {
    // The newest blocks with their tx hashes only; full txs for the newest ones that fill the
    // rows shown, each block asked for once (a busy chain's 20 full blocks are megabytes a poll).
    const blocks = await latestBlocks(chain, count, false);
    const txs: TxRow[] = [];
    for (const light of blocks) {
      if (txs.length >= rows) break;
      if (light.txs.length === 0) continue;
      const b = await fullBlock(chain, light.hash);
      for (const tx of b?.txs ?? []) {
        txs.push({
          chain,
          id: tx.hash,
          time: light.time,
          what: [addressLink(tx.from), ' → ', tx.to ? addressLink(tx.to) : badge('contract creation')],
          value: amount(hexBig(tx.value), 18, chain.symbol),
        });
      }
    }
    return {
      chain,
      blocks: blocks.map((b) => ({ chain, height: b.number, id: b.hash, time: b.time, txCount: b.txs.length })),
      txs,
    };
  }
  const kind = chain.kind as 'P' | 'X';
  const blocks = await primaryBlocks(kind, count);
  const txs: TxRow[] = [];
  const avax = await avaxAssetID();
  for (const b of blocks.slice(0, 10)) {
    for (const id of b.txs) {
      const found = await primaryTx(id);
      const u = found?.tx?.unsignedTx;
      const moved = avaxMoved(outputsOf(u), avax);
      txs.push({ chain, id, time: b.time, what: badge(kind === 'P' ? pTxType(u) : xTxType(u)), value: moved > 0n ? amount(moved, 9, 'AVAX') : '' });
    }
  }
  return {
    chain,
    blocks: blocks.map((b) => ({ chain, height: b.height, id: b.id, time: b.time, txCount: b.txs.length })),
    txs,
  };
}

function chainCard(s: Summary): HTMLElement {
  const txCount = s.blocks.reduce((n, b) => n + b.txCount, 0);
  const { height = 0, time: last = 0 } = s.blocks[0] ?? {};
  return h(
    'article',
    { class: `chain-card k-${s.chain.kind}`, 'data-chain': s.chain.key },
    h('header', null, link(`/chain/${s.chain.key}`, h('strong', null, s.chain.name)), chainBadge(s.chain)),
    h(
      'div',
      { class: 'chain-stats' },
      h('div', null, h('span', { class: 'label' }, 'Height'), link(`/block/${s.chain.key}/${height}`, h('span', { class: 'big' }, int(height)))),
      h('div', null, h('span', { class: 'label' }, 'Last block'), height === 0 ? h('span', { class: 'muted' }, 'genesis only') : time(last)),
    ),
    sparkline(s.blocks.map((b) => b.txCount).reverse(), `Txs in the last ${s.blocks.length} blocks: ${txCount}`),
    h('div', { class: 'muted small' }, `${txCount} txs in the last ${s.blocks.length} blocks`),
  );
}

/** A chain that did not answer (stalled, or its API is off): named, with the error. */
function failedCard(chain: Chain, err: unknown): HTMLElement {
  return h(
    'article',
    { class: `chain-card k-${chain.kind}`, 'data-chain': chain.key },
    h('header', null, link(`/chain/${chain.key}`, h('strong', null, chain.name)), chainBadge(chain)),
    h('p', { class: 'bad small' }, `Not answering: ${err instanceof Error ? err.message : String(err)}`),
  );
}

/** Highlights the rows (in `keys` order) that were not there on the previous render; the first render highlights none. */
function markFresh(el: HTMLElement, keys: string[], seen: Set<string>): void {
  const first = seen.size === 0;
  const rows = el.querySelectorAll('tbody tr');
  keys.forEach((k, i) => {
    if (!first && !seen.has(k)) rows[i]?.classList.add('fresh');
    seen.add(k);
  });
}

export function homePage(ctx: PageCtx): void {
  ctx.title('Explorer');
  const network = h('span', null);
  void Promise.all([tryRpc('/ext/info', 'info.getNetworkName'), tryRpc('/ext/info', 'info.getNodeID'), tryRpc('/ext/info', 'info.getNodeVersion')]).then(
    ([name, node, version]) => {
      strip.prepend(
        h('span', null, `${name?.networkName ?? 'network'} network`),
        ' · ',
        node?.nodeID ? ident(node.nodeID) : '',
        ' · ',
        h('span', null, version?.version ?? ''),
        ' · ',
      );
    },
  );
  const strip = h('p', { class: 'strip muted small' }, network);
  const cards = h('div', { class: 'chain-grid' }, h('p', { class: 'muted' }, 'Loading chains…'));
  const blocks = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  const txs = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  fill(
    ctx.view,
    strip,
    h('div', { class: 'chain-grid-wrap' }, cards),
    h('div', { class: 'two-col' }, section('Latest blocks', blocks), section('Latest transactions', txs)),
  );
  let last = '';
  const seen = { blocks: new Set<string>(), txs: new Set<string>() };
  const refresh = async () => {
    let results: Array<Summary | { chain: Chain; err: unknown }>;
    try {
      const list = await chains();
      // The heights first (one call a chain): nothing more is asked while no chain moved.
      const key = (await Promise.all(list.map(async (c) => `${c.id}:${await height(c).catch(() => -1)}`))).join(',');
      if (key === last) return;
      last = key;
      results = await Promise.all(list.map((c) => summarize(c).catch((err: unknown) => ({ chain: c, err }))));
    } catch (err) {
      fill(cards, errorBox(err));
      return;
    }
    const summaries = results.filter((r): r is Summary => !('err' in r));
    fill(
      cards,
      results.map((r) => ('err' in r ? failedCard(r.chain, r.err) : chainCard(r))),
    );
    const allBlocks = summaries
      .flatMap((s) => s.blocks)
      .sort((a, b) => b.time - a.time || b.height - a.height)
      .slice(0, 15);
    fill(
      blocks,
      table(
        ['Chain', 'Block', 'Age', 'Txs', 'ID / hash'],
        allBlocks.map((b) => [
          chainBadge(b.chain),
          link(`/block/${b.chain.key}/${b.height}`, int(b.height)),
          time(b.time),
          b.txCount,
          b.id ? ident(b.id, `/block/${b.chain.key}/${b.id}`) : '—',
        ]),
      ),
    );
    markFresh(
      blocks,
      allBlocks.map((b) => `${b.chain.id}:${b.height}`),
      seen.blocks,
    );
    const allTxs = summaries
      .flatMap((s) => s.txs)
      .sort((a, b) => b.time - a.time)
      .slice(0, 15);
    fill(
      txs,
      table(
        ['Chain', 'Tx', 'Age', 'From → to / type', 'Value'],
        allTxs.map((t) => [chainBadge(t.chain), txLink(t.id), time(t.time), t.what, t.value]),
      ),
    );
    markFresh(
      txs,
      allTxs.map((t) => t.id),
      seen.txs,
    );
    fill(
      network,
      h(
        'span',
        null,
        `${summaries.filter((x) => x.chain.kind === 'L1').length} L1 chains · `,
        link('/subnets', 'subnets and L1s'),
        ' · ',
        link('/icm', 'ICM messages'),
      ),
    );
  };
  ctx.live(refresh);
}
