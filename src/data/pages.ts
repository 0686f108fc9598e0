// Page tokens: opaque to clients, valid 24 hours as the hosted API's, and bound to the query that
// issued them (a token from one list cannot page another). A token carries its cursor, signed with
// the node's own secret (kept in the store, so tokens outlive a restart): nothing is kept per token.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../storage/db.js';
import { badRequest } from './errors.js';

const LIFETIME_MS = 24 * 3600 * 1000;
const SECRET_KEY = new TextEncoder().encode('page-secret');

export class PageTokens {
  private constructor(
    private readonly secret: Uint8Array,
    private readonly now: () => number,
  ) {}

  static async open(db: Database, now: () => number = Date.now): Promise<PageTokens> {
    let secret = await db.get(SECRET_KEY);
    if (!secret) {
      secret = new Uint8Array(randomBytes(32));
      await db.put(SECRET_KEY, secret);
    }
    return new PageTokens(secret, now);
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 16);
  }

  /** A token for the page after `cursor` of the list `scope` (operation and filters). */
  issue(scope: string, cursor: unknown): string {
    const payload = Buffer.from(JSON.stringify({ s: scope, c: cursor, t: this.now() })).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The cursor a token carries, or a 400 for a token that is not ours, not this list's, or expired. */
  read<T>(scope: string, token: string): T {
    const [payload, mac, extra] = token.split('.');
    const given = Buffer.from(mac ?? '', 'base64url');
    const want = payload ? this.mac(payload) : Buffer.alloc(0);
    if (!payload || extra !== undefined || given.length !== want.length || !timingSafeEqual(given, want)) throw badRequest('Invalid page token');
    const { s, c, t } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s: string; c: T; t: number };
    if (s !== scope) throw badRequest('Invalid page token: it was issued for another query');
    if (this.now() - t > LIFETIME_MS) throw badRequest('Page token expired');
    return c;
  }
}
