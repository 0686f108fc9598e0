// ICM messages across the node's EVM chains (the Data API's listIcmMessages), and one message.
import { getJson } from '../api.js';
import { type Chain, chains } from '../chains.js';
import { addressLink, badge, type Child, errorBox, facts, fill, h, ident, section, table, time, txLink } from '../dom.js';
import { units } from '../format.js';
import type { PageCtx } from '../page.js';
import { chainBadge, icmLink } from '../ui.js';

export const statusBadge = (s: string) => badge(s.replace(/_/g, ' '), s === 'pending' ? 'warn' : s.startsWith('delivered') ? 'ok' : 'bad');

export function chainCell(all: Chain[], id: string): Child {
  const c = all.find((x) => x.id === id);
  return c ? chainBadge(c) : h('span', { class: 'mono', title: id }, `${id.slice(0, 8)}… (not on this node)`);
}

export async function icmPage(ctx: PageCtx): Promise<void> {
  const one = ctx.params[0];
  ctx.title(one ? `ICM message ${one}` : 'ICM messages');
  const list = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  fill(ctx.view, h('h1', null, one ? 'ICM message' : 'ICM messages'), list);
  // Undefined until the first answer is drawn (an empty list's key is '' too).
  let last: string | undefined;
  ctx.live(async () => {
    try {
      const [page, all] = await Promise.all([getJson('/v1/icm/messages?pageSize=100'), chains()]);
      const messages: any[] = page.messages;
      const key = messages.map((m) => `${m.messageId}:${m.status}`).join(',');
      if (key === last) return;
      last = key;
      if (one) {
        const m = messages.find((x) => x.messageId.toLowerCase() === one.toLowerCase());
        if (!m) {
          fill(list, errorBox(`no ICM message ${one} among the newest 100`));
          return;
        }
        fill(
          list,
          section(
            'Overview',
            facts([
              ['Message ID', ident(m.messageId, undefined, true)],
              ['Status', statusBadge(m.status)],
              ['From', [chainCell(all, m.sourceBlockchainId), ' ', addressLink(m.from)]],
              ['To', [chainCell(all, m.destinationBlockchainId), ' ', addressLink(m.to)]],
              ['Nonce', String(m.messageNonce)],
              ['Messenger', addressLink(m.icmContractAddress, true)],
              ['Payload', h('span', { class: 'mono' }, `${m.data.length > 66 ? `${m.data.slice(0, 66)}…` : m.data} (${(m.data.length - 2) / 2} bytes)`)],
              m.sourceTransaction && ['Sent in', [txLink(m.sourceTransaction.txHash), ' · ', time(m.sourceTransaction.timestamp)]],
              m.destinationTransaction && ['Delivered in', [txLink(m.destinationTransaction.txHash), ' · ', time(m.destinationTransaction.timestamp)]],
              m.rewardDetails &&
                BigInt(m.rewardDetails.value) > 0n && [
                  'Fee',
                  `${units(BigInt(m.rewardDetails.value), Number(m.rewardDetails.decimals ?? 18))} ${m.rewardDetails.symbol}`,
                ],
            ]),
          ),
        );
        return;
      }
      fill(
        list,
        section(
          `Newest ${messages.length} messages`,
          table(
            ['Message', 'Status', 'From', 'To', 'Sent', 'Delivered'],
            messages.map((m) => [
              icmLink(m.messageId),
              statusBadge(m.status),
              chainCell(all, m.sourceBlockchainId),
              chainCell(all, m.destinationBlockchainId),
              m.sourceTransaction ? [txLink(m.sourceTransaction.txHash), ' ', time(m.sourceTransaction.timestamp)] : '—',
              m.destinationTransaction ? [txLink(m.destinationTransaction.txHash), ' ', time(m.destinationTransaction.timestamp)] : '—',
            ]),
            'No ICM messages yet.',
          ),
        ),
      );
    } catch (err) {
      fill(list, errorBox(err));
    }
  });
}
