// A scratch layer over the chain's node store for re-executions (traces): it reads the chain's nodes
// and keeps its own writes, so the intermediate states a trace computes never reach the database.
import type { BatchDBOp, DB } from '@ethereumjs/util';
import { keyHex, type NodeStore } from './nodes.js';

type Value = Uint8Array | string;

export class ScratchStore implements DB<string, Value> {
  private readonly own = new Map<string, Value>();

  constructor(private readonly base: NodeStore) {}

  /** The base's fork: a re-execution on a forked chain reads the upstream's state as the chain does. */
  get fork() {
    return this.base.fork;
  }

  async get(key: string): Promise<Value | undefined> {
    return this.own.get(keyHex(key)) ?? this.base.get(key);
  }

  async put(key: string, value: Value): Promise<void> {
    this.own.set(keyHex(key), value);
  }

  async del(): Promise<void> {}

  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.own.set(keyHex(op.key), op.value);
  }

  shallowCopy(): DB<string, Value> {
    return this;
  }

  async open(): Promise<void> {}
}
