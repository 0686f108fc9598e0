// The Data API's EVM transactions: a tx as NativeTransaction, with the token transfers and
// internal transactions of an address (TransactionDetails), read from the chain's store and the
// follower's index.
import { keccakText } from '../../crypto/keccak.js';
import type { TypedTransaction } from '@ethereumjs/tx';
import { toChecksumAddress } from '@ethereumjs/util';
import type { StoredBlock, TxRecord } from '../../vms/evm/index.js';
import type { EvmSource } from './chains.js';
import { type InternalTx, TRANSFER, TRANSFER_BATCH, TRANSFER_SINGLE } from './follower.js';
import { internalKey } from './keys.js';
import { ownerOf, type TokenInfo, tokenInfo, tokenUri } from './tokens.js';
import type { Database } from '../../storage/db.js';
import { toHex0x as hex } from '../../encoding/bytes.js';

const checksum = (a: Uint8Array | string) => toChecksumAddress(typeof a === 'string' ? a : hex(a));
const rich = (a: Uint8Array | string) => ({ address: checksum(a) });

/** Signatures of the methods wallets and explorers meet most (no signature database offline). */
const KNOWN_SIGNATURES = [
  'transfer(address,uint256)',
  'approve(address,uint256)',
  'transferFrom(address,address,uint256)',
  'safeTransferFrom(address,address,uint256)',
  'safeTransferFrom(address,address,uint256,bytes)',
  'safeTransferFrom(address,address,uint256,uint256,bytes)',
  'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
  'setApprovalForAll(address,bool)',
  'mint(address,uint256)',
  'burn(uint256)',
  'deposit()',
  'withdraw(uint256)',
  'multicall(bytes[])',
  'sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))',
  'receiveCrossChainMessage(uint32,address)',
];

let knownMethods: Map<string, string> | undefined;
/** Those methods' names by selector, hashed on first use (once the WebAssembly keccak has loaded). */
const knownMethod = (methodHash: string): string | undefined => {
  knownMethods ??= new Map(KNOWN_SIGNATURES.map((s) => [`0x${Buffer.from(keccakText(s).subarray(0, 4)).toString('hex')}`, s]));
  return knownMethods.get(methodHash);
};

export interface TxAt {
  block: StoredBlock;
  tx: TypedTransaction;
  record: TxRecord;
  index: number;
}

export async function nativeTransaction(s: EvmSource, at: TxAt): Promise<Record<string, unknown>> {
  const { block, tx, record, index } = at;
  const h = block.header;
  const to = tx.to?.bytes ?? record.contractAddress;
  let method: Record<string, string>;
  if (!tx.to) method = { callType: 'CONTRACT_CREATION', methodHash: '', methodName: 'Contract Created' };
  else if (tx.data.length === 0 && !(await hasCode(s, tx.to.bytes))) method = { callType: 'NATIVE_TRANSFER', methodHash: '', methodName: 'Native Transfer' };
  else {
    const methodHash = tx.data.length >= 4 ? hex(tx.data.subarray(0, 4)) : '';
    const name = knownMethod(methodHash);
    method = { callType: 'CONTRACT_CALL', methodHash, ...(name ? { methodName: name } : {}) };
  }
  return {
    blockNumber: String(h.number),
    blockTimestamp: Number(h.time),
    ...(h.timeMilliseconds !== undefined ? { blockTimestampMilliseconds: Number(h.timeMilliseconds) } : {}),
    ...(h.minDelayExcess !== undefined ? { blockMinDelayExcess: Number(h.minDelayExcess) } : {}),
    blockHash: hex(block.hash),
    chainId: String(s.evm.chainId),
    blockIndex: index,
    txHash: hex(record.hash),
    txStatus: String(record.status),
    txType: tx.type,
    gasLimit: String(tx.gasLimit),
    gasUsed: String(record.gasUsed),
    gasPrice: String(record.effectiveGasPrice),
    nonce: String(tx.nonce),
    from: rich(record.from),
    ...(to ? { to: rich(to) } : {}),
    method,
    value: String(tx.value),
  };
}

async function hasCode(s: EvmSource, address: Uint8Array): Promise<boolean> {
  const acc = await s.evm.account(address);
  return acc !== undefined && Buffer.from(acc.codeHash).toString('hex') !== 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
}

const word = (d: Uint8Array, i: number) => BigInt(hex(d.subarray(i * 32, i * 32 + 32)) === '0x' ? '0x0' : hex(d.subarray(i * 32, i * 32 + 32)));

/** The token transfers and internal transactions of a tx in which `address` is a party (all of them without one). */
export async function details(s: EvmSource, db: Database, at: TxAt, address: string | undefined): Promise<Record<string, unknown>> {
  const mine = (a: string) => address === undefined || a.toLowerCase() === address;
  const tokens = new Map<string, TokenInfo>();
  const info = async (a: Uint8Array) => {
    const k = hex(a);
    if (!tokens.has(k)) tokens.set(k, await tokenInfo(s.evm, a));
    return tokens.get(k)!;
  };
  const found: Transfers = { erc20: [], erc721: [], erc1155: [] };
  let logIndex = 0;
  for (const r of (await s.evm.store.txRecords(at.block.hash)).slice(0, at.index)) logIndex += r.logs.length;
  for (const log of at.record.logs) await addTransfer(s, log, logIndex++, mine, info, found);
  return {
    nativeTransaction: await nativeTransaction(s, at),
    erc20Transfers: found.erc20,
    erc721Transfers: found.erc721,
    erc1155Transfers: found.erc1155,
    internalTransactions: await internalTransactions(db, at, mine),
  };
}

interface Transfers {
  erc20: unknown[];
  erc721: unknown[];
  erc1155: unknown[];
}

type EvmLogOf = TxAt['record']['logs'][number];

/** The transfer `log` (log `i` of its block) records, when one of its parties is `mine`. */
async function addTransfer(
  s: EvmSource,
  log: EvmLogOf,
  i: number,
  mine: (a: string) => boolean,
  info: (a: Uint8Array) => Promise<TokenInfo>,
  found: Transfers,
): Promise<void> {
  const t0 = log.topics[0] ? Buffer.from(log.topics[0]).toString('hex') : '';
  const single = t0 === TRANSFER_SINGLE || t0 === TRANSFER_BATCH;
  if (!(t0 === TRANSFER && (log.topics.length === 3 || log.topics.length === 4)) && !(single && log.topics.length === 4)) return;
  const [from, to] = single
    ? [hex(log.topics[2]!.subarray(12)), hex(log.topics[3]!.subarray(12))]
    : [hex(log.topics[1]!.subarray(12)), hex(log.topics[2]!.subarray(12))];
  if (!mine(from) && !mine(to)) return;
  const parties = { from: rich(from), to: rich(to), logIndex: i };
  if (single) {
    for (const [id, value] of t0 === TRANSFER_SINGLE ? [[word(log.data, 0), word(log.data, 1)] as [bigint, bigint]] : batchPairs(log.data)) {
      const erc1155Token = {
        address: checksum(log.address),
        ercType: 'ERC-1155',
        tokenId: String(id),
        tokenUri: await tokenUri(s.evm, log.address, 'ERC-1155', id),
        metadata: { indexStatus: 'UNINDEXED' },
      };
      found.erc1155.push({ ...parties, value: String(value), erc1155Token });
    }
    return;
  }
  const t = await info(log.address);
  if (log.topics.length === 3) {
    const erc20Token = { address: checksum(log.address), name: t.name ?? '', symbol: t.symbol ?? '', decimals: t.decimals ?? 0, ercType: 'ERC-20' };
    found.erc20.push({ ...parties, value: String(word(log.data, 0)), erc20Token });
    return;
  }
  const id = BigInt(hex(log.topics[3]!));
  const owner = await ownerOf(s.evm, log.address, id);
  const erc721Token = {
    address: checksum(log.address),
    name: t.name ?? '',
    symbol: t.symbol ?? '',
    ercType: 'ERC-721',
    tokenId: String(id),
    tokenUri: await tokenUri(s.evm, log.address, 'ERC-721', id),
    metadata: { indexStatus: 'UNINDEXED' },
    ...(owner ? { ownerAddress: checksum(owner) } : {}),
  };
  found.erc721.push({ ...parties, erc721Token });
}

/**
 * A TransferBatch's (id, value) pairs: abi.encode(uint256[] ids, uint256[] values), two offsets, then
 * each array's length and items. Lengths and offsets come from the log: anything that does not fit
 * the data is not a batch.
 */
function batchPairs(data: Uint8Array): Array<[bigint, bigint]> {
  const words = Math.floor(data.length / 32);
  const ids = word(data, 0) / 32n;
  const values = word(data, 1) / 32n;
  const fits = (at: bigint) => at < BigInt(words) && word(data, Number(at)) <= BigInt(words) - at - 1n;
  if (!fits(ids) || !fits(values)) return [];
  const n = Number(word(data, Number(ids)));
  if (Number(word(data, Number(values))) !== n) return [];
  return Array.from({ length: n }, (_, k) => [word(data, Number(ids) + 1 + k), word(data, Number(values) + 1 + k)]);
}

/** The tx's internal transactions in which one party is `mine`, as the follower indexed them. */
async function internalTransactions(db: Database, at: TxAt, mine: (a: string) => boolean): Promise<unknown[]> {
  const stored = await db.get(internalKey(at.block.header.number, at.index));
  const internal = stored ? (JSON.parse(Buffer.from(stored).toString('utf8')) as InternalTx[]) : [];
  return internal
    .filter((t) => mine(t.from) || mine(t.to))
    .map((t) => ({
      from: rich(t.from),
      to: rich(t.to),
      internalTxType: t.type,
      value: t.value,
      isReverted: t.isReverted,
      gasUsed: t.gasUsed,
      gasLimit: t.gasLimit,
    }));
}
