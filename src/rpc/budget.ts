// What the node holds of request bodies still arriving, across every connection. One request may
// send up to the body limit (4 MiB), and slow clients can keep many open until the 30 s request
// timeout; without a total, a hundred of them would hold 400 MiB. Past the total, the requests that
// have been arriving the longest are cut off first: a normal request completes within milliseconds
// and is never the oldest, so clients keep being served while a slow-body flood is shed.

/** 64 MiB: sixteen full-size bodies at once. */
export const DEFAULT_PENDING_BODY_BYTES = 64 * 1024 * 1024;

export interface PendingBody {
  /** Bytes held so far. */
  bytes: number;
  /** Called at most once, when the budget sheds this body. */
  evict(): void;
}

export class BodyBudget {
  private held = 0;
  /** Bodies still arriving, oldest first (a Set keeps insertion order). */
  private readonly pending = new Set<PendingBody>();

  constructor(readonly limit = DEFAULT_PENDING_BODY_BYTES) {}

  get heldBytes(): number {
    return this.held;
  }

  /** Starts counting a body (its bytes 0 so far), the newest. */
  add(body: PendingBody): void {
    this.pending.add(body);
  }

  /** Counts `n` more bytes of `body`, shedding the oldest bodies (never `body` itself) while over the limit. */
  grow(body: PendingBody, n: number): void {
    body.bytes += n;
    this.held += n;
    if (this.held <= this.limit) return;
    for (const oldest of this.pending) {
      if (this.held <= this.limit) break;
      if (oldest === body) continue;
      this.end(oldest);
      oldest.evict();
    }
  }

  /** The body is complete, refused or abandoned: what it held is released. */
  end(body: PendingBody): void {
    if (!this.pending.delete(body)) return;
    this.held -= body.bytes;
  }
}
