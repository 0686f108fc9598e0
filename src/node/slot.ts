// The core the shell currently serves, and how it is replaced: reverting, loading or resetting the
// node's state closes the core, lets the store be rewritten, and builds the core again on it, as a
// restart would, while new requests wait.
import type { DevSettings } from '../vms/evm/index.js';
import { buildCore } from './core.js';
import { type Core, type Shell, StartError } from './shell.js';

export class CoreSlot {
  core: Core | undefined;
  /** While the core is rebuilt (or the state changes in place): what new requests wait for. */
  rebuilding: Promise<void> | undefined;
  /** Ends the websocket clients of the core being replaced; returns what ends them (the server sets it). */
  endSockets: () => () => void = () => () => {};

  constructor(private readonly shell: Shell) {}

  async build(): Promise<Core> {
    this.core = await buildCore(this.shell);
    return this.core;
  }

  /** The core; while it is being rebuilt, a StartError. */
  current(): Core {
    if (!this.core) throw new StartError('the node is being rebuilt');
    return this.core;
  }

  /** Runs `fn` while new requests wait (and after any change under way): the node's state changes under them. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.rebuilding) await this.rebuilding;
    let done!: () => void;
    this.rebuilding = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      return await fn();
    } finally {
      this.rebuilding = undefined;
      done();
    }
  }

  /**
   * Closes the core, lets `change` rewrite the store, and builds the core again on what it left
   * (within `exclusive`). The EVM chains' dev settings (automine, interval mining, impersonation,
   * ...) carry over, as Anvil's outlive its reverts, unless `fresh` (a reset); after a revert their
   * block time goes on from their restored heads'.
   */
  async rebuild(change: () => Promise<void>, mode: 'carry' | 'revert' | 'fresh' = 'carry'): Promise<void> {
    const { db, clock, main } = this.shell;
    const old = this.current();
    const healthFaults = old.health.activeFaults();
    // Every chain's settings, each taken by its chain as it is made again (before its pool reloads);
    // the old state's core takes them too should the change fail; a reset keeps none.
    const dev = new Map<string, DevSettings>();
    // A revert's chains take their block time from their restored heads, as an in-place revert's do.
    for (const c of old.evmChains()) dev.set(c.id, mode === 'revert' ? { ...c.evm.dev.settings(), clockFromHead: true } : c.evm.dev.settings());
    // What to go back to if the changed store cannot be built on (a foreign dump, say).
    const before = await db.everything();
    const offset = clock.offsetNs;
    this.core = undefined;
    // The old core's websocket clients are ended once this rebuild has answered (its own caller may be one).
    const endSockets = this.endSockets();
    await old.close();
    try {
      await change();
      this.core = await buildCore({ ...this.shell, healthFaults, ...(mode === 'fresh' ? {} : { devSettings: dev }) });
    } catch (err) {
      main.error('the node could not be rebuilt on the changed state; it goes back to the state before', { error: (err as Error).message });
      await db.replaceEverything(before);
      clock.offsetNs = offset;
      // The node is back as it was, its chains' dev settings (and instanceIds) too.
      this.core = await buildCore({ ...this.shell, healthFaults, devSettings: dev });
      throw err;
    } finally {
      setTimeout(endSockets, 100).unref();
    }
  }
}
