// A lock for async sections: each runs once those before it have settled (the reader VM runs one
// read at a time).

/** Serializes async sections. */
export class Lock {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
