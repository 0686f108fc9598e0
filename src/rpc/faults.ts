// Injected API faults (emulator controls): per route (an HTTP path) or per JSON-RPC method, a
// latency, an error in the endpoint's own dialect, an HTTP status, or a dropped connection. Each
// fires with a probability drawn from its own seeded generator, so a run replays exactly, and may
// fire a limited number of times. The emulator's own route is never faulted: faults can always be
// listed and cleared.
import { type MethodDef, RpcError, type ServiceDef } from './method.js';
import { mulberry32 } from './mulberry32.js';

export type FaultKind = 'latency' | 'error' | 'status' | 'drop';

export interface FaultSpec {
  /** An HTTP path (/ext/bc/C/rpc); with `method`, both must match. */
  route?: string;
  /** A JSON-RPC method (eth_call, avm.getUTXOs). */
  method?: string;
  kind: FaultKind;
  /** latency: how long the request waits before it is served. */
  latencyMs?: number;
  /** error: the JSON-RPC error's code (the dialect's server error when 0) and message. */
  code?: number;
  message?: string;
  /** status: the HTTP status and body the route answers with. */
  status?: number;
  body?: string;
  /** 0 < p ≤ 1 (default 1): how often it fires, drawn from `seed`'s generator. */
  probability?: number;
  seed?: number;
  /** How many times it fires before it clears itself (default: until cleared). */
  count?: number;
}

export interface Fault extends FaultSpec {
  id: number;
  fired: number;
}

export class FaultError extends Error {}

const EMULATOR_ROUTE = '/ext/emulator';

export class Faults {
  private readonly faults = new Map<number, { fault: Fault; next: () => number }>();
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    if (spec.route === undefined && spec.method === undefined) throw new FaultError('a fault needs a route, a method, or both');
    if (spec.route === EMULATOR_ROUTE) throw new FaultError(`${EMULATOR_ROUTE} cannot be faulted`);
    if (!['latency', 'error', 'status', 'drop'].includes(spec.kind)) throw new FaultError(`unknown fault kind "${spec.kind}": latency, error, status or drop`);
    if (spec.kind === 'status' && spec.method !== undefined) throw new FaultError('a status fault applies to a route, not to a method');
    if (spec.kind === 'status' && (spec.status === undefined || spec.status < 100 || spec.status > 599))
      throw new FaultError('status must be an HTTP status, 100 to 599');
    if (spec.kind === 'latency' && !(spec.latencyMs !== undefined && spec.latencyMs >= 0 && spec.latencyMs <= 600_000)) {
      throw new FaultError('latencyMs must be 0 to 600000');
    }
    const probability = spec.probability ?? 1;
    if (!(probability > 0 && probability <= 1)) throw new FaultError('probability must be in (0, 1]');
    const fault: Fault = { ...spec, probability, seed: spec.seed ?? 1, id: this.nextId++, fired: 0 };
    this.faults.set(fault.id, { fault, next: mulberry32(fault.seed!) });
    return fault;
  }

  /** No fault is set: every request is served as it came, and nothing is drawn. */
  get empty(): boolean {
    return this.faults.size === 0;
  }

  list(): Fault[] {
    return [...this.faults.values()].map((f) => ({ ...f.fault }));
  }

  clear(): void {
    this.faults.clear();
  }

  /** The faults that fire now for a request to `route` (and, inside an endpoint, a call of `method`). */
  fire(route: string, method: string | undefined, kinds: readonly FaultKind[]): Fault[] {
    if (route === EMULATOR_ROUTE) return [];
    const out: Fault[] = [];
    for (const [id, entry] of this.faults) {
      const f = entry.fault;
      if (!kinds.includes(f.kind)) continue;
      if (f.route !== undefined && f.route !== route) continue;
      if (f.method !== undefined ? f.method !== method : method !== undefined) continue;
      if (entry.next() >= f.probability!) continue;
      f.fired++;
      if (f.count !== undefined && f.fired >= f.count) this.faults.delete(id);
      out.push({ ...f });
    }
    return out;
  }
}

const METHOD_FAULTS: readonly FaultKind[] = ['drop', 'error', 'latency'];

/**
 * A service whose methods first meet their method-level faults (`separator`: '.' for avalanchego's
 * dialect, '_' for geth's): a latency before the call, an error as the method's own (the dialect
 * shapes it), or the connection dropped. Without a fault firing, the call runs as it was.
 */
export function withFaults(service: ServiceDef, faults: Faults, separator: '.' | '_'): ServiceDef {
  const methods: Record<string, MethodDef> = {};
  for (const [name, def] of Object.entries(service.methods)) {
    const full = `${service.name}${separator}${name}`;
    methods[name] = {
      params: def.params,
      handler: (args, ctx) => {
        if (faults.empty) return def.handler(args, ctx);
        const url = ctx.request.url ?? '/';
        const q = url.indexOf('?');
        const fired = faults.fire(q < 0 ? url : url.slice(0, q), full, METHOD_FAULTS);
        if (fired.length === 0) return def.handler(args, ctx);
        if (fired.some((f) => f.kind === 'drop')) {
          ctx.request.socket.destroy();
          throw new RpcError('connection dropped by an injected fault');
        }
        const error = fired.find((f) => f.kind === 'error');
        if (error) throw new RpcError(error.message ?? 'injected fault', error.code === 0 ? undefined : error.code);
        const delay = fired.reduce((ms, f) => ms + (f.latencyMs ?? 0), 0);
        return new Promise((resolve) => setTimeout(resolve, delay)).then(() => def.handler(args, ctx));
      },
    };
  }
  return { name: service.name, methods };
}
