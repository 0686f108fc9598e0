// The VMs the node's factories made, kept as each factory typed them: the primary network's chains
// and every EVM chain by ID, so that nothing needs to guess a chain's VM from its shape.
import { type ChainContext, type ChainVM, isPrimaryNetwork, type VmFactory } from '../chains/manager.js';
import { encodeCB58 } from '../encoding/cb58.js';
import type { AvmChain } from '../vms/avm/index.js';
import type { EvmChainVM } from '../vms/evm/index.js';
import type { PlatformChainVM } from '../vms/platform/index.js';

export class NodeVMs {
  private p: PlatformChainVM | undefined;
  private x: AvmChain | undefined;
  /** The EVM chains (the C-Chain and every Subnet-EVM chain), by CB58 blockchain ID. */
  private readonly evms = new Map<string, EvmChainVM>();
  private cID: string | undefined;

  /** The platform VM's factory, noting the P-Chain it makes. */
  platform(factory: VmFactory<PlatformChainVM>): VmFactory<PlatformChainVM> {
    return made(factory, (vm) => {
      this.p = vm;
    });
  }

  /** The AVM's factory, noting the X-Chain it makes. */
  avm(factory: VmFactory<AvmChain>): VmFactory<AvmChain> {
    return made(factory, (vm) => {
      this.x = vm;
    });
  }

  /** An EVM factory, noting each chain it makes (coreth's on the primary network is the C-Chain). */
  evm(factory: VmFactory<EvmChainVM>, coreth = false): VmFactory<EvmChainVM> {
    return made(factory, (vm, ctx) => {
      const id = encodeCB58(ctx.chainID);
      this.evms.set(id, vm);
      if (coreth && isPrimaryNetwork(ctx.subnetID)) this.cID = id;
    });
  }

  get pChain(): PlatformChainVM['pChain'] {
    if (!this.p) throw new Error('the P-Chain is not created yet');
    return this.p.pChain;
  }

  get xChain(): AvmChain['xChain'] {
    if (!this.x) throw new Error('the X-Chain is not created yet');
    return this.x.xChain;
  }

  get cChain(): EvmChainVM {
    const c = this.cID === undefined ? undefined : this.evms.get(this.cID);
    if (!c) throw new Error('the C-Chain is not created yet');
    return c;
  }

  /** Every EVM chain, with its blockchain ID (CB58). */
  evmChains(): Array<{ id: string; evm: EvmChainVM['evm'] }> {
    return [...this.evms].map(([id, vm]) => ({ id, evm: vm.evm }));
  }

  /** The EVM chain of this blockchain ID (CB58), if it is one. */
  evmChain(id: string): EvmChainVM | undefined {
    return this.evms.get(id);
  }
}

function made<V extends ChainVM>(factory: VmFactory<V>, note: (vm: V, ctx: ChainContext) => void): VmFactory<V> {
  return {
    ...factory,
    async create(ctx) {
      const vm = await factory.create(ctx);
      note(vm, ctx);
      return vm;
    },
  };
}
