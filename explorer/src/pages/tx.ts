// A tx of any chain. EVM: status (with the revert reason), parties, value, fee, decoded logs,
// internal txs (Data API) and the call tree (debug_traceTransaction, on --dev nodes). P and X: the
// type, status, what it moved and the fields of its type.
import { getJson, rpc, tryRpc } from '../api.js';
import { type Chain, chains, isEvm } from '../chains.js';
import { addressLink, badge, type Child, errorBox, facts, fill, h, ident, link, section, table, time, txLink } from '../dom.js';
import { cb58ToHex } from '../cb58.js';
import { contractInfo, type DecodedLog, decodeLog, replayRevert } from '../evm.js';
import { big, gwei, hexBig, hexNum, int, navax, units, wei } from '../format.js';
import type { PageCtx } from '../page.js';
import { atomicTx, avaxAssetID, avaxMoved, hrp, inputTotal, outputAmount, outputsOf, primaryTx, pTxType, xTxType } from '../primary.js';
import { cb58, formatAddress, hexBytes } from '../cb58.js';
import { chainBadge, icmLink } from '../ui.js';

export async function findEvmTx(hash: string): Promise<{ chain: Chain; tx: any } | undefined> {
  const evm = (await chains()).filter(isEvm);
  const found = await Promise.all(evm.map(async (chain) => ({ chain, tx: await tryRpc(chain.rpc, 'eth_getTransactionByHash', [hash]) })));
  return found.find((f) => f.tx);
}

export async function txPage(ctx: PageCtx): Promise<void> {
  const id = ctx.params[0]!;
  ctx.title(`Tx ${id}`);
  fill(ctx.view, h('p', { class: 'muted' }, 'Looking for the transaction…'));
  try {
    if (/^0x[0-9a-fA-F]{64}$/.test(id)) {
      const found = await findEvmTx(id);
      if (found) return await evmTx(ctx, found.chain, found.tx);
    } else {
      const found = await primaryTx(id);
      if (found) return await primary(ctx, found.chain, found.tx);
      const atomic = await atomicTx(id);
      if (atomic) return await atomicPage(ctx, atomic);
    }
    fill(ctx.view, h('h1', null, 'Transaction'), errorBox(`no transaction ${id} on this node's chains`));
    // A tx not seen yet (still being issued) shows up once a chain has it.
    let found = false;
    ctx.live(async () => {
      if (found || !(/^0x/.test(id) ? await findEvmTx(id) : await primaryTx(id))) return;
      found = true;
      await txPage(ctx);
    });
  } catch (err) {
    fill(ctx.view, h('h1', null, 'Transaction'), errorBox(err));
  }
}

async function tokenOf(chain: Chain, address: string): Promise<{ name: string; symbol: string; decimals: number }> {
  const info = await contractInfo(chain, address).catch(() => undefined);
  return { name: info?.name ?? '', symbol: info?.symbol ?? '', decimals: Number(info?.decimals ?? 0) };
}

async function logRow(chain: Chain, log: DecodedLog, all: Chain[]): Promise<Child[]> {
  const chainOf = (hex?: string) => {
    const c = all.find((x) => cb58ToHex(x.id) === hex);
    return c ? chainBadge(c) : h('span', { class: 'mono', title: hex ?? '' }, hex ? `${hex.slice(0, 10)}…` : '—');
  };
  const token = log.standard.startsWith('ERC') ? await tokenOf(chain, log.address) : undefined;
  let detail: Child = h('span', { class: 'muted mono' }, `${log.raw.topics?.length ?? 0} topics, ${(log.raw.data.length - 2) / 2} bytes`);
  if (log.standard === 'ERC-20' && log.event === 'Transfer') {
    const t = token!;
    detail = [addressLink(log.from!), ' → ', addressLink(log.to!), ' ', h('strong', null, `${units(log.amounts![0]!, t.decimals)} ${t.symbol || 'tokens'}`)];
  } else if (log.standard === 'ERC-721' && log.event === 'Transfer') {
    const t = token!;
    detail = [addressLink(log.from!), ' → ', addressLink(log.to!), ' ', h('strong', null, `${t.symbol || 'NFT'} #${log.tokenIds![0]}`)];
  } else if (log.standard === 'ERC-1155') {
    detail = [
      addressLink(log.from!),
      ' → ',
      addressLink(log.to!),
      ' ',
      h('strong', null, log.tokenIds!.map((id, i) => `${log.amounts![i]} × id ${id}`).join(', ')),
    ];
  } else if (log.standard === 'ICM') {
    detail = ['message ', icmLink(log.messageID!), log.event === 'SendCrossChainMessage' ? ' to ' : ' from ', chainOf(log.otherChain)];
  } else if (log.event === 'Approval' && log.from) {
    detail = ['owner ', addressLink(log.from), ' spender ', addressLink(log.to!)];
  }
  return [
    String(log.logIndex),
    h('span', null, badge(log.standard || 'log', log.standard === 'ICM' ? 'icm' : ''), ' ', h('strong', null, log.event)),
    [addressLink(log.address), token?.name ? h('span', { class: 'muted small' }, ` ${token.name}`) : ''],
    detail,
  ];
}

function callTree(frame: any, symbol: string, depth = 0): HTMLElement {
  const value = frame.value ? hexBig(frame.value) : 0n;
  return h(
    'li',
    null,
    h(
      'div',
      { class: `frame${frame.error ? ' failed' : ''}` },
      badge(frame.type ?? 'CALL'),
      ' ',
      addressLink(frame.from),
      ' → ',
      frame.to ? addressLink(frame.to) : '—',
      value > 0n ? ` ${wei(value, symbol)}` : '',
      h('span', { class: 'muted small' }, ` gas ${int(hexBig(frame.gasUsed ?? '0x0'))}`),
      frame.error ? h('span', { class: 'bad' }, ` ${frame.error}${frame.revertReason ? `: ${frame.revertReason}` : ''}`) : '',
    ),
    frame.calls?.length && depth < 32
      ? h(
          'ul',
          null,
          frame.calls.map((c: any) => callTree(c, symbol, depth + 1)),
        )
      : null,
  );
}

/** The Data API's record of the tx (its method's name, its internal txs), found under one of its parties. */
async function dataRecord(chain: Chain, tx: any, receipt: any): Promise<{ internal: any[]; methodName?: string } | undefined> {
  const n = hexNum(tx.blockNumber);
  const parties = [tx.to ?? receipt.contractAddress, tx.from].filter(Boolean);
  let methodName: string | undefined;
  for (const a of parties) {
    try {
      const page = await getJson(`/v1/chains/${chain.id}/addresses/${a}/transactions?startBlock=${n}&endBlock=${n + 1}&pageSize=100`);
      const mine = (page.transactions as any[]).find((t) => t.nativeTransaction.txHash.toLowerCase() === tx.hash.toLowerCase());
      methodName ??= mine?.nativeTransaction?.method?.methodName;
      if (mine?.internalTransactions?.length) return { internal: mine.internalTransactions, methodName };
    } catch {
      return undefined;
    }
  }
  return { internal: [], methodName };
}

async function evmTx(ctx: PageCtx, chain: Chain, tx: any): Promise<void> {
  const [receipt, block, all] = await Promise.all([
    rpc(chain.rpc, 'eth_getTransactionReceipt', [tx.hash]),
    tx.blockNumber ? rpc(chain.rpc, 'eth_getBlockByNumber', [tx.blockNumber, false]) : undefined,
    chains(),
  ]);
  if (!receipt) {
    fill(ctx.view, h('h1', null, 'Transaction ', chainBadge(chain)), section('Pending', facts([['Hash', ident(tx.hash, undefined, true)]])));
    // Shown in full once a block takes it.
    let done = false;
    ctx.live(async () => {
      if (done || !(await rpc(chain.rpc, 'eth_getTransactionReceipt', [tx.hash]))) return;
      done = true;
      await evmTx(ctx, chain, await rpc(chain.rpc, 'eth_getTransactionByHash', [tx.hash]));
    });
    return;
  }
  const ok = receipt.status === '0x1';
  const reason = ok ? undefined : await replayRevert(chain, tx).catch(() => undefined);
  const price = hexBig(receipt.effectiveGasPrice ?? tx.gasPrice);
  const gasUsed = hexBig(receipt.gasUsed);
  const logs = (receipt.logs as any[]).map(decodeLog);
  const rows = await Promise.all(logs.map((l) => logRow(chain, l, all)));
  const internal = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  const tree = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  // A creation that failed deployed nothing at the address its receipt names.
  const created = ok ? receipt.contractAddress : undefined;
  const method = h('span', null);
  fill(
    ctx.view,
    h('h1', null, 'Transaction ', chainBadge(chain)),
    section(
      'Overview',
      facts([
        ['Hash', ident(tx.hash, undefined, true)],
        ['Status', ok ? badge('Success', 'ok') : [badge('Failed', 'bad'), reason ? h('span', { class: 'bad reason' }, ` ${reason}`) : '']],
        ['Block', [link(`/block/${chain.key}/${hexNum(tx.blockNumber)}`, int(hexNum(tx.blockNumber))), ' · ', time(hexNum(block?.timestamp))]],
        ['From', addressLink(tx.from, true)],
        [
          'To',
          tx.to
            ? addressLink(tx.to, true)
            : [badge('contract creation'), ' ', created ? addressLink(created, true) : h('span', { class: 'muted' }, 'not created')],
        ],
        ['Value', wei(hexBig(tx.value), chain.symbol)],
        ['Fee', `${wei(gasUsed * price, chain.symbol)}`],
        ['Gas price', gwei(price)],
        ['Gas used', `${int(gasUsed)} of ${int(hexBig(tx.gas))}`],
        ['Nonce', int(hexNum(tx.nonce))],
        tx.input &&
          tx.input !== '0x' && [
            'Input',
            [method, h('span', { class: 'mono', title: tx.input }, `${tx.input.slice(0, 10)} · ${(tx.input.length - 2) / 2} bytes`)],
          ],
      ]),
    ),
    section(`Logs (${logs.length})`, table(['#', 'Event', 'Contract', 'Details'], rows, 'No logs.')),
    section('Internal transactions', internal),
    section('Call tree', tree),
  );
  void dataRecord(chain, tx, receipt).then((record) => {
    if (record?.methodName) fill(method, h('strong', null, record.methodName), ' ');
    const list = record?.internal;
    if (list === undefined) fill(internal, h('p', { class: 'muted' }, 'The Data API is off on this node.'));
    else
      fill(
        internal,
        table(
          ['Type', 'From', 'To', 'Value', 'Gas used', ''],
          list.map((i) => [
            badge(i.internalTxType),
            addressLink(i.from.address),
            addressLink(i.to.address),
            wei(BigInt(i.value), chain.symbol),
            int(BigInt(i.gasUsed)),
            i.isReverted ? badge('reverted', 'bad') : '',
          ]),
          'No internal transactions.',
        ),
      );
  });
  try {
    const trace = await rpc(chain.rpc, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]);
    fill(tree, h('ul', { class: 'tree' }, callTree(trace, chain.symbol)));
  } catch {
    fill(tree, h('p', { class: 'muted' }, 'The call tree needs debug_traceTransaction: start the node with --dev.'));
  }
}

const LABELS: Record<string, string> = {
  subnetID: 'Subnet',
  chainID: 'Chain',
  address: 'Manager address',
  chainName: 'Chain name',
  vmID: 'VM',
  fxIDs: 'Feature extensions',
  sourceChain: 'From chain',
  destinationChain: 'To chain',
  validationID: 'Validation ID',
  message: 'Warp message',
  owner: 'Owner',
  newOwner: 'New owner',
  validator: 'Validator',
  signer: 'BLS signer',
  shares: 'Delegation fee (parts per million)',
  txID: 'Staking tx',
};

async function primary(ctx: PageCtx, kind: 'P' | 'X', tx: any): Promise<void> {
  const chain = (await chains()).find((c) => c.kind === kind)!;
  const u = tx.unsignedTx;
  const type = kind === 'P' ? pTxType(u) : xTxType(u);
  const status = await tryRpc(chain.rpc, kind === 'P' ? 'platform.getTxStatus' : 'avm.getTxStatus', { txID: tx.id });
  const outputs = outputsOf(u);
  const avax = await avaxAssetID();
  const moved = avaxMoved(outputs, avax);
  // What the inputs paid beyond the outputs: the fee, and the balance given to new L1 validators.
  const balances = [...(u?.validators ?? []), ...('balance' in (u ?? {}) ? [u] : [])].reduce((n: bigint, v: any) => n + big(v.balance), 0n);
  const burned = inputTotal(u, avax) - moved - balances;
  const known = new Set([
    'networkID',
    'blockchainID',
    'outputs',
    'inputs',
    'memo',
    'exportedOutputs',
    'importedInputs',
    'stake',
    'validators',
    'genesisData',
    'subnetAuthorization',
  ]);
  const extra = Object.entries(u ?? {}).filter(([k]) => !known.has(k));
  const chainsByID = new Map((await chains()).map((c) => [c.id, c]));
  const show = (k: string, v: unknown): Child => {
    if (typeof v === 'string' && chainsByID.has(v) && (k.toLowerCase().includes('chain') || k === 'chainID'))
      return [chainBadge(chainsByID.get(v)!), ' ', ident(v)];
    if (k === 'subnetID' && typeof v === 'string') return link(`/subnet/${v}`, v);
    if (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) return addressLink(v, true);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return String(v);
    return h(
      'code',
      { class: 'json' },
      JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)),
    );
  };
  fill(
    ctx.view,
    h('h1', null, type, ' ', chainBadge(chain)),
    section(
      'Overview',
      facts([
        ['ID', ident(tx.id, undefined, true)],
        ['Type', badge(type)],
        ['Status', status?.status === 'Committed' || status?.status === 'Accepted' ? badge(status.status, 'ok') : badge(status?.status ?? 'Unknown', 'bad')],
        status?.reason && ['Reason', status.reason],
        burned > 0n && ['Fee', navax(burned)],
        u?.memo && u.memo !== '0x' && ['Memo', u.memo],
        balances > 0n && ['Validator balance', navax(balances)],
        // A CreateChainTx's ID is the new chain's blockchain ID.
        chainsByID.has(tx.id) && ['Blockchain created', chainBadge(chainsByID.get(tx.id)!)],
        ...extra.filter(([k]) => k !== 'balance').map(([k, v]): [string, Child] => [LABELS[k] ?? k, show(k, v)]),
      ]),
    ),
    section(
      'Outputs',
      table(
        ['To', 'Amount', 'Kind'],
        outputs.map((o) => [
          o.address
            ? h(
                'span',
                { class: 'chips' },
                o.address.split(', ').map((a) => addressLink(a)),
              )
            : '—',
          outputAmount(o, avax),
          o.kind,
        ]),
        'No outputs.',
      ),
    ),
    u?.validators?.length > 0 &&
      section(
        'L1 validators',
        table(
          ['Node', 'Weight', 'Balance', 'BLS key'],
          u.validators.map((v: any) => [
            ident(`NodeID-${cb58(hexBytes(v.nodeID))}`),
            int(v.weight),
            navax(v.balance),
            v.signer?.publicKey ? h('span', { class: 'mono', title: v.signer.publicKey }, `${v.signer.publicKey.slice(0, 12)}…`) : '—',
          ]),
        ),
      ),
    section(
      'Inputs',
      table(
        ['Spent output', 'Amount'],
        [...(u?.inputs ?? []), ...(u?.importedInputs ?? [])].map((i: any) => [
          [txLink(i.txID), `:${i.outputIndex}`],
          navax(i.input?.amount ?? i.input?.input?.amount),
        ]),
        'No inputs.',
      ),
    ),
  );
}

async function atomicPage(ctx: PageCtx, found: NonNullable<Awaited<ReturnType<typeof atomicTx>>>): Promise<void> {
  const all = await chains();
  const C = all.find((c) => c.kind === 'C')!;
  const other = all.find((c) => c.id === found.tx.otherChain);
  const prefix = other?.kind === 'P' ? 'P' : 'X';
  const net = await hrp();
  const { tx } = found;
  const otherCell: Child = other ? [chainBadge(other), ' ', ident(other.id)] : ident(tx.otherChain);
  const evmTotal = tx.evm.reduce((n, e) => n + e.amount, 0n);
  const utxoTotal = tx.utxos.reduce((n, u) => n + u.amount, 0n);
  const fee = tx.type === 'ImportTx' ? utxoTotal - evmTotal : evmTotal - utxoTotal;
  fill(
    ctx.view,
    h('h1', null, `Atomic ${tx.type}`, ' ', chainBadge(C)),
    section(
      'Overview',
      facts([
        ['ID', ident(found.id, undefined, true)],
        ['Type', badge(tx.type)],
        ['Status', found.status === 'Accepted' ? badge(found.status, 'ok') : badge(found.status, 'bad')],
        found.blockHeight !== undefined && ['C-Chain block', link(`/block/C/${found.blockHeight}`, int(found.blockHeight))],
        [tx.type === 'ImportTx' ? 'From chain' : 'To chain', otherCell],
        ['Amount', navax(tx.type === 'ImportTx' ? evmTotal : utxoTotal)],
        fee > 0n && ['Fee', navax(fee)],
      ]),
    ),
    section(
      tx.type === 'ImportTx' ? 'Credited on the C-Chain' : 'Debited on the C-Chain',
      table(
        ['Address', 'Amount'],
        tx.evm.map((e) => [addressLink(e.address, true), navax(e.amount)]),
      ),
    ),
    section(
      tx.type === 'ImportTx' ? 'UTXOs imported' : 'UTXOs exported',
      table(
        tx.type === 'ImportTx' ? ['Spent output', 'Amount'] : ['Owners', 'Amount'],
        tx.utxos.map((u) => [
          u.txID
            ? [txLink(u.txID), `:${u.index}`]
            : h(
                'span',
                { class: 'chips' },
                (u.owners ?? []).map((o) => addressLink(formatAddress(prefix, net, o))),
              ),
          navax(u.amount),
        ]),
      ),
    ),
  );
}
