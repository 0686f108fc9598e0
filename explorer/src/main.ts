// The explorer: a header with the search box and the theme switch, and a router over
// location.pathname (the URL is the state; links move with history.pushState, no reload).
import { BASE } from './api.js';
import { errorBox, fill, h, link } from './dom.js';
import type { PageCtx } from './page.js';
import { addressPage } from './pages/address.js';
import { blockPage } from './pages/block.js';
import { chainPage } from './pages/chain.js';
import { homePage } from './pages/home.js';
import { icmPage } from './pages/icm.js';
import { searchPage } from './pages/search.js';
import { subnetPage, subnetsPage } from './pages/subnets.js';
import { txPage } from './pages/tx.js';

type Page = (ctx: PageCtx) => void | Promise<void>;

const ROUTES: Array<[RegExp, Page]> = [
  [/^\/?(index\.html)?$/, homePage],
  [/^\/chain\/([^/]+)\/?$/, chainPage],
  [/^\/block\/([^/]+)\/([^/]+)\/?$/, blockPage],
  [/^\/tx\/([^/]+)\/?$/, txPage],
  [/^\/address\/([^/]+)\/?$/, addressPage],
  [/^\/subnets\/?$/, subnetsPage],
  [/^\/subnet\/([^/]+)\/?$/, subnetPage],
  [/^\/icm\/?$/, icmPage],
  [/^\/icm\/([^/]+)\/?$/, icmPage],
  [/^\/search\/?$/, searchPage],
];

const POLL_MS = 2000;
let generation = 0;

const THEME_KEY = 'explorer-theme';
function applyTheme(theme: string | null): void {
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function header(): HTMLElement {
  const input = h('input', {
    type: 'search',
    name: 'q',
    placeholder: 'Tx hash or ID, address, block number, chain…  ( / )',
    'aria-label': 'Search',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const form = h('form', { class: 'search', role: 'search' }, input, h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = input.value.trim();
    if (q !== '') navigate(`/search?q=${encodeURIComponent(q)}`);
    input.value = '';
    input.blur();
  });
  const toggle = h('button', { type: 'button', class: 'theme', title: 'Light or dark', 'aria-label': 'Switch light and dark' }, '◐');
  toggle.addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === 'dark'
      : matchMedia('(prefers-color-scheme: dark)').matches;
    const next = dark ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, next);
    applyTheme(next);
  });
  return h(
    'header',
    { class: 'top' },
    link('/', h('span', { class: 'logo' }, '▲'), h('span', { class: 'brand' }, 'Avalanche Emulator'), h('span', { class: 'muted' }, ' explorer')),
    h('nav', null, link('/chain/P', 'P-Chain'), link('/chain/X', 'X-Chain'), link('/chain/C', 'C-Chain'), link('/subnets', 'L1s'), link('/icm', 'ICM')),
    form,
    toggle,
  );
}

const view = h('main', { id: 'view' });

function render(): void {
  const gen = ++generation;
  const rel = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  const path = decodeURIComponent(rel);
  const query = new URLSearchParams(location.search);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('header nav a'))
    a.classList.toggle('active', rel.startsWith(new URL(a.href).pathname.slice(BASE.length)));
  const ctx: PageCtx = {
    view,
    params: [],
    query,
    live(fn) {
      const tick = async () => {
        if (gen !== generation) return;
        try {
          // A page in a background tab asks nothing; it catches up when shown again.
          if (!document.hidden) await fn();
        } finally {
          if (gen === generation) setTimeout(tick, POLL_MS);
        }
      };
      void tick();
    },
    title(text) {
      if (gen === generation) document.title = `${text} · Avalanche Emulator`;
    },
    redirect(p) {
      if (gen !== generation) return;
      history.replaceState(null, '', BASE + p);
      render();
    },
  };
  // Each render fills a fresh container, so a slow page never writes over the next one.
  const own = h('div', { class: 'page' });
  ctx.view = own;
  fill(view, own);
  for (const [re, page] of ROUTES) {
    const m = re.exec(path);
    if (!m) continue;
    ctx.params = m.slice(1);
    Promise.resolve(page(ctx)).catch((err) => fill(own, errorBox(err)));
    return;
  }
  fill(own, h('h1', null, 'Not found'), h('p', null, `No page at ${path}. `, link('/', 'Home')));
}

export function navigate(path: string): void {
  history.pushState(null, '', BASE + path);
  render();
  window.scrollTo(0, 0);
}

document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element).closest?.('a[data-nav]') as HTMLAnchorElement | null;
  if (!a) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname.slice(BASE.length) + url.search);
});
window.addEventListener('popstate', render);
// "/" focuses the search box, as on most explorers.
document.addEventListener('keydown', (e) => {
  if (e.key !== '/' || e.metaKey || e.ctrlKey || e.altKey) return;
  const target = e.target as HTMLElement;
  if (target.closest('input, textarea, [contenteditable]')) return;
  e.preventDefault();
  document.querySelector<HTMLInputElement>('form.search input')?.focus();
});

applyTheme(localStorage.getItem(THEME_KEY));
document.body.replaceChildren(
  header(),
  view,
  h('footer', null, 'Everything here comes from this node: the Data API (/v1), the Metrics API (/v2) and the chains’ JSON-RPC.'),
);
render();
