// Emulator controls for faults and the request journal: API faults (per route or method: latency,
// an error in the endpoint's dialect, an HTTP status, a dropped connection) beside the health-check
// faults, listed and cleared together; and the journal of the requests the node served.
import type { Health } from '../../health/health.js';
import { type FaultKind, FaultError, type Faults } from '../../rpc/faults.js';
import type { BlockStalls } from '../../chains/stalls.js';
import type { Journal } from '../../rpc/journal.js';
import { method, RpcError } from '../../rpc/method.js';
import { float, int, none, optional, string, struct, uint32, uint64 } from '../../rpc/schema.js';

export interface StallTarget {
  stalls: BlockStalls;
  /** A chain's ID (cb58) by ID or alias, if the node runs it (every chain can be stalled). */
  stallable(chain: string): string | undefined;
}

export function faultMethods(faults: Faults, journal: Journal, health: Health, blocks: StallTarget) {
  const all = () => ({ faults: faults.list(), healthFaults: health.activeFaults(), stalledChains: blocks.stalls.list() });
  return {
    addFault: method(
      struct({
        route: optional(string),
        method: optional(string),
        chain: optional(string),
        kind: string,
        latencyMs: optional(uint32),
        code: optional(int),
        message: optional(string),
        status: optional(uint32),
        body: optional(string),
        probability: optional(float),
        seed: optional(uint32),
        count: optional(uint32),
      }),
      (a) => {
        if (a.kind === 'stall') {
          // Stalled block production: a chain-level fault, listed under stalledChains.
          const id = a.chain === undefined ? undefined : blocks.stallable(a.chain);
          if (id === undefined) throw new RpcError(`a stall needs "chain": a chain the node runs (P, X, C or an L1), by ID or alias`);
          blocks.stalls.stall(id);
          return { id: 0, ...all() };
        }
        try {
          const fault = faults.add({
            ...(a.route !== undefined ? { route: a.route } : {}),
            ...(a.method !== undefined ? { method: a.method } : {}),
            kind: a.kind as FaultKind,
            ...(a.latencyMs !== undefined ? { latencyMs: Number(a.latencyMs) } : {}),
            ...(a.code !== undefined ? { code: a.code } : {}),
            ...(a.message !== undefined ? { message: a.message } : {}),
            ...(a.status !== undefined ? { status: Number(a.status) } : {}),
            ...(a.body !== undefined ? { body: a.body } : {}),
            ...(a.probability !== undefined ? { probability: a.probability } : {}),
            ...(a.seed !== undefined ? { seed: Number(a.seed) } : {}),
            ...(a.count !== undefined ? { count: Number(a.count) } : {}),
          });
          return { id: fault.id, ...all() };
        } catch (err) {
          if (err instanceof FaultError) throw new RpcError(err.message);
          throw err;
        }
      },
    ),
    faults: method(none, all),
    /** Clears every fault: the API faults and the health-check faults. */
    clearFaults: method(none, async () => {
      faults.clear();
      blocks.stalls.resumeAll();
      for (const name of Object.keys(health.activeFaults())) await health.clearFault(name);
      return all();
    }),
    journal: method(
      struct({
        route: optional(string),
        method: optional(string),
        status: optional(uint32),
        after: optional(uint64),
        before: optional(uint64),
        limit: optional(uint32),
      }),
      (q) =>
        journal.query({
          ...(q.route !== undefined ? { route: q.route } : {}),
          ...(q.method !== undefined ? { method: q.method } : {}),
          ...(q.status !== undefined ? { status: Number(q.status) } : {}),
          ...(q.after !== undefined ? { after: Number(q.after) } : {}),
          ...(q.before !== undefined ? { before: Number(q.before) } : {}),
          ...(q.limit !== undefined ? { limit: Number(q.limit) } : {}),
        }),
    ),
    clearJournal: method(struct({ route: optional(string) }), ({ route }) => {
      journal.clear(route);
      return {};
    }),
  };
}
