// The addresses a P- or X-Chain block deals with, as its VM publishes them on the accepted stream
// (chains/acceptance.ts BlockAddresses): the owners of what its txs create (outputs, stake,
// rewards, subnet and L1 owners), and apart, the owners of what they export, by destination chain.
import type { BlockAddresses } from '../../../chains/acceptance.js';
import { fromHex } from '../../../encoding/bytes.js';

/**
 * Every owners object (locktime, threshold, addresses) in a decoded value, its 20-byte addresses
 * as hex; an export's outputs are left out (they are the destination chain's).
 */
function ownerAddresses(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 12 || value === null || typeof value !== 'object' || value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    for (const v of value) ownerAddresses(v, out, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.addresses) && typeof o.threshold === 'number') {
    for (const a of o.addresses) if (a instanceof Uint8Array && a.length === 20) out.add(Buffer.from(a).toString('hex'));
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'bytes' && k !== 'credentials' && k !== 'exportedOutputs') ownerAddresses(v, out, depth + 1);
}

/** The addresses of `block`, whose txs are `txs`: an export counts for its destination chain too. */
export function blockAddresses(block: object, txs: ReadonlyArray<{ unsigned: object }>): BlockAddresses {
  const owners = new Set<string>();
  ownerAddresses(block, owners);
  const exported = new Map<string, Set<string>>();
  for (const { unsigned } of txs) {
    if (!('destinationChain' in unsigned)) continue;
    const u = unsigned as { destinationChain: Uint8Array; exportedOutputs?: unknown };
    const to = Buffer.from(u.destinationChain).toString('hex');
    const set = exported.get(to) ?? new Set<string>();
    exported.set(to, set);
    ownerAddresses({ outputs: u.exportedOutputs }, set);
  }
  const bytes = (set: Set<string>) => [...set].map((a) => fromHex(a));
  return { owners: bytes(owners), exported: [...exported].map(([chain, set]) => ({ chainID: fromHex(chain), owners: bytes(set) })) };
}
