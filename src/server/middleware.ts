// The real node's handler chain, outermost first: node-id header, CORS (rs/cors v1.7.0 with
// credentials), allowed-hosts filter, then gorilla/mux path routing (clean-path redirects, exact
// match, plain-text 404).
import { isIPv4, isIPv6 } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { reply, replyText, setNodeHeaders } from '../rpc/http.js';

const CORS_METHODS = new Set(['GET', 'POST', 'HEAD', 'OPTIONS']);
const CORS_HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With']);

/** textproto.CanonicalMIMEHeaderKey */
const canonical = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/(^|-)([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());

export function originMatcher(allowed: string[]): (origin: string) => boolean {
  const list = allowed.map((o) => o.toLowerCase());
  if (list.includes('*')) return () => true;
  const patterns = list.map((o) => {
    const star = o.indexOf('*');
    return star < 0 ? (x: string) => x === o : (x: string) => x.length >= o.length - 1 && x.startsWith(o.slice(0, star)) && x.endsWith(o.slice(star + 1));
  });
  return (origin) => patterns.some((p) => p(origin.toLowerCase()));
}

/**
 * Paths that `*` in --http-allowed-origins does not open to other origins: the emulator controls
 * (not an avalanchego API) write state files and rewind the node, and with avalanchego's default of
 * `*` any web page the user visits could call them. Origins named explicitly still may.
 */
const PRIVATE_PATHS = ['/ext/emulator'];
const isPrivate = (url: string | undefined) => PRIVATE_PATHS.some((p) => url === p || url?.startsWith(`${p}/`) || url?.startsWith(`${p}?`));

/**
 * The Data and Metrics APIs' paths: Glacier's and Popsicle's services, not avalanchego's, allow
 * whatever headers a preflight asks for (its SDK sends x-glacier-api-key, and in a browser
 * x-speakeasy-user-agent). avalanchego's own APIs keep rs/cors's default list.
 */
const anyHeaderPath = (url: string | undefined) => url !== undefined && (url.startsWith('/v1/') || url.startsWith('/v2/'));

/** Sets Node-Id and CORS headers; answers a preflight itself and then returns true. */
export function nodeHeaders(nodeId: string, allowedOrigins: string[]) {
  const publicAllows = originMatcher(allowedOrigins);
  const privateAllows = originMatcher(allowedOrigins.filter((o) => o !== '*'));
  const anyOriginDefault = allowedOrigins.includes('*');
  const plainHeaders = ['Node-Id', nodeId, 'Vary', 'Origin'];
  const anyOriginHeaders = [...plainHeaders, 'Access-Control-Allow-Origin', '*', 'Access-Control-Allow-Credentials', 'true'];
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const origin = req.headers.origin;
    const guarded = origin !== undefined && isPrivate(req.url);
    const allows = guarded ? privateAllows : publicAllows;
    const anyOrigin = !guarded && anyOriginDefault;
    const requested = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && requested !== undefined) {
      // A preflight is answered by CORS itself, before the host filter and the router.
      const headers = ['Node-Id', nodeId, 'Vary', 'Origin', 'Vary', 'Access-Control-Request-Method', 'Vary', 'Access-Control-Request-Headers'];
      const method = requested.toUpperCase();
      const wantHeaders = (req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map(canonical)
        .filter((h) => h !== '');
      const headersAllowed = anyHeaderPath(req.url) || wantHeaders.every((h) => CORS_HEADERS.has(h));
      if (origin && allows(origin) && CORS_METHODS.has(method) && headersAllowed) {
        headers.push('Access-Control-Allow-Origin', anyOrigin ? '*' : origin, 'Access-Control-Allow-Methods', method);
        if (wantHeaders.length > 0) headers.push('Access-Control-Allow-Headers', wantHeaders.join(', '));
        headers.push('Access-Control-Allow-Credentials', 'true');
      }
      reply(res, 200, headers);
      return true;
    }
    if (origin && allows(origin) && CORS_METHODS.has(req.method!)) {
      setNodeHeaders(res, anyOrigin ? anyOriginHeaders : [...plainHeaders, 'Access-Control-Allow-Origin', origin, 'Access-Control-Allow-Credentials', 'true']);
    } else {
      setNodeHeaders(res, plainHeaders);
    }
    return false;
  };
}

/** Whether a Host header may pass: empty hosts and IP literals always do; otherwise the name must be listed. */
export function hostAllowed(hosts: string[]): (host: string) => boolean {
  const list = new Set(hosts.map((h) => h.toLowerCase()));
  const any = list.has('*');
  // A client sends the same Host on every request: the answer for the last one is kept.
  let lastHost: string | undefined;
  let lastAllowed = false;
  return (host) => {
    if (any || host === '') return true;
    if (host === lastHost) return lastAllowed;
    const name = hostname(host);
    // IPv6 last: Node compiles its large IPv6 pattern at the first test, 8-10 ms of a fresh node's
    // first request when its Host was 127.0.0.1 or localhost.
    lastAllowed = isIPv4(name) || list.has(name.toLowerCase()) || isIPv6(name);
    lastHost = host;
    return lastAllowed;
  };
}

/** The allowed-hosts filter of every request. Returns true when it refused. */
export function allowedHosts(hosts: string[]) {
  const ok = hostAllowed(hosts);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (ok(req.headers.host ?? '')) return false;
    replyText(res, 403, 'invalid host specified\n');
    return true;
  };
}

function hostname(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 ? host.slice(1, end) : host;
  }
  const colon = host.lastIndexOf(':');
  return colon > 0 && host.indexOf(':') === colon ? host.slice(0, colon) : host;
}

/** True when path.Clean would change nothing: the common case, tested without splitting. */
export function isCleanPath(p: string): boolean {
  return p.startsWith('/') && !/\/\/|\/\.\.?(\/|$)/.test(p);
}

/** Go's path.Clean. */
export function cleanPath(p: string): string {
  if (p === '') return '/';
  const rooted = p.startsWith('/') ? p : `/${p}`;
  const out: string[] = [];
  for (const seg of rooted.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  let np = `/${out.join('/')}`;
  if (rooted.endsWith('/') && np !== '/') np += '/';
  return np;
}

export function notFound(res: ServerResponse): void {
  replyText(res, 404, '404 page not found\n');
}

export function badRequest(res: ServerResponse): void {
  replyText(res, 400, '400 Bad Request');
}
