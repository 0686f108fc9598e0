// A few helpers over the DOM: elements, links inside the explorer, copy buttons, live times.
import { BASE } from './api.js';
import { ago, exactTime, short, units } from './format.js';

export type Child = Node | string | number | bigint | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A link to a page of the explorer (`path` starts with '/'); the router follows it without a reload. */
export const link = (path: string, ...children: Child[]): HTMLAnchorElement => h('a', { href: BASE + path, 'data-nav': true }, ...children);

const COPY_ICON =
  '<svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true"><rect x="5" y="5" width="9" height="9" rx="2" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M11 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h.5" fill="none" stroke="currentColor" stroke-width="1.5"/></svg>';
const DONE_ICON =
  '<svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true"><path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="2"/></svg>';

export function copyButton(text: string): HTMLButtonElement {
  const b = h('button', { class: 'copy', type: 'button', title: `Copy ${text}`, 'aria-label': 'Copy' });
  b.innerHTML = COPY_ICON;
  b.addEventListener('click', (e) => {
    e.preventDefault();
    e.stopPropagation();
    const done = () => {
      b.innerHTML = DONE_ICON;
      b.classList.add('copied');
      setTimeout(() => {
        b.innerHTML = COPY_ICON;
        b.classList.remove('copied');
      }, 1200);
    };
    // The clipboard API needs a secure context (localhost is one; a LAN address is not).
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
    else fallbackCopy(text, done);
  });
  return b;
}

function fallbackCopy(text: string, done: () => void): void {
  const area = h('textarea', { class: 'offscreen' }, text);
  document.body.appendChild(area);
  area.select();
  try {
    document.execCommand('copy');
    done();
  } catch {
    // Nothing more to try.
  }
  area.remove();
}

/** An address or ID: shortened (the whole on hover), linked to its page, with a copy button. */
export function ident(value: string, path?: string, full = false): HTMLSpanElement {
  const text = full ? value : short(value);
  const inner = path ? link(path, text) : h('span', null, text);
  inner.title = value;
  return h('span', { class: 'ident mono' }, inner, copyButton(value));
}

export const addressLink = (a: string, full = false) => ident(a, `/address/${a}`, full);
export const txLink = (id: string, full = false) => ident(id, `/tx/${id}`, full);

/** "12 s ago", kept current; the exact time on hover. */
export function time(seconds: number | undefined): HTMLElement {
  if (!seconds) return h('span', { class: 'muted' }, '—');
  return h('time', { 'data-ts': seconds, title: exactTime(seconds), datetime: new Date(seconds * 1000).toISOString() }, ago(seconds));
}

setInterval(() => {
  for (const el of document.querySelectorAll<HTMLElement>('time[data-ts]')) el.textContent = ago(Number(el.dataset.ts));
}, 1000);

export function table(headers: string[], rows: Child[][], empty = 'Nothing yet.'): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted empty' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      null,
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          headers.map((t) => h('th', null, t)),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((r) =>
          h(
            'tr',
            null,
            r.map((c) => h('td', null, c)),
          ),
        ),
      ),
    ),
  );
}

/** Label/value pairs. */
export function facts(rows: Array<[string, Child] | false | undefined>): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    rows.filter((r): r is [string, Child] => !!r).map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
  );
}

/** An amount in a list: at most 6 decimals shown, the exact amount on hover. */
export function amount(value: bigint, decimals: number, symbol: string): HTMLElement {
  const exact = `${units(value, decimals)} ${symbol}`;
  const unit = 10n ** BigInt(Math.max(0, decimals - 6));
  const shown = value === 0n || value % unit === 0n ? exact : value < unit ? `<0.000001 ${symbol}` : `≈${units((value / unit) * unit, decimals)} ${symbol}`;
  return h('span', { class: 'amount', title: exact }, shown);
}

export const section = (title: Child, ...content: Child[]) => h('section', { class: 'card' }, h('h2', null, title), ...content);

export const badge = (text: string, kind = '') => h('span', { class: `badge ${kind}` }, text);

export const errorBox = (err: unknown) =>
  h('div', { class: 'card error' }, h('strong', null, 'Could not load: '), err instanceof Error ? err.message : String(err));

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}
