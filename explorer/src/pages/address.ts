// An address: for 0x… its balance on every EVM chain, its tokens, its txs and, for a contract, its
// code size and deployer; for X-/P- addresses, its AVAX on the X- and P-Chain and its UTXOs.
import { evmBatch, getJson, rpc } from '../api.js';
import { type Chain, chains, isEvm } from '../chains.js';
import { addressLink, amount, badge, type Child, errorBox, facts, fill, h, ident, section, table, time, txLink } from '../dom.js';
import { contractInfo } from '../evm.js';
import { hexBig, int, navax, units, wei } from '../format.js';
import type { PageCtx } from '../page.js';
import { avaxAssetID } from '../primary.js';
import { chainBadge } from '../ui.js';
import { parseUtxo } from '../cb58.js';

export async function addressPage(ctx: PageCtx): Promise<void> {
  const a = ctx.params[0]!;
  ctx.title(`Address ${a}`);
  try {
    if (/^0x[0-9a-fA-F]{40}$/.test(a)) await evmAddress(ctx, a);
    else if (/^[XPC]-/.test(a)) await primaryAddress(ctx, a);
    else fill(ctx.view, errorBox(`${a} is not an address`));
  } catch (err) {
    fill(ctx.view, h('h1', null, 'Address'), errorBox(err));
  }
}

interface ChainView {
  chain: Chain;
  balance: bigint;
  nonce: number;
  codeSize: number;
  contract?: any;
  txs: any[];
}

async function viewOn(chain: Chain, a: string): Promise<ChainView> {
  const [balance, nonce, code] = await evmBatch(chain.rpc, [
    ['eth_getBalance', [a, 'latest']],
    ['eth_getTransactionCount', [a, 'latest']],
    ['eth_getCode', [a, 'latest']],
  ]);
  const codeSize = code && code !== '0x' ? (code.length - 2) / 2 : 0;
  const [contract, page] = await Promise.all([
    codeSize > 0 ? contractInfo(chain, a, code) : undefined,
    getJson(`/v1/chains/${chain.id}/addresses/${a}/transactions?pageSize=25`).catch(() => ({ transactions: [] })),
  ]);
  return { chain, balance: hexBig(balance), nonce: Number(hexBig(nonce)), codeSize, contract, txs: page.transactions };
}

const ERC20_BALANCE = '0x70a08231';

async function evmAddress(ctx: PageCtx, a: string): Promise<void> {
  const views = await Promise.all((await chains()).filter(isEvm).map((c) => viewOn(c, a)));
  const contracts = views.filter((v) => v.codeSize > 0);
  // Tokens: every ERC-20/721/1155 contract the address's txs moved, with its balance now.
  const tokenRows: Child[][] = [];
  for (const v of views) {
    const tokens = new Map<string, any>();
    for (const t of v.txs) {
      for (const x of t.erc20Transfers ?? []) tokens.set(x.erc20Token.address, x.erc20Token);
      for (const x of t.erc721Transfers ?? []) tokens.set(x.erc721Token.address, x.erc721Token);
      for (const x of t.erc1155Transfers ?? []) tokens.set(x.erc1155Token.address, { ...x.erc1155Token, decimals: 0 });
    }
    const list = [...tokens.values()];
    // balanceOf(address) is ERC-20's and ERC-721's; ERC-1155's takes a token ID too.
    const priced = list.filter((t) => t.ercType !== 'ERC-1155');
    const data = `${ERC20_BALANCE}${a.slice(2).toLowerCase().padStart(64, '0')}`;
    const balances = await evmBatch(
      v.chain.rpc,
      priced.map((t) => ['eth_call', [{ to: t.address, data }, 'latest']]),
    );
    const balanceOf = new Map(priced.map((t, i) => [t.address, balances[i]]));
    list.forEach((t) => {
      const raw = balanceOf.get(t.address);
      tokenRows.push([
        chainBadge(v.chain),
        [addressLink(t.address), ' ', h('strong', null, t.name || ''), t.symbol ? ` (${t.symbol})` : ''],
        badge(t.ercType),
        raw && raw !== '0x' ? `${units(hexBig(raw), Number(t.decimals ?? 0))} ${t.symbol ?? ''}` : '—',
      ]);
    });
  }
  const txRows = views
    .flatMap((v) => v.txs.map((t: any) => ({ chain: v.chain, t })))
    .sort((x, y) => y.t.nativeTransaction.blockTimestamp - x.t.nativeTransaction.blockTimestamp)
    .slice(0, 50)
    .map(({ chain, t }) => {
      const n = t.nativeTransaction;
      const out = n.from.address.toLowerCase() === a.toLowerCase();
      return [
        chainBadge(chain),
        txLink(n.txHash),
        time(n.blockTimestamp),
        out ? badge('out') : badge('in', 'ok'),
        addressLink(out ? (n.to?.address ?? '') : n.from.address),
        amount(BigInt(n.value), 18, chain.symbol),
        n.txStatus === '1' ? '' : badge('failed', 'bad'),
      ];
    });
  fill(
    ctx.view,
    h('h1', null, contracts.length ? 'Contract' : 'Address'),
    section('Overview', facts([['Address', ident(a, undefined, true)]])),
    section(
      'Balances',
      table(
        ['Chain', 'Balance', 'Nonce', 'Code'],
        views.map((v) => [chainBadge(v.chain), wei(v.balance, v.chain.symbol), int(v.nonce), v.codeSize ? `${int(v.codeSize)} bytes` : '—']),
      ),
    ),
    contracts.map((v) =>
      section(
        ['Contract on ', chainBadge(v.chain)],
        facts([
          ['Code size', `${int(v.codeSize)} bytes`],
          v.contract?.ercType && ['Kind', badge(v.contract.ercType)],
          v.contract?.name && ['Name', `${v.contract.name}${v.contract.symbol ? ` (${v.contract.symbol})` : ''}`],
          v.contract?.decimals !== undefined && ['Decimals', String(v.contract.decimals)],
          v.contract?.deploymentDetails?.deployerAddress && ['Deployer', addressLink(v.contract.deploymentDetails.deployerAddress, true)],
          v.contract?.deploymentDetails?.txHash && ['Deployed in', txLink(v.contract.deploymentDetails.txHash)],
        ]),
      ),
    ),
    section('Tokens', table(['Chain', 'Token', 'Kind', 'Balance'], tokenRows, 'No token transfers.')),
    section('Transactions', table(['Chain', 'Tx', 'Age', '', 'Counterparty', 'Value', ''], txRows, 'No transactions.')),
  );
}

async function primaryAddress(ctx: PageCtx, a: string): Promise<void> {
  const body = a.slice(2);
  const x = `X-${body}`;
  const p = `P-${body}`;
  const [xBal, pBal, xUtxos, pUtxos] = await Promise.all([
    rpc('/ext/bc/X', 'avm.getAllBalances', { address: x }).catch(() => undefined),
    rpc('/ext/bc/P', 'platform.getBalance', { addresses: [p] }).catch(() => undefined),
    rpc('/ext/bc/X', 'avm.getUTXOs', { addresses: [x], limit: 100, encoding: 'hex' }).catch(() => undefined),
    rpc('/ext/bc/P', 'platform.getUTXOs', { addresses: [p], limit: 100, encoding: 'hex' }).catch(() => undefined),
  ]);
  const all = await chains();
  const X = all.find((c) => c.kind === 'X')!;
  const P = all.find((c) => c.kind === 'P')!;
  const rows: Child[][] = [];
  for (const b of xBal?.balances ?? []) rows.push([chainBadge(X), b.asset === 'AVAX' ? navax(b.balance) : `${units(BigInt(b.balance), 0)} of ${b.asset}`]);
  if (xBal && (xBal.balances ?? []).length === 0) rows.push([chainBadge(X), navax(0)]);
  if (pBal)
    rows.push([
      chainBadge(P),
      [navax(pBal.balance), pBal.unlocked !== pBal.balance ? h('span', { class: 'muted small' }, ` (unlocked ${navax(pBal.unlocked)})`) : ''],
    ]);
  const avax = await avaxAssetID();
  const utxoRows: Child[][] = [];
  for (const [chain, list] of [
    [X, xUtxos?.utxos ?? []],
    [P, pUtxos?.utxos ?? []],
  ] as const) {
    for (const hex of list as string[]) {
      const u = parseUtxo(hex);
      if (!u) continue;
      utxoRows.push([
        chainBadge(chain),
        txLink(u.txID),
        String(u.index),
        u.amount === undefined ? '—' : u.assetID === avax ? navax(u.amount) : `${units(u.amount, 0)} of ${u.assetID.slice(0, 8)}…`,
        u.locktime ? time(Number(u.locktime)) : '—',
      ]);
    }
  }
  fill(
    ctx.view,
    h('h1', null, 'Address'),
    section(
      'Overview',
      facts([
        ['X-Chain', ident(x, undefined, true)],
        ['P-Chain', ident(p, undefined, true)],
      ]),
    ),
    section('Balances', table(['Chain', 'Balance'], rows)),
    section(
      `Unspent outputs (${utxoRows.length})`,
      table(['Chain', 'Created by', 'Output', 'Amount', 'Locked until'], utxoRows, 'No unspent outputs.'),
      h(
        'p',
        { class: 'muted small' },
        'The X- and P-Chain keep UTXOs, not account histories: these are the outputs the address can spend, with the txs that made them.',
      ),
    ),
  );
}
