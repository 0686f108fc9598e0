// avalanchego api/server/router.go: routes live under /ext/<base><endpoint>; an alias of a base mirrors
// every endpoint the base has and every one it gets later. Aliases are reserved even when their
// base does not exist yet (how /ext/X serves the X-Chain's routes once they register), and nothing
// is rolled back when a later step fails, exactly as on the real node.
//
// Beyond avalanchego's exact paths, a route may also take websocket upgrades, and prefixes (with
// `:name` segments) can be mounted for REST APIs, which match when no exact path does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;
/** Serves one accepted websocket connection. */
export type SocketHandler = (socket: WebSocket, req: IncomingMessage) => void;

/** What one path serves: plain HTTP requests, websocket upgrades, or both. */
export interface Route {
  http?: Handler;
  ws?: SocketHandler;
}

/** A request under a mounted prefix: its `:name` segments and the path after the prefix. */
export interface MountMatch {
  params: Record<string, string>;
  /** The rest of the path, starting with '/' (or '' at the prefix itself). */
  rest: string;
}

export type MountHandler = (req: IncomingMessage, res: ServerResponse, match: MountMatch) => void;

export class RouteError extends Error {}

const url = (base: string) => `/ext/${base}`;
const asRoute = (r: Handler | Route): Route => (typeof r === 'function' ? { http: r } : r);

interface Mount {
  segments: string[];
  handler: MountHandler;
}

export class Router {
  private readonly routes = new Map<string, Map<string, Route>>();
  private readonly reserved = new Set<string>();
  private readonly aliases = new Map<string, string[]>();
  /** The mux: full path -> the first route registered for it. */
  private readonly paths = new Map<string, Route>();
  /** Longest prefix first. */
  private mounts: Mount[] = [];

  /** `onAdd` hears of every route registered by addRoute (avalanchego logs them). */
  constructor(private readonly onAdd: (url: string, endpoint: string) => void = () => {}) {}

  addRoute(route: Handler | Route, base: string, endpoint = ''): void {
    const full = url(base);
    if (this.reserved.has(full)) throw new RouteError(`route is either already aliased or already maps to a handle: ${full}`);
    this.onAdd(full, endpoint);
    this.forceAdd(full, endpoint, asRoute(route));
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
    for (const [ep, route] of existing) {
      for (const alias of full) {
        try {
          this.forceAdd(alias, ep, route);
        } catch (err) {
          first ??= err as RouteError;
        }
      }
    }
    if (first) throw first;
  }

  private forceAdd(base: string, endpoint: string, route: Route): void {
    const endpoints = this.routes.get(base) ?? new Map<string, Route>();
    if (endpoints.has(endpoint)) throw new RouteError(`failed to create endpoint as ${base}${endpoint} already exists`);
    endpoints.set(endpoint, route);
    this.routes.set(base, endpoints);
    // gorilla/mux tries routes in registration order, so a path keeps the first handler given it:
    // an alias such as `bc/X/wallet` for another endpoint is accepted but never takes the path over.
    if (!this.paths.has(base + endpoint)) this.paths.set(base + endpoint, route);
    let first: RouteError | undefined;
    for (const alias of this.aliases.get(base) ?? []) {
      try {
        this.forceAdd(alias, endpoint, route);
      } catch (err) {
        first ??= err as RouteError;
      }
    }
    if (first) throw first;
  }

  /**
   * Serves every path under `prefix` (an absolute path such as `/v1/chains/:chainId`) that no exact
   * route serves. A prefix is mounted once; the longest matching prefix wins.
   */
  mount(prefix: string, handler: MountHandler): void {
    const segments = prefix.split('/').filter((s) => s !== '');
    if (this.mounts.some((m) => m.segments.join('/') === segments.join('/'))) throw new RouteError(`prefix ${prefix} is already mounted`);
    this.mounts = [...this.mounts, { segments, handler }].sort((a, b) => b.segments.length - a.segments.length);
  }

  match(path: string): Route | undefined {
    return this.paths.get(path);
  }

  matchMount(path: string): { handler: MountHandler; match: MountMatch } | undefined {
    if (this.mounts.length === 0) return undefined;
    const parts = path.split('/').filter((s) => s !== '');
    for (const m of this.mounts) {
      if (parts.length < m.segments.length) continue;
      const params: Record<string, string> = {};
      const ok = m.segments.every((seg, i) => {
        if (seg.startsWith(':')) {
          params[seg.slice(1)] = parts[i]!;
          return true;
        }
        return seg === parts[i];
      });
      if (!ok) continue;
      const restParts = parts.slice(m.segments.length);
      return { handler: m.handler, match: { params, rest: restParts.length === 0 ? '' : `/${restParts.join('/')}` } };
    }
    return undefined;
  }
}
