// The Data API (/v1) and the Metrics API (/v2, and /v1/avg_tps): one handler, following every EVM
// chain from its creation (and backfilling one it never saw).
import type { AcceptedStream } from '../chains/acceptance.js';
import type { ChainManager } from '../chains/manager.js';
import { encodeCB58 } from '../encoding/cb58.js';
import { DataApi } from '../data/service.js';
import type { Router } from '../server/router.js';
import type { Shell } from './shell.js';
import type { NodeVMs } from './vms.js';

export function mountDataApi(shell: Shell, router: Router, stream: AcceptedStream, manager: ChainManager, vms: NodeVMs): DataApi {
  const { config, db, main, journal } = shell;
  const data = new DataApi({
    db: db.prefix('data'),
    stream,
    log: main,
    primary: () => ({
      pChain: vms.pChain,
      xChain: vms.xChain,
      cChain: vms.cChain.evm,
      xID: manager.get('X')!.id,
      cID: manager.get('C')!.id,
      hrp: config.hrp,
    }),
    journal,
    networkID: config.networkId,
    evmChain: (id) => {
      const vm = vms.evmChain(id);
      const chain = manager.get(id);
      return vm && chain ? { vm, subnetID: encodeCB58(chain.subnetID) } : undefined;
    },
  });
  const mount = data.mount();
  router.mount('/v1', mount);
  router.mount('/v2', mount);
  manager.onCreate(async (chain) => {
    const vm = vms.evmChain(chain.id);
    if (vm) data.addEvmChain({ blockchainID: chain.id, subnetID: encodeCB58(chain.subnetID), vmID: chain.vmID, alias: chain.alias, evm: vm.evm });
  });
  return data;
}
