// The explorer in a real headless Chromium (puppeteer-core with @sparticuz/chromium, nothing else
// installed), over a --dev node with real activity (test/support/explorer.ts): an X-Chain transfer,
// AVAX exported from X and imported on C, a subnet converted to an L1, tokens, forwarded value and a
// failed tx on the C-Chain and an L1, and ICM messages between them. Each page is opened by its link
// and its key facts read from the rendered text; no page may log a console error, lose a request or
// ask anything of a host other than the node. Screenshots go to test-artifacts/explorer/. Reads
// dist/explorer: run `npm run build` first (npm test does).
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import { JsonRpcProvider, Wallet } from 'ethers';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerHandler } from '../src/server/explorer.js';
import { call, startTestNode, type TestNode } from './helpers.js';
import { ALICE, EWOQ, EWOQ_KEY } from './support/data.js';
import { type ExplorerActivity, makeExplorerActivity } from './support/explorer.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts', 'explorer');

// Generous limits: the whole suite runs files in parallel on small machines, and a page waits on the node.
describe('the explorer in a browser', { timeout: 90_000 }, () => {
  let node: TestNode;
  let a: ExplorerActivity;
  let browser: Browser;
  let page: Page;
  /** What went wrong in the browser since the last check: console errors, page errors, failed requests. */
  let problems: string[] = [];
  /** Ports of the other nodes a test opens pages on. */
  const others = new Set<string>();

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const [started, launched] = await Promise.all([
      startTestNode({ dbType: 'memdb', l1: [FIXTURE], dev: true }),
      puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true }),
    ]);
    node = started;
    browser = launched;
    a = await makeExplorerActivity(node.uri, FIXTURE);
    page = await browser.newPage();
    await page.setViewport({ width: 1360, height: 900 });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()} ${m.location().url ?? ''}`);
    });
    page.on('pageerror', (e) => problems.push(`page: ${(e as Error).message}`));
    page.on('requestfailed', (r) => problems.push(`request: ${r.url()} ${r.failure()?.errorText}`));
    // Offline: every request goes to the node itself (under whichever of its host names was used).
    const port = new URL(node.uri).port;
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.protocol === 'data:') return;
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) || (url.port !== port && !others.has(url.port))) problems.push(`outside the node: ${r.url()}`);
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await node?.stop();
  });

  const text = () => page.evaluate(() => (globalThis as any).document.body.innerText as string);

  /** Opens `path` (under /explorer), waits until every text is on the page, screenshots it. */
  async function open(path: string, expected: string[], shot: string): Promise<string> {
    problems = [];
    await page.goto(`${node.uri}/explorer${path}`, { waitUntil: 'domcontentloaded' });
    return shown(expected, shot);
  }

  async function shown(expected: string[], shot: string): Promise<string> {
    try {
      await page.waitForFunction((want: string[]) => want.every((t) => (globalThis as any).document.body.innerText.includes(t)), { timeout: 20_000 }, expected);
    } finally {
      await page.screenshot({ path: join(ARTIFACTS, `${shot}.png`), fullPage: true });
    }
    const body = await text();
    expect(problems).toEqual([]);
    return body;
  }

  it('serves its files, and any path under /explorer/ gets the page', async () => {
    const index = await fetch(`${node.uri}/explorer/tx/0x12`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await index.text();
    expect(html).toContain('/explorer/app.js');
    // Nothing from outside the node.
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${node.uri}/explorer/app.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${node.uri}/explorer/app.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const bare = await fetch(`${node.uri}/explorer`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(new URL(bare.headers.get('location')!, `${node.uri}/explorer`).pathname).toBe('/explorer/');
    expect((await fetch(`${node.uri}/explorer/`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${node.uri}/explorer/app.js`, { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBe((await (await fetch(`${node.uri}/explorer/app.js`)).arrayBuffer()).byteLength);
  });

  it('home: every chain with its height, and the newest blocks and txs; live without a reload', async () => {
    const body = await open('/', ['P-Chain', 'X-Chain', 'C-Chain', 'myl1', 'convl1', 'Latest blocks', 'Latest transactions'], 'home');
    expect(body).toMatch(/s ago/);
    const height = () => page.$eval('[data-chain="C"] .big', (el) => Number(el.textContent!.replace(/,/g, '')));
    const before = await height();
    expect(before).toBeGreaterThan(5);
    await page.evaluate(() => {
      (globalThis as any).marker = 1;
    });
    const provider = new JsonRpcProvider(`${node.uri}/ext/bc/C/rpc`, 43112, { staticNetwork: true });
    await (await new Wallet(EWOQ_KEY, provider).sendTransaction({ to: ALICE, value: 1_000_000_000_000_000n })).wait();
    provider.destroy();
    await page.waitForFunction(
      (h: number) => Number((globalThis as any).document.querySelector('[data-chain="C"] .big')?.textContent?.replace(/,/g, '')) === h + 1,
      { timeout: 20_000 },
      before,
    );
    expect(await page.evaluate(() => (globalThis as any).marker)).toBe(1);
    await shown(['0.001 AVAX'], 'home-live');
    // "12 s ago", with the exact time on hover; IDs shortened, with the whole on hover and a copy button.
    expect(await page.$eval('time[data-ts]', (el: any) => el.title as string)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(/);
    const id = await page.$eval('.ident', (el: any) => ({
      shown: el.innerText as string,
      whole: el.querySelector('[title]').title as string,
      copy: !!el.querySelector('button.copy'),
    }));
    expect(id.shown).toContain('…');
    expect(id.whole.startsWith(id.shown.split('…')[0])).toBe(true);
    expect(id.copy).toBe(true);
  });

  it('the C-Chain: blocks, txs and the Metrics API charts by hour and by day', async () => {
    await open('/chain/C', ['C-Chain', '43112', 'Blocks', 'Transactions by hour', 'Gas used by hour', 'Active addresses by hour'], 'chain-c');
    await page.click('a[href$="?interval=day"]');
    await shown(['Transactions by day', 'Active addresses by day'], 'chain-c-day');
    expect(page.url()).toBe(`${node.uri}/explorer/chain/C?interval=day`);
  });

  it('the P-Chain: its validators; subnets and L1s with theirs', async () => {
    await open('/chain/P', ['Primary Network validators', 'NodeID-7Xhw2m', '2,000,000 AVAX', 'ConvertSubnetToL1Tx'], 'chain-p');
    const body = await open('/subnets', ['Subnets and L1s', a.subnetID, 'convl1', 'Conversion ID'], 'subnets');
    expect(body).toContain('1 AVAX');
    await open(`/subnet/${a.subnetID}`, [a.subnetID, 'convl1', 'Validation ID'], 'subnet');
  });

  it('blocks by number and by hash, on EVM and primary chains', async () => {
    const n = Number.parseInt((await call(`${node.uri}/ext/bc/C/rpc`, 'eth_getTransactionByHash', [a.c.txs[4]])).blockNumber, 16);
    const body = await open(`/block/C/${n}`, [`Block ${n}`, 'Gas used', 'Base fee', 'gwei', 'Transactions'], 'block-c');
    expect(body).toContain(a.c.txs[4]!.slice(0, 8));
    await open('/block/X/1', ['Block 1', 'BaseTx', '12.5 AVAX'], 'block-x');
    await open('/block/P/6', ['Block 6', 'ConvertSubnetToL1Tx'], 'block-p');
  });

  it('an ERC-20 transfer: status, parties, value, fee and the decoded log', async () => {
    const body = await open(
      `/tx/${a.c.txs[4]}`,
      ['Success', 'transfer(address,uint256)', 'ERC-20', 'Transfer', 'Test Token', '0.0000000000000001 TT', 'Fee', 'gwei'],
      'tx-erc20',
    );
    expect(body).toContain(EWOQ.toLowerCase());
  });

  it('ERC-721 and ERC-1155 transfers', async () => {
    await open(`/tx/${a.l1.txs[5]}`, ['ERC-721', 'TNFT #7', 'myl1'], 'tx-erc721');
    await open(`/tx/${a.c.txs[6]}`, ['ERC-1155', 'TransferBatch', '10 × id 1, 20 × id 2'], 'tx-erc1155');
  });

  it('a failed tx with its revert reason, and internal txs', async () => {
    await open(`/tx/${a.c.failedTx}`, ['Failed', 'forward failed', 'Internal transactions', 'reverted'], 'tx-failed');
    await open(`/tx/${a.c.forwardTx}`, ['Success', 'CALL', '0.000000000000000005 AVAX'], 'tx-internal');
  });

  it('the call tree, from debug_traceTransaction on a --dev node', async () => {
    await open(`/tx/${a.c.failedTx}`, ['Call tree', 'execution reverted: forward failed', 'gas 43'], 'tx-call-tree');
    const body = await open(`/tx/${a.c.txs[8]}`, ['Call tree', 'CREATE', a.c.child.toLowerCase().slice(0, 8)], 'tx-create');
    expect(body).toContain('Internal transactions');
  });

  it('P- and X-Chain txs: type, status, outputs', async () => {
    await open(`/tx/${a.xTransfer}`, ['BaseTx', 'Accepted', '12.5 AVAX', '0.001 AVAX'], 'tx-x');
    await open(
      `/tx/${a.conversionTx}`,
      ['ConvertSubnetToL1Tx', 'Committed', 'L1 validators', a.subnetID, 'NodeID-7Xhw2m', 'Validator balance', '1 AVAX'],
      'tx-p',
    );
    await open(`/tx/${a.convertedChainID}`, ['CreateChainTx', 'Chain name', 'convl1', 'Blockchain created'], 'tx-p-create-chain');
    await open(`/tx/${a.xExport}`, ['ExportTx', 'Accepted', 'To chain', '2 AVAX', 'exported'], 'tx-x-export');
    const body = await open(
      `/tx/${a.cImport}`,
      ['Atomic ImportTx', 'Accepted', 'C-Chain block', 'Credited on the C-Chain', a.xExport.slice(0, 8)],
      'tx-c-import',
    );
    expect(body).toContain(EWOQ.toLowerCase());
    // Its C-Chain block lists it among the block's atomic txs, under the same ID.
    const { blockHeight } = await call(`${node.uri}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', { txID: a.cImport });
    await open(`/block/C/${blockHeight}`, ['Atomic transactions', 'ImportTx', a.cImport.slice(0, 8), '1.99'], 'block-c-atomic');
  });

  it('ICM: the messages with their status, one message, and its events in the tx', async () => {
    await open('/icm', ['ICM messages', 'delivered', 'pending', 'delivered source not indexed', 'not on this node'], 'icm');
    const body = await open(`/icm/${a.icm.delivered}`, ['ICM message', 'delivered', 'Sent in', 'Delivered in'], 'icm-message');
    expect(body).toContain(a.icm.delivered);
    const sent = ((await (await fetch(`${node.uri}/v1/icm/messages?pageSize=100`)).json()) as any).messages.find((m: any) => m.messageId === a.icm.delivered);
    await open(`/tx/${sent.sourceTransaction.txHash}`, ['ICM', 'SendCrossChainMessage', 'myl1'], 'tx-icm');
    // A real one: through the messenger at 0x253b…, delivered by the node's relayer.
    const relayed = await open(`/icm/${a.relayed}`, ['ICM message', 'delivered', 'Sent in', 'Delivered in'], 'icm-relayed');
    expect(relayed).toContain(a.relayed);
  });

  it('addresses: an account on every EVM chain with its tokens, a contract, an X-Chain address', async () => {
    const body = await open(`/address/${EWOQ}`, ['Balances', 'C', 'myl1', 'MYL1', 'Test Token', 'Transactions'], 'address-evm');
    // The C-Chain balance, exactly: whole AVAX grouped by thousands, then every nonzero decimal.
    const wei = BigInt(await call(`${node.uri}/ext/bc/C/rpc`, 'eth_getBalance', [EWOQ, 'latest']));
    const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
    expect(body).toContain(`${(wei / 10n ** 18n).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''} AVAX`);
    await open(`/address/${a.c.token}`, ['Contract', 'ERC-20', 'Test Token (TT)', 'Deployer', 'bytes'], 'address-contract');
    await open(`/address/${a.bob}`, ['12.5 AVAX', a.bob, 'Unspent outputs (1)', a.xTransfer.slice(0, 8)], 'address-x');
  });

  it('one search box: a tx hash, a chain alias, an address, a block number', async () => {
    await open('/', ['Latest blocks'], 'search-start');
    const search = async (q: string) => {
      await page.$eval('input[type=search]', (el) => {
        (el as any).value = '';
      });
      await page.type('input[type=search]', q);
      await page.keyboard.press('Enter');
    };
    await search(a.c.failedTx);
    await shown(['Failed', 'forward failed'], 'search-tx');
    expect(page.url()).toBe(`${node.uri}/explorer/tx/${a.c.failedTx}`);
    await search('myl1');
    await shown(['99999', 'Transactions by hour', 'L1 validators', 'ICM messages', 'pending'], 'search-chain');
    expect(page.url()).toBe(`${node.uri}/explorer/chain/myl1`);
    await search(a.bob);
    await shown(['12.5 AVAX'], 'search-address');
    expect(page.url()).toBe(`${node.uri}/explorer/address/${a.bob}`);
    await search(a.xTransfer);
    await shown(['BaseTx', 'Accepted'], 'search-x-tx');
    await search('3');
    await shown(['matches for 3', 'Block 3 on'], 'search-number');
  });

  it('any host name the node accepts (the page asks location.origin), and a phone-sized screen', async () => {
    const port = new URL(node.uri).port;
    await page.setViewport({ width: 390, height: 844 });
    try {
      const body = await open('/chain/C', ['C-Chain', '43112', 'Transactions by hour'], 'chain-c-phone');
      expect(body).toContain('Blocks');
      problems = [];
      await page.goto(`http://localhost:${port}/explorer/chain/myl1`, { waitUntil: 'domcontentloaded' });
      await shown(['myl1', '99999', `http://localhost:${port}/ext/bc/`], 'chain-l1-localhost');
    } finally {
      await page.setViewport({ width: 1360, height: 900 });
    }
  });

  it('light and dark', async () => {
    await open('/', ['Latest blocks'], 'theme-start');
    const theme = () => page.evaluate(() => ((globalThis as any).document.documentElement.dataset.theme as string | undefined) ?? 'system');
    await page.click('button.theme');
    const first = await theme();
    expect(['light', 'dark']).toContain(first);
    await page.click('button.theme');
    expect(await theme()).toBe(first === 'dark' ? 'light' : 'dark');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await page.evaluate(() => (globalThis as any).localStorage.removeItem('explorer-theme'));
    const body = await open('/', ['Latest blocks', 'txs in the last'], 'home-dark');
    expect(body).toContain('C-Chain');
    const bg = await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.body).backgroundColor as string);
    expect(bg).toBe('rgb(15, 17, 21)');
  });

  it('without the Data API, the chains still show from their own APIs', async () => {
    const bare = await startTestNode({ dbType: 'memdb', apiDataEnabled: false });
    others.add(new URL(bare.uri).port);
    try {
      problems = [];
      await page.goto(`${bare.uri}/explorer/`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-chain]').length === 3, { timeout: 20_000 });
      await page.screenshot({ path: join(ARTIFACTS, 'home-no-data-api.png'), fullPage: true });
      expect(await text()).toContain('X-Chain');
      // Only the Data API's 404s, which Chromium logs, as the page learns it is off.
      expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
    } finally {
      await bare.stop();
    }
  });

  it('--api-explorer-enabled=false serves no page; a node without the built files says so', async () => {
    const off = await startTestNode({ dbType: 'memdb', apiExplorerEnabled: false });
    try {
      expect((await fetch(`${off.uri}/explorer/`)).status).toBe(404);
    } finally {
      await off.stop();
    }
    const server = http.createServer((req, res) => explorerHandler(() => '/nonexistent/explorer')(req, res, { params: {}, rest: '/' }));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/explorer/`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('npm run build');
    } finally {
      server.close();
    }
  });
});
