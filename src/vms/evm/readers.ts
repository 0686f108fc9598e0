// The chain's readers: VMs over past states, for eth_call and estimates, the state getters, traces'
// set-up and the rules at a block. A reader runs one read at a time (a read ends in a revert of what
// it wrote). On LevelDB, or on a fork, a read waits on I/O (a store read on libuv's threads, an
// upstream's reply), so there up to READERS readers run reads side by side, each with caches of its
// own (the trie memo they share is content-addressed: a value at a root never changes); Foundry's
// parallel tests on a fork no longer queue behind each other's upstream fetches. On memdb without a
// fork a read waits on nothing but the CPU, and one reader, with one set of warm caches, serves all.
import type { VM } from '@ethereumjs/vm';
import { toHex as hex } from '../../encoding/bytes.js';
import { countedState } from './execution.js';

/** Readers side by side at most, where reads wait on I/O. */
export const READERS = 4;

interface Reader {
  vm: VM;
  /** The state root it is set to ('' for none yet). */
  root: string;
  /** The readers' generation it was set in: an older one sets its root again. */
  generation: number;
}

export class Readers {
  private readonly idle: Reader[] = [];
  private readonly waiting: Array<(reader: Reader) => void> = [];
  /** Every read under way or waiting for a reader. */
  private readonly running = new Set<Promise<unknown>>();
  private made = 1;
  private generation = 0;

  /**
   * `first`: the reader made at the chain's open, at state `root` (a fork's is not checked there:
   * its upstream is probed first); `make` makes another, up to `limit` readers in all (the store's
   * kind and the fork decide: a chain that becomes a fork at run time is a new chain).
   */
  constructor(
    first: VM,
    root: Uint8Array,
    private readonly make: () => Promise<VM>,
    private readonly limit: number,
  ) {
    this.idle.push({ vm: first, root: hex(root), generation: 0 });
  }

  /** Runs `fn` on a reader at state `root`, alone on that reader. */
  run<T>(root: Uint8Array, fn: (vm: VM) => Promise<T>): Promise<T> {
    const read = this.read(root, fn);
    this.running.add(read);
    const done = () => this.running.delete(read);
    read.then(done, done);
    return read;
  }

  /** Resolves once every read under way or waiting now has ended (later ones may start meanwhile). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** The store went back to a snapshot: each reader sets its state root again at its next read. */
  forgetRoots(): void {
    this.generation++;
  }

  private async read<T>(root: Uint8Array, fn: (vm: VM) => Promise<T>): Promise<T> {
    const key = hex(root);
    const reader = await this.acquire(key);
    try {
      const sm = countedState(reader.vm);
      if (reader.root !== key || reader.generation !== this.generation) {
        const generation = this.generation;
        await sm.setStateRoot(root);
        reader.root = key;
        reader.generation = generation;
      }
      const depth = sm.depth;
      sm.checkpoint();
      try {
        return await fn(reader.vm);
      } finally {
        await sm.unwindTo(depth);
      }
    } finally {
      this.release(reader);
    }
  }

  /** An idle reader (one at `root` first, its caches warm), a new one while under the limit, or the next released. */
  private async acquire(root: string): Promise<Reader> {
    const at = this.idle.findIndex((r) => r.root === root && r.generation === this.generation);
    if (at >= 0) return this.idle.splice(at, 1)[0]!;
    const last = this.idle.pop();
    if (last) return last;
    if (this.made < this.limit) {
      this.made++;
      try {
        return { vm: await this.make(), root: '', generation: -1 };
      } catch (err) {
        this.made--;
        throw err;
      }
    }
    return new Promise<Reader>((resolve) => this.waiting.push(resolve));
  }

  private release(reader: Reader): void {
    const next = this.waiting.shift();
    if (next) next(reader);
    else this.idle.push(reader);
  }
}
