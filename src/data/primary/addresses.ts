// Which primary-network chains an address has dealt with (getChainIdsForAddresses): each accepted
// P- and X-Chain block's txs are read for the owners of what they create (outputs, stake, rewards,
// subnet and L1 owners), recorded in the block's own write (an acceptor of the accepted stream).
// Every UTXO an address ever spent was first created for it, so the owners of created outputs cover
// spenders too; what genesis gave and is still unspent is read from the chains' UTXO sets. An export
// counts for its destination too (the C-Chain among them): its owners can spend it only by importing there.
import type { AcceptedBlock, BlockAcceptor } from '../../chains/acceptance.js';
import { parseOuterHeader } from '../../chains/proposervm.js';
import type { Database, WriteBatch } from '../../storage/db.js';
import { parseBlock as parseXBlock } from '../../vms/avm/codec/block.js';
import { parseBlock as parsePBlock } from '../../vms/platform/codec/block.js';

const P_CHAIN = new Uint8Array(32);

/**
 * Every owners object (locktime, threshold, addresses) in a decoded tx, its 20-byte addresses; an
 * export's outputs are left out (they are the destination chain's, see prepare).
 */
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
  for (const [k, v] of Object.entries(o)) if (k !== 'bytes' && k !== 'credentials' && k !== 'exportedOutputs') ownerAddresses(v, out, depth + 1);
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
    /** Exports, by destination chain: their owners can only spend them by importing there. */
    const exported = new Map<string, Set<string>>();
    try {
      const parsed = isP ? parsePBlock(inner) : parseXBlock(inner);
      ownerAddresses(parsed, addresses);
      const txs = [...('txs' in parsed ? parsed.txs : []), ...('decisionTxs' in parsed ? parsed.decisionTxs : []), ...('tx' in parsed ? [parsed.tx] : [])];
      for (const { unsigned } of txs) {
        if (!('destinationChain' in unsigned)) continue;
        const to = Buffer.from(unsigned.destinationChain).toString('hex');
        const set = exported.get(to) ?? new Set<string>();
        exported.set(to, set);
        ownerAddresses({ outputs: unsigned.exportedOutputs }, set);
      }
    } catch {
      return; // not a block this reads (the P-Chain's genesis block)
    }
    for (const a of addresses) batch.put(this.db, key(Buffer.from(a, 'hex'), block.chainID), new Uint8Array());
    for (const [chain, owners] of exported) {
      for (const a of owners) batch.put(this.db, key(Buffer.from(a, 'hex'), Buffer.from(chain, 'hex')), new Uint8Array());
    }
  }

  committed(): void {}

  async touched(address: Uint8Array, chainID: Uint8Array): Promise<boolean> {
    return (await this.db.get(key(address, chainID))) !== undefined;
  }
}
