// A chain: what it is, its newest blocks and txs (live), the P-Chain's validators, and for an EVM
// chain the Metrics API's txCount, gasUsed and activeAddresses by hour or by day.
import { getJson, ORIGIN, rpc } from '../api.js';
import { type Chain, chains, findChain, isEvm } from '../chains.js';
import { chainCell, statusBadge } from './icm.js';
import { errorBox, facts, fill, h, ident, link, section, table, time, txLink } from '../dom.js';
import { int } from '../format.js';
import type { PageCtx } from '../page.js';
import { barChart, chainBadge, icmLink } from '../ui.js';
import { height, summarize } from './home.js';
import { isL1, validatorsTable } from './subnets.js';

export async function chainPage(ctx: PageCtx): Promise<void> {
  const chain = await findChain(ctx.params[0]!);
  if (!chain) {
    fill(ctx.view, errorBox(`no chain ${ctx.params[0]} on this node`));
    return;
  }
  ctx.title(chain.name);
  const head = h('div', null);
  const blocks = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  const txs = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  const [metricsEl, validatorsEl, icmEl] = [h('div', null), h('div', null), h('div', null)];
  fill(
    ctx.view,
    h('h1', null, chain.name, ' ', chainBadge(chain)),
    head,
    metricsEl,
    h('div', { class: 'two-col' }, section('Blocks', blocks), section('Transactions', txs)),
    validatorsEl,
    icmEl,
  );
  fill(
    head,
    section(
      'Overview',
      facts([
        ['Blockchain ID', ident(chain.id, undefined, true)],
        ['Alias', chain.key],
        ['Subnet', chain.kind === 'P' || chain.kind === 'X' || chain.kind === 'C' ? 'Primary Network' : link(`/subnet/${chain.subnetID}`, chain.subnetID)],
        ['VM', chain.vmID],
        isEvm(chain) && ['EVM chain ID', String(chain.evmChainId)],
        ['Native token', chain.symbol],
        ['Endpoint', ident(`${ORIGIN}${chain.rpc}`, undefined, true)],
      ]),
    ),
  );
  if (chain.kind === 'P') void pChainExtras(validatorsEl);
  if (isEvm(chain)) void metrics(metricsEl, chain, ctx);
  if (chain.kind === 'L1') void l1Validators(validatorsEl, chain);
  if (isEvm(chain)) void icmOf(icmEl, chain);
  let last = -1;
  ctx.live(async () => {
    try {
      const now = await height(chain);
      if (now === last) return;
      const s = await summarize(chain, 25, 25);
      last = now;
      fill(
        blocks,
        table(
          ['Block', 'Age', 'Txs', 'ID / hash'],
          s.blocks.map((b) => [
            link(`/block/${chain.key}/${b.height}`, int(b.height)),
            time(b.time),
            b.txCount,
            b.id ? ident(b.id, `/block/${chain.key}/${b.id}`) : '—',
          ]),
        ),
      );
      fill(
        txs,
        table(
          ['Tx', 'Age', 'From → to / type', 'Value'],
          s.txs.slice(0, 25).map((t) => [txLink(t.id), time(t.time), t.what, t.value]),
        ),
      );
    } catch (err) {
      fill(blocks, errorBox(err));
    }
  });
}

async function pChainExtras(el: HTMLElement): Promise<void> {
  try {
    const { validators } = await rpc('/ext/bc/P', 'platform.getCurrentValidators', {});
    fill(el, section(['Primary Network validators · ', link('/subnets', 'Subnets and L1s →')], validatorsTable(validators, false)));
  } catch (err) {
    fill(el, errorBox(err));
  }
}

/** An L1's validators: its subnet's, as the P-Chain holds them. */
async function l1Validators(el: HTMLElement, chain: Chain): Promise<void> {
  try {
    const [{ validators }, subnet] = await Promise.all([
      rpc('/ext/bc/P', 'platform.getCurrentValidators', { subnetID: chain.subnetID }),
      rpc('/ext/bc/P', 'platform.getSubnet', { subnetID: chain.subnetID }),
    ]);
    const l1 = isL1(subnet);
    fill(el, section([l1 ? 'L1 validators · ' : 'Subnet validators · ', link(`/subnet/${chain.subnetID}`, 'its subnet →')], validatorsTable(validators, l1)));
  } catch (err) {
    fill(el, errorBox(err));
  }
}

/** The newest ICM messages this chain sent or received. */
async function icmOf(el: HTMLElement, chain: Chain): Promise<void> {
  try {
    const [page, all] = await Promise.all([getJson(`/v1/icm/messages?blockchainId=${chain.id}&pageSize=10`), chains()]);
    const messages: any[] = page.messages;
    if (messages.length === 0) return;
    fill(
      el,
      section(
        ['ICM messages · ', link('/icm', 'all →')],
        table(
          ['Message', 'Status', 'From', 'To'],
          messages.map((m) => [icmLink(m.messageId), statusBadge(m.status), chainCell(all, m.sourceBlockchainId), chainCell(all, m.destinationBlockchainId)]),
        ),
      ),
    );
  } catch {
    // The Data API is off: no messages to show.
  }
}

const METRICS = [
  ['txCount', 'Transactions'],
  ['gasUsed', 'Gas used'],
  ['activeAddresses', 'Active addresses'],
] as const;

async function metrics(el: HTMLElement, chain: Chain, ctx: PageCtx): Promise<void> {
  const interval = ctx.query.get('interval') === 'day' ? 'day' : 'hour';
  const fmt = (t: number) => {
    const d = new Date(t * 1000).toISOString();
    return interval === 'day' ? d.slice(0, 10) : `${d.slice(5, 10)} ${d.slice(11, 16)}`;
  };
  const switcher = h(
    'span',
    { class: 'switch' },
    link(`/chain/${chain.key}?interval=hour`, 'by hour'),
    ' · ',
    link(`/chain/${chain.key}?interval=day`, 'by day'),
  );
  for (const a of switcher.querySelectorAll('a')) if (a.href.endsWith(`=${interval}`)) a.classList.add('active');
  const charts = h('div', { class: 'charts' }, h('p', { class: 'muted' }, 'Loading metrics…'));
  fill(el, section(['Metrics ', switcher], charts));
  try {
    const slots = interval === 'day' ? 30 : 48;
    const step = interval === 'day' ? 86_400 : 3600;
    const sparse = await Promise.all(
      METRICS.map(async ([metric]) => {
        const page = await getJson(`/v2/chains/${chain.evmChainId}/metrics/${metric}?timeInterval=${interval}&pageSize=${slots}`);
        return new Map((page.results as Array<{ timestamp: number; value: number }>).map((r) => [r.timestamp, Number(r.value)]));
      }),
    );
    // The series are sparse (no point for a bucket without blocks): laid on a timeline ending at the
    // newest bucket of any of them (block time, which --dev's clock may have moved ahead of now).
    const newest = Math.max(0, ...sparse.flatMap((m) => [...m.keys()]));
    const series = sparse.map((m) =>
      newest === 0 ? [] : Array.from({ length: slots }, (_, i) => newest - (slots - 1 - i) * step).map((t) => ({ t, v: m.get(t) ?? 0 })),
    );
    fill(
      charts,
      METRICS.map(([, title], i) => barChart(series[i]!, `${title} by ${interval}`, fmt)),
    );
  } catch (err) {
    fill(charts, errorBox(err));
  }
}
