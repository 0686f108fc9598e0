// avalanchego api/server/router.go: routes live under /ext/<base><endpoint>; an alias of a base mirrors
// every endpoint the base has and every one it gets later. Aliases are reserved even when their
// base does not exist yet (how /ext/X serves the X-Chain's routes once they register), and nothing
// is rolled back when a later step fails, exactly as on the real node.
import type { Handler } from './jsonrpc/endpoint.js';

export class RouteError extends Error {}

const url = (base: string) => `/ext/${base}`;

export class Router {
  private readonly routes = new Map<string, Map<string, Handler>>();
  private readonly reserved = new Set<string>();
  private readonly aliases = new Map<string, string[]>();
  /** The mux: full path -> the first handler registered for it. */
  private readonly paths = new Map<string, Handler>();

  /** `onAdd` hears of every route registered by addRoute (avalanchego logs them). */
  constructor(private readonly onAdd: (url: string, endpoint: string) => void = () => {}) {}

  addRoute(handler: Handler, base: string, endpoint = ''): void {
    const full = url(base);
    if (this.reserved.has(full)) throw new RouteError(`route is either already aliased or already maps to a handle: ${full}`);
    this.onAdd(full, endpoint);
    this.forceAdd(full, endpoint, handler);
  }

  /** admin.alias / aliasChain: `endpoint` and `aliases` are relative to /ext/. */
  addAliases(endpoint: string, ...aliases: string[]): void {
    const base = url(endpoint);
    const full = aliases.map(url);
    for (const alias of full) {
      if (this.reserved.has(alias)) throw new RouteError(`route is either already aliased or already maps to a handle: ${alias}`);
    }
    for (const alias of full) this.reserved.add(alias);
    const list = this.aliases.get(base) ?? [];
    list.push(...full);
    this.aliases.set(base, list);
    const existing = this.routes.get(base);
    if (!existing) return;
    let first: RouteError | undefined;
    for (const [ep, handler] of existing) {
      for (const alias of full) {
        try {
          this.forceAdd(alias, ep, handler);
        } catch (err) {
          first ??= err as RouteError;
        }
      }
    }
    if (first) throw first;
  }

  private forceAdd(base: string, endpoint: string, handler: Handler): void {
    const endpoints = this.routes.get(base) ?? new Map<string, Handler>();
    if (endpoints.has(endpoint)) throw new RouteError(`failed to create endpoint as ${base}${endpoint} already exists`);
    endpoints.set(endpoint, handler);
    this.routes.set(base, endpoints);
    // gorilla/mux tries routes in registration order, so a path keeps the first handler given it:
    // an alias such as `bc/X/wallet` for another endpoint is accepted but never takes the path over.
    if (!this.paths.has(base + endpoint)) this.paths.set(base + endpoint, handler);
    let first: RouteError | undefined;
    for (const alias of this.aliases.get(base) ?? []) {
      try {
        this.forceAdd(alias, endpoint, handler);
      } catch (err) {
        first ??= err as RouteError;
      }
    }
    if (first) throw first;
  }

  match(path: string): Handler | undefined {
    return this.paths.get(path);
  }
}
