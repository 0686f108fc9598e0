// Address text on the C-Chain's avax API (coreth atomic/vm/formatting.go): a raw cb58 ShortID, or
// <alias>-<bech32> whose alias names this chain; out, C-<hrp>1…. coreth checks in its own order:
// the bech32 (btcutil's texts), then the alias, the HRP, the length, and last the chain. (The
// bech32 decoder is vms/components' one, shared with the X- and P-Chains.)
import { bech32 } from '@scure/base';
import { AddressError, decodeBech32 } from '../../components/avax/address.js';
import type { Aliaser } from '../../../chains/aliases.js';
import { decodeCB58 } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';

export { AddressError };

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
