// The primary network's chains as the chain manager knows them: IDs (derived from the network's
// genesis), aliases (genesis aliases first, then the ID string added at creation), and the
// consensus state of the chains the emulator runs.
import { encodeCB58 } from '../encoding/cb58.js';
import type { ChainStatus } from '../health/checks.js';
import { Aliaser } from './aliases.js';
import { primaryNetworkIds } from './genesis.js';
import { P_CHAIN_ID, VM_IDS } from './ids.js';

export interface Chain {
  /** The primary alias: also the chain's logger and health-check name. */
  alias: 'P' | 'X' | 'C';
  id: string;
  idBytes: Uint8Array;
  vmId: string;
  /** Consensus state, for chains the emulator runs (set when the chain starts). */
  status: ChainStatus | undefined;
}

export class ChainRegistry {
  readonly aliaser = new Aliaser();
  readonly chains: Chain[];

  constructor(networkId: number) {
    const { xChainId, cChainId } = primaryNetworkIds(networkId);
    const chain = (alias: Chain['alias'], idBytes: Uint8Array, vmId: string): Chain => ({ alias, id: encodeCB58(idBytes), idBytes, vmId, status: undefined });
    this.chains = [
      chain('P', new Uint8Array(32), VM_IDS.platform),
      chain('X', xChainId, VM_IDS.avm),
      chain('C', cChainId, VM_IDS.evm),
    ];
    if (this.chains[0]!.id !== P_CHAIN_ID) throw new Error('P-Chain ID must be the empty ID');
    const genesisAliases: Record<string, string[]> = { P: ['P', 'platform'], X: ['X', 'avm'], C: ['C', 'evm'] };
    for (const c of this.chains) for (const a of genesisAliases[c.alias]!) this.aliaser.alias(c.id, a);
    for (const c of this.chains) this.aliaser.alias(c.id, c.id);
  }

  byAlias(alias: string): Chain | undefined {
    if (!this.aliaser.has(alias)) return undefined;
    const id = this.aliaser.lookup(alias);
    return this.chains.find((c) => c.id === id);
  }

  get(alias: Chain['alias']): Chain {
    return this.chains.find((c) => c.alias === alias)!;
  }
}
