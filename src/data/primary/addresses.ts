// Which primary-network chains an address has dealt with (getChainIdsForAddresses): each accepted
// P- and X-Chain block's txs are read for the owners of what they create (outputs, stake, rewards,
// subnet and L1 owners), recorded in the block's own write (an acceptor of the accepted stream).
// Every UTXO an address ever spent was first created for it, so the owners of created outputs cover
// spenders too; what genesis gave and is still unspent is read from the chains' UTXO sets.
import type { AcceptedBlock, BlockAcceptor } from '../../chains/acceptance.js';
import { parseOuterHeader } from '../../chains/proposervm.js';
import type { Database, WriteBatch } from '../../storage/db.js';
import { parseBlock as parseXBlock } from '../../vms/avm/codec/block.js';
import { parseBlock as parsePBlock } from '../../vms/platform/codec/block.js';

const P_CHAIN = new Uint8Array(32);

/** Every owners object (locktime, threshold, addresses) in a decoded tx, its 20-byte addresses. */
export function ownerAddresses(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 12 || value === null || typeof value !== 'object' || value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    for (const v of value) ownerAddresses(v, out, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.addresses) && typeof o.threshold === 'number') {
    for (const a of o.addresses) if (a instanceof Uint8Array && a.length === 20) out.add(Buffer.from(a).toString('hex'));
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'bytes' && k !== 'credentials') ownerAddresses(v, out, depth + 1);
}

const key = (address: Uint8Array, chainID: Uint8Array) => Buffer.concat([address, chainID]);

export class AddressChains implements BlockAcceptor {
  constructor(
    private readonly db: Database,
    /** The X-Chain's ID, once it exists. */
    private readonly xChainID: () => Uint8Array | undefined,
  ) {}

  async prepare(block: AcceptedBlock, batch: WriteBatch): Promise<void> {
    const isP = Buffer.from(block.chainID).equals(P_CHAIN);
    const x = this.xChainID();
    const isX = x !== undefined && Buffer.from(block.chainID).equals(Buffer.from(x));
    if (!isP && !isX) return;
    const inner = parseOuterHeader(block.bytes)?.inner ?? block.bytes;
    const addresses = new Set<string>();
    try {
      ownerAddresses(isP ? parsePBlock(inner) : parseXBlock(inner), addresses);
    } catch {
      return; // not a block this reads (the P-Chain's genesis block)
    }
    for (const a of addresses) batch.put(this.db, key(Buffer.from(a, 'hex'), block.chainID), new Uint8Array());
  }

  committed(): void {}

  async touched(address: Uint8Array, chainID: Uint8Array): Promise<boolean> {
    return (await this.db.get(key(address, chainID))) !== undefined;
  }
}
