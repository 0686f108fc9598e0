// The primary network's chains as the chain manager knows them: IDs, aliases (genesis aliases
// first, then the ID string added at creation), and the consensus state each one reports.
import type { ChainStatus } from '../health/checks.js';
import { Aliaser } from './aliases.js';
import { LOCAL_C_CHAIN_ID, LOCAL_X_CHAIN_ID, P_CHAIN_ID, VM_IDS } from './ids.js';
import { xGenesisBlock } from './x/genesis.js';

export interface Chain {
  /** The primary alias: also the chain's logger and health-check name. */
  alias: 'P' | 'X' | 'C';
  id: string;
  vmId: string;
  /** Consensus state, for chains the emulator runs. */
  status: ChainStatus | undefined;
}

export class ChainRegistry {
  readonly aliaser = new Aliaser();
  readonly chains: Chain[];

  constructor() {
    const genesis = xGenesisBlock(LOCAL_X_CHAIN_ID);
    this.chains = [
      { alias: 'P', id: P_CHAIN_ID, vmId: VM_IDS.platform, status: undefined },
      { alias: 'X', id: LOCAL_X_CHAIN_ID, vmId: VM_IDS.avm, status: { lastAccepted: () => ({ height: genesis.height, id: genesis.id }), processing: () => 0 } },
      { alias: 'C', id: LOCAL_C_CHAIN_ID, vmId: VM_IDS.evm, status: undefined },
    ];
    const genesisAliases: Record<string, string[]> = { P: ['P', 'platform'], X: ['X', 'avm'], C: ['C', 'evm'] };
    for (const chain of this.chains) for (const a of genesisAliases[chain.alias]!) this.aliaser.alias(chain.id, a);
    for (const chain of this.chains) this.aliaser.alias(chain.id, chain.id);
  }

  byAlias(alias: string): Chain | undefined {
    if (!this.aliaser.has(alias)) return undefined;
    const id = this.aliaser.lookup(alias);
    return this.chains.find((c) => c.id === id);
  }
}
