// X- and P-Chain address text (vms/components/avax): `<alias>-<hrp>1<bech32>` out; in, ParseServiceAddress (a raw cb58
// ShortID, or <chain alias>-<bech32>), with btcutil's bech32 error texts in btcutil's order.
import { bech32, bech32m } from '@scure/base';
import { decodeCB58 } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';
import type { Aliaser } from '../../../chains/aliases.js';

export class AddressError extends Error {}

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

export function formatAddress(chainAlias: string, hrp: string, address: Uint8Array): string {
  return `${chainAlias}-${bech32.encode(hrp, bech32.toWords(address), false)}`;
}

/** btcutil bech32.Decode: the same checks in the same order, with its messages. */
export function decodeBech32(text: string): { hrp: string; data: Uint8Array } {
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
  const dataPart = lower.slice(one + 1);
  const words: number[] = [];
  for (const ch of dataPart) {
    const v = CHARSET.indexOf(ch);
    if (v < 0) throw new AddressError(`invalid character not part of charset: ${ch.charCodeAt(0)}`);
    words.push(v);
  }
  const payload = words.slice(0, -6);
  let decoded: { words: number[] };
  try {
    decoded = bech32.decode(lower as `${string}1${string}`, 90);
  } catch {
    const expected = bech32.encode(hrp, payload, false).slice(-6);
    const expectedM = bech32m.encode(hrp, payload, false).slice(-6);
    throw new AddressError(`invalid checksum (expected (bech32=${expected}, bech32m=${expectedM}), got ${lower.slice(-6)})`);
  }
  let data: Uint8Array;
  try {
    data = bech32.fromWords(decoded.words);
  } catch {
    throw new AddressError('unable to convert address from 5-bit to 8-bit formatting');
  }
  return { hrp, data };
}

export interface AddressContext {
  hrp: string;
  chainId: string;
  chainAliases: Aliaser;
}

/** ParseLocalAddress: <alias>-<bech32> for this chain and network. */
function parseLocal(text: string, ctx: AddressContext): Uint8Array {
  const sep = text.indexOf('-');
  if (sep < 0) throw new AddressError('no separator found in address');
  const alias = text.slice(0, sep);
  const { hrp, data } = decodeBech32(text.slice(sep + 1));
  let chainId: string;
  try {
    chainId = ctx.chainAliases.lookup(alias);
  } catch (err) {
    throw new AddressError((err as Error).message);
  }
  if (chainId !== ctx.chainId) throw new AddressError(`mismatched chainIDs: expected ${goQuote(ctx.chainId)} but got ${goQuote(chainId)}`);
  if (hrp !== ctx.hrp) throw new AddressError(`expected hrp ${goQuote(ctx.hrp)} but got ${goQuote(hrp)}`);
  if (data.length !== 20) throw new AddressError(`expected 20 bytes but got ${data.length}`);
  return data;
}

/** avax.ParseServiceAddress: errors read `couldn't parse address "<a>": <cause>`. */
export function parseServiceAddress(text: string, ctx: AddressContext): Uint8Array {
  try {
    const raw = decodeCB58(text);
    if (raw.length === 20) return raw;
  } catch {
    // not a raw ShortID: try the bech32 form
  }
  try {
    return parseLocal(text, ctx);
  } catch (err) {
    throw new AddressError(`couldn't parse address ${goQuote(text)}: ${(err as Error).message}`);
  }
}
