// What the fork's upstream client throws, and how it names the upstream without leaking its
// credentials: fork URLs of hosted RPCs carry API keys in the userinfo, the path or the query, and
// these messages end up in logs, terminals and JSON-RPC replies to whoever calls the emulator.

/**
 * Why an upstream call failed: `unreachable` (no connection, the connection dropped, or this client
 * closed or is overloaded), `timeout` (no whole reply within timeoutMs), `http` (a non-2xx status),
 * `rpc` (the upstream's JSON-RPC error, with its code and data), `invalid` (a reply that is not JSON-RPC).
 */
export type UpstreamErrorKind = 'unreachable' | 'timeout' | 'http' | 'rpc' | 'invalid';

export interface UpstreamErrorInit {
  kind: UpstreamErrorKind;
  /** The JSON-RPC error code for `rpc`, the HTTP status for `http`. */
  code?: number;
  /** The JSON-RPC error's data for `rpc`, the start of the body for `http`. */
  data?: unknown;
}

export class UpstreamError extends Error {
  readonly kind: UpstreamErrorKind;
  readonly code?: number;
  readonly data?: unknown;
  constructor(message: string, init: UpstreamErrorInit) {
    super(message);
    this.name = 'UpstreamError';
    this.kind = init.kind;
    if (init.code !== undefined) this.code = init.code;
    if (init.data !== undefined) this.data = init.data;
  }
}

/**
 * The URL as messages show it: its origin only (scheme, host, port), as foundry's redact_url does,
 * since hosted RPCs put keys in the path (`/v2/<key>`) or the query (`?apikey=`), not only the userinfo.
 */
export function displayUrl(url: URL): string {
  return url.origin;
}

/** The parts of the URL that may be secret, longest first, for scrub. */
export function secretsOf(url: URL): string[] {
  const userinfo = [url.username, url.password, decoded(url.username), decoded(url.password)];
  const parts: string[] = [];
  for (const segment of url.pathname.split('/')) parts.push(segment, decoded(segment));
  for (const [name, value] of url.searchParams) parts.push(name, value);
  parts.push(url.search.slice(1), url.pathname + url.search, url.href);
  // Short path pieces (`v2`, `rpc`, `ext`) are not secrets, and scrubbing them would mangle messages;
  // userinfo is secret by definition, however short.
  const secrets = new Set([...userinfo.filter((p) => p.length >= 3), ...parts.filter((p) => p.length >= 6)]);
  return [...secrets].sort((a, b) => b.length - a.length);
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray `%` in the URL: the raw form is all there is to hide
  }
}

/** `text` with every secret part of the URL replaced, for text the upstream or the OS wrote. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

/** One line of at most `max` characters: upstream bodies may be whole HTML pages. */
export function oneLine(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
