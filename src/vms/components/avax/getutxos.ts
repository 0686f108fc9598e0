// getUTXOs as every VM's service reads it (avalanchego avm/platformvm service.go, coreth's avax
// API): its arguments (addresses, sourceChain, limit, startIndex, encoding) with their checks in the
// node's order and texts, the page of another chain's exports to this one, and the reply.
import type { SharedMemory } from '../../../chains/sharedmemory.js';
import { encodeCB58, idFromString } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';
import { rpcTry, serviceErrors } from '../../../rpc/method.js';
import { arrayOf, type Decoded, string, struct, uint32 } from '../../../rpc/schema.js';
import { type Encoding, encoding } from './fields.js';
import type { Page } from './utxostate.js';

/** maxGetUTXOsAddrs and maxPageSize (maxUTXOsToFetch in coreth). */
const MAX_ADDRESSES = 1024;
const MAX_PAGE_SIZE = 1024;

const shape = { addresses: arrayOf(string), sourceChain: string, limit: uint32, startIndex: struct({ address: string, utxo: string }), encoding };
export const getUTXOsArgs = struct(shape);
export type GetUTXOsArgs = Decoded<typeof shape>;

const errors = serviceErrors({
  noAddresses: () => 'no addresses provided',
  tooManyAddresses: (n: number) => `number of addresses given, ${n}, exceeds maximum, ${MAX_ADDRESSES}`,
  noSourceChain: () => 'no source chain provided',
  sourceChain: (chain: string, why: string) => `problem parsing source chainID ${goQuote(chain)}: ${why}`,
  startAddress: (address: string, why: string) => `couldn't parse start index address ${goQuote(address)}: ${why}`,
  startUTXO: (why: string) => `couldn't parse start index utxo: ${why}`,
});

export interface UTXOsRequest {
  /** The addresses asked for, unique and sorted. */
  addresses: Uint8Array[];
  /** The chain (cb58 ID) whose UTXOs, or whose exports to this chain, are asked for. */
  source: string;
  startAddr: Uint8Array;
  startUTXO: Uint8Array;
  limit: number;
}

export interface UTXOsArgsContext {
  /** The service's address parser (its errors are the node's texts). */
  parseAddress(text: string): Uint8Array;
  /** How an address of the list that fails to parse is reported (by default, the parser's text). */
  addressError?(text: string, why: string): string;
  /** The chain alias lookup (chains.Aliaser.Lookup). */
  lookupChain(alias: string): string;
  /** The chain asked for when sourceChain is empty; without one, an empty sourceChain is an error. */
  defaultSource?: string;
}

/** The arguments' checks, in the node's order: address count, source chain, addresses, start index, limit. */
export function readUTXOsArgs(args: GetUTXOsArgs, ctx: UTXOsArgsContext): UTXOsRequest {
  if (args.addresses.length === 0) throw errors.noAddresses();
  if (args.addresses.length > MAX_ADDRESSES) throw errors.tooManyAddresses(args.addresses.length);
  let source: string;
  if (args.sourceChain === '') {
    if (ctx.defaultSource === undefined) throw errors.noSourceChain();
    source = ctx.defaultSource;
  } else {
    source = rpcTry(
      () => ctx.lookupChain(args.sourceChain),
      (m) => errors.sourceChain(args.sourceChain, m).message,
    );
  }
  const addresses = uniqueSorted(args.addresses.map((a) => rpcTry(() => ctx.parseAddress(a), ctx.addressError && ((m) => ctx.addressError!(a, m)))));
  let startAddr: Uint8Array = new Uint8Array(20);
  let startUTXO: Uint8Array = new Uint8Array(32);
  if (args.startIndex.address !== '' || args.startIndex.utxo !== '') {
    startAddr = rpcTry(
      () => ctx.parseAddress(args.startIndex.address),
      (m) => errors.startAddress(args.startIndex.address, m).message,
    );
    startUTXO = rpcTry(
      () => idFromString(args.startIndex.utxo),
      (m) => errors.startUTXO(m).message,
    );
  }
  const limit = args.limit <= 0n || args.limit > BigInt(MAX_PAGE_SIZE) ? MAX_PAGE_SIZE : Number(args.limit);
  return { addresses, source, startAddr, startUTXO, limit };
}

function uniqueSorted(addrs: Uint8Array[]): Uint8Array[] {
  const byHex = new Map(addrs.map((a) => [Buffer.from(a).toString('hex'), a]));
  return [...byHex.keys()].sort().map((k) => byHex.get(k)!);
}

/** avax.GetAtomicUTXOs: the UTXO bytes the request's source chain exported to `chainID`, one page. */
export async function atomicUTXOs(shared: SharedMemory, chainID: Uint8Array, req: UTXOsRequest): Promise<Page<Uint8Array>> {
  const page = await shared.indexed(chainID, idFromString(req.source), req.addresses, req.startAddr, req.startUTXO, req.limit);
  return { utxos: page.values, endAddr: page.lastTrait, endUTXO: page.lastKey };
}

/** The reply: the encoded UTXOs and the index to continue from. */
export function utxosReply(utxos: string[], endAddress: string, endUTXO: Uint8Array, enc: Encoding) {
  return { numFetched: String(utxos.length), utxos, endIndex: { address: endAddress, utxo: encodeCB58(endUTXO) }, encoding: enc };
}
