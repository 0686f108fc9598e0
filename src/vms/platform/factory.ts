// The P-Chain as far as it is emulated yet: a chain of the platform VM that serves the fee methods
// clients read before building txs, builds no blocks, and so has no consensus to report on.
import type { ChainRoute, VmFactory } from '../../chains/manager.js';
import type { ServiceDef } from '../../rpc/method.js';
import { platformService } from './service.js';

export function platformFactory(config: { genesisStartTime: number; serve(services: ServiceDef[]): ChainRoute }): VmFactory {
  return {
    proposervm: false,
    async create() {
      return { handlers: new Map([['', config.serve([platformService(config.genesisStartTime)])]]), close: async () => {} };
    },
  };
}
