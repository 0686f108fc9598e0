// Which primary-network chains an address has dealt with (getChainIdsForAddresses): for each
// accepted P- and X-Chain block, the addresses its VM published with it (the owners of what its txs
// create: outputs, stake, rewards, subnet and L1 owners), recorded in the block's own write (an
// acceptor of the accepted stream, which parses no VM's block). Every UTXO an address ever spent was
// first created for it, so the owners of created outputs cover spenders too; what genesis gave and is
// still unspent is read from the chains' UTXO sets. An export counts for its destination too (the
// C-Chain among them): its owners can spend it only by importing there.
import type { AcceptedBlock, BlockAcceptor } from '../../chains/acceptance.js';
import type { Database, WriteBatch } from '../../storage/db.js';

const P_CHAIN = new Uint8Array(32);

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
    const touched = block.addresses;
    if (!touched) return; // its VM published none
    for (const a of touched.owners) batch.put(this.db, key(a, block.chainID), new Uint8Array());
    for (const { chainID, owners } of touched.exported) {
      for (const a of owners) batch.put(this.db, key(a, chainID), new Uint8Array());
    }
  }

  committed(): void {}

  async touched(address: Uint8Array, chainID: Uint8Array): Promise<boolean> {
    return (await this.db.get(key(address, chainID))) !== undefined;
  }
}
