// Address text on the C-Chain's avax API (coreth atomic/vm/formatting.go): a raw cb58 ShortID, or
// <alias>-<bech32> whose alias names this chain; out, C-<hrp>1…. coreth checks in its own order:
// the bech32 (btcutil's texts), then the alias, the HRP, the length, and last the chain. (The
// X-Chain's avm/address.ts holds the same bech32 decoder: VMs do not import each other.)
import { bech32, bech32m } from '@scure/base';
import type { Aliaser } from '../../../chains/aliases.js';
import { decodeCB58 } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';

export class AddressError extends Error {}

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** btcutil bech32.Decode: its checks in its order, with its messages. */
function decodeBech32(text: string): { hrp: string; data: Uint8Array } {
  if (text.length > 90 || text.length < 8) throw new AddressError(`invalid bech32 string length ${text.length}`);
  let hasLower = false;
  let hasUpper = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 33 || c > 126) throw new AddressError(`invalid character in string: '${text[i]}'`);
    hasLower ||= c >= 97 && c <= 122;
    hasUpper ||= c >= 65 && c <= 90;
    if (hasLower && hasUpper) throw new AddressError('string not all lowercase or all uppercase');
  }
  const lower = text.toLowerCase();
  const one = lower.lastIndexOf('1');
  if (one < 1 || one + 7 > lower.length) throw new AddressError(`invalid separator index ${one}`);
  const hrp = lower.slice(0, one);
  const words: number[] = [];
  for (const ch of lower.slice(one + 1)) {
    const v = CHARSET.indexOf(ch);
    if (v < 0) throw new AddressError(`invalid character not part of charset: ${ch.charCodeAt(0)}`);
    words.push(v);
  }
  let decoded: { words: number[] };
  try {
    decoded = bech32.decode(lower as `${string}1${string}`, 90);
  } catch {
    const payload = words.slice(0, -6);
    const expected = bech32.encode(hrp, payload, false).slice(-6);
    const expectedM = bech32m.encode(hrp, payload, false).slice(-6);
    throw new AddressError(`invalid checksum (expected (bech32=${expected}, bech32m=${expectedM}), got ${lower.slice(-6)})`);
  }
  try {
    return { hrp, data: bech32.fromWords(decoded.words) };
  } catch {
    throw new AddressError('unable to convert address from 5-bit to 8-bit formatting');
  }
}

export interface ChainAddressContext {
  hrp: string;
  /** The chain's ID (cb58). */
  chainID: string;
  aliases: Aliaser;
}

/** ParseLocalAddress */
function parseLocal(text: string, ctx: ChainAddressContext): Uint8Array {
  const sep = text.indexOf('-');
  if (sep < 0) throw new AddressError('no separator found in address');
  const { hrp, data } = decodeBech32(text.slice(sep + 1));
  let chainID: string;
  try {
    chainID = ctx.aliases.lookup(text.slice(0, sep));
  } catch (err) {
    throw new AddressError((err as Error).message);
  }
  if (hrp !== ctx.hrp) throw new AddressError(`expected hrp ${goQuote(ctx.hrp)} but got ${goQuote(hrp)}`);
  if (data.length !== 20) throw new AddressError(`invalid hash length: expected 20 bytes but got ${data.length}`);
  if (chainID !== ctx.chainID) throw new AddressError(`expected chainID to be ${goQuote(ctx.chainID)} but was ${goQuote(chainID)}`);
  return data;
}

/** ParseServiceAddress: a cb58 ShortID first; otherwise the local form's error is the one reported. */
export function parseServiceAddress(text: string, ctx: ChainAddressContext): Uint8Array {
  try {
    const raw = decodeCB58(text);
    if (raw.length === 20) return raw;
  } catch {
    // not a raw ShortID: the bech32 form decides
  }
  return parseLocal(text, ctx);
}

/** FormatLocalAddress: the chain's primary alias, the network's HRP. */
export function formatLocalAddress(address: Uint8Array, ctx: ChainAddressContext): string {
  return `${ctx.aliases.primaryAlias(ctx.chainID)}-${bech32.encode(ctx.hrp, bech32.toWords(address), false)}`;
}
