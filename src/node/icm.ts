// ICM on the node's chains (--icm, on by default): the messenger placed on the C-Chain and on each
// EVM chain whose warp precompile is on (at start-up, and on a chain created at run time as soon as
// the chain starts), and the relayer that delivers between them, with its controls, its health
// check and its place in the node's snapshots. A forked chain is left as its upstream has it.
import type { Rewindable } from '../chains/states.js';
import { fromHex0x, toHex0x } from '../encoding/bytes.js';
import type { Health } from '../health/health.js';
import { APPLICATION_TAG } from '../health/worker.js';
import { RELAYER_ADDRESS, RELAYER_KEY } from '../relayer/key.js';
import { RelayerStore } from '../relayer/records.js';
import { IcmRelayer } from '../relayer/relayer.js';
import { icmMethods } from '../relayer/service.js';
import { type EvmChain, placeIcm } from '../vms/evm/index.js';
import type { Shell } from './shell.js';

export class NodeIcm {
  readonly relayer: IcmRelayer;
  private readonly store: RelayerStore;

  constructor(
    private readonly shell: Shell,
    health: Health,
    /** A chain's ID (CB58) by ID or alias, if the node runs it (the chain manager's aliases). */
    private readonly chainID: (idOrAlias: string) => string | undefined,
  ) {
    const { config, db, main } = shell;
    this.store = new RelayerStore(db.prefix('relayer'));
    this.relayer = new IcmRelayer({
      store: this.store,
      log: main,
      key: RELAYER_KEY,
      address: fromHex0x(RELAYER_ADDRESS),
      delayBlocks: config.icmRelayerDelayBlocks,
    });
    if (!config.icmRelayer) this.relayer.pause();
    health.registerHealthCheck('icm-relayer', () => this.check(), [APPLICATION_TAG]);
  }

  /**
   * Places ICM on `chain` (CB58 `id`) and has the relayer follow it; nothing where warp is off or the
   * chain is a fork. `later`: the relayer starts following after this resolves (a chain created
   * inside the P-Chain's acceptance of its CreateChainTx, which must not wait for the relayer).
   */
  async add(id: string, chain: EvmChain, later = false): Promise<void> {
    if (chain.forkedAt !== undefined) return;
    const placed = await placeIcm(chain, { relayer: this.relayer.address });
    if (placed === 'no-warp') return;
    const following = this.relayer.follow(id, chain);
    if (!later) return following;
    following.catch((err) => this.shell.main.error('the ICM relayer could not follow a new chain', { chainID: id, error: (err as Error).message }));
  }

  /** The controls (emulator.icm*). */
  methods() {
    return icmMethods({ relayer: this.relayer, chainID: this.chainID });
  }

  /**
   * Fails while the relayer cannot pay for a delivery on some chain: a send the pool refused for
   * funds, and a balance still under what that tx needed. Once the account holds enough (a
   * transfer, anvil_setBalance), the check passes and the relayer tries again at once.
   */
  private async check() {
    const short: string[] = [];
    const balances: Record<string, string> = {};
    for (const { id } of this.relayer.followed()) {
      const balance = await this.relayer.balanceOn(id);
      balances[id] = balance.toString();
      const refused = this.relayer.fundsShort.get(id);
      if (!refused) continue;
      if (balance >= refused.need) this.relayer.funded(id);
      else
        short.push(
          `the ICM relayer ${toHex0x(this.relayer.address)} cannot pay for deliveries on ${id}: balance ${balance} wei, a delivery needs ${refused.need} wei (${refused.text})`,
        );
    }
    const details = { relayer: toHex0x(this.relayer.address), balances, ...this.relayer.state };
    return short.length > 0 ? { details, error: short.join('; ') } : { details };
  }

  rewindable(): Rewindable {
    return {
      prefixes: [this.store.db.keyPrefix],
      hold: () => this.relayer.hold(),
      reload: async (changes) => {
        this.store.rewindCursors(changes);
        this.relayer.forget(this.store.recordsChanged(changes));
        return true;
      },
    };
  }

  close(): Promise<void> {
    return this.relayer.close();
  }
}
