// proposervm's own API (avalanchego vms/proposervm/service.go), at /ext/bc/<chain>/proposervm for
// every chain that runs under proposervm: the P-Chain height its next block would carry, and the
// ACP-181 epoch of a block built now.
import type { ProposerVM } from '../../chains/proposervm.js';
import { method, type ServiceDef } from '../../rpc/method.js';
import { none } from '../../rpc/schema.js';

export function proposervmService(proposer: ProposerVM): ServiceDef {
  return {
    name: 'proposervm',
    methods: {
      getProposedHeight: method(none, () => ({ height: String(proposer.proposedHeight()) })),
      getCurrentEpoch: method(none, () => {
        const e = proposer.currentEpoch();
        return { number: String(e.number), startTime: String(e.startTime), pChainHeight: String(e.pChainHeight) };
      }),
    },
  };
}
