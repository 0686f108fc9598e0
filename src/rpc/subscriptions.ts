// Subscriptions as geth's rpc package makes them (handler.go, subscription.go): `<ns>_subscribe`
// with the subscription's name first, then its arguments; notifications as `<ns>_subscription`
// {subscription, result}, held until the reply carrying the subscription's ID is written (Notifier's
// activate); one set per connection, ended by any `*_unsubscribe` of that connection (whatever its
// namespace) and all at once when it closes. A namespace serves them through its `subscribe` method.
import { randomBytes } from 'node:crypto';
import { goMarshal, type JsonValue, RawJson } from '../encoding/gojson.js';
import { goQuote } from '../encoding/goquote.js';
import { type CallContext, RpcError, type SubscriptionSet } from './method.js';
import { ParamsError, textOf } from './schema.js';

export const subscriptionErrors = {
  /** rpc.ErrNotificationsUnsupported: over HTTP. */
  notifications: () => new RpcError('notifications not supported', -32601),
  /** rpc.ErrSubscriptionNotFound: an ID this connection did not subscribe (or already ended). */
  notFound: () => new RpcError('subscription not found'),
  /** subscriptionNotFoundError: a name the namespace does not serve. */
  unknown: (namespace: string, name: string) => new RpcError(`no ${goQuote(name)} subscription in ${namespace} namespace`, -32601),
};

/** An rpc.ID: 16 random bytes in hex, without leading zeros (also a polled filter's ID). */
export const newID = (): string => `0x${randomBytes(16).toString('hex').replace(/^0+/, '') || '0'}`;

/** rpc.ID as a parameter: a JSON string. */
export const rpcId = textOf('rpc.ID');

/**
 * What a connection's subscriptions not yet active may hold of notifications, in bytes: past it
 * the connection is dropped, as one whose writes stall (socket.ts). geth's buffer has no bound; a
 * batch whose other calls run long must not make the node hold an unbounded backlog.
 */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

/** What a notification's envelope adds to its params, about (the method's name varies a little). */
const ENVELOPE_BYTES = 64;

/** A connection's subscriptions: what ends each, by ID, and the notifications they hold. */
export class ConnectionSubscriptions implements SubscriptionSet {
  private readonly subs = new Map<string, () => void>();
  private closed = false;
  private heldBytes = 0;

  /** `overflow` drops the connection: its subscriptions held more than `maxHeld` bytes at once. */
  constructor(
    private readonly overflow: () => void,
    private readonly maxHeld = MAX_HELD_BYTES,
  ) {}

  add(id: string, stop: () => void): void {
    if (this.closed) stop();
    else this.subs.set(id, stop);
  }

  end(id: string): boolean {
    const stop = this.subs.get(id);
    if (!stop) return false;
    this.subs.delete(id);
    stop();
    return true;
  }

  hold(bytes: number): boolean {
    this.heldBytes += bytes;
    if (this.heldBytes <= this.maxHeld) return true;
    this.overflow();
    return false;
  }

  release(bytes: number): void {
    this.heldBytes -= bytes;
  }

  /** The connection's end: every subscription ended, any added later too. */
  close(): void {
    this.closed = true;
    for (const stop of this.subs.values()) stop();
    this.subs.clear();
  }
}

/**
 * handleSubscribe's parseSubscriptionName: the params must be an array whose first item is a
 * string, the subscription's name.
 */
export function subscriptionName(params: JsonValue | undefined): string {
  if (!Array.isArray(params)) throw new ParamsError('non-array args');
  const name = params[0];
  if (typeof name !== 'string') throw new ParamsError('expected subscription name as first argument');
  return name;
}

/**
 * The arguments after the name, bound to the subscription method's (parsePositionalArguments, the
 * name counted as argument 0): `required` of `fields`, each decoding error prefixed with its index.
 */
export function subscriptionArgs(params: JsonValue[], fields: Array<(v: JsonValue) => unknown>, required = 0): unknown[] {
  if (params.length > fields.length + 1) throw new ParamsError(`too many arguments, want at most ${fields.length + 1}`);
  return fields.map((decode, i) => {
    const v = params[i + 1];
    if (v === undefined) {
      if (i < required) throw new ParamsError(`missing value for required argument ${i + 1}`);
      return undefined;
    }
    try {
      return decode(v);
    } catch (err) {
      if (err instanceof ParamsError) throw new ParamsError(`invalid argument ${i + 1}: ${err.message}`);
      throw err;
    }
  });
}

/**
 * What starts a subscription named `name` with `params` (the name first): it pushes each result
 * (JSON text) through `send` and returns what ends it; it throws to refuse the subscription.
 */
export type SubscriptionStart = (name: string, params: JsonValue[], send: (resultJson: string) => void) => (() => void) | Promise<() => void>;

/**
 * A new subscription's notifications, held until the reply naming it is sent (geth's Notifier
 * before activate), counted against its connection's bound.
 */
class Held {
  private messages: RawJson[] | undefined = [];
  private bytes = 0;

  constructor(private readonly subscriptions: SubscriptionSet) {}

  /** Whether notifications are still held (not yet activated). */
  get holding(): boolean {
    return this.messages !== undefined;
  }

  /** Holds `text`; false past the connection's bound (the connection is being dropped). */
  hold(text: string): boolean {
    // The params and the envelope they are written in (`{"jsonrpc":"2.0","method":…,"params":…}`).
    const bytes = Buffer.byteLength(text) + ENVELOPE_BYTES;
    if (!this.subscriptions.hold(bytes)) {
      this.subscriptions.release(bytes);
      return false;
    }
    this.bytes += bytes;
    this.messages!.push(new RawJson(text));
    return true;
  }

  /** Ends the holding: what was held, uncounted (none once dropped). */
  release(): RawJson[] {
    const out = this.messages ?? [];
    this.subscriptions.release(this.bytes);
    this.messages = undefined;
    this.bytes = 0;
    return out;
  }
}

/**
 * `<namespace>_subscribe` in handleSubscribe's order: notifications first (HTTP has none), then the
 * name, then what `start` checks. Resolves to the subscription's ID; its notifications are held
 * until the reply carrying it is written (`afterReply`), as geth's Notifier holds them until activate.
 */
export async function subscribe(ctx: CallContext, namespace: string, params: JsonValue | undefined, start: SubscriptionStart): Promise<string> {
  const { notify, subscriptions } = ctx;
  if (!notify || !subscriptions) throw subscriptionErrors.notifications();
  const name = subscriptionName(params);
  const id = newID();
  const method = `${namespace}_subscription`;
  // The notification's params as geth writes them, around a result encoded once for everyone.
  const head = `{"subscription":${goMarshal(id)},"result":`;
  const held = new Held(subscriptions);
  let ended = false;
  const end = (): void => {
    ended = true;
    held.release();
  };
  const send = (result: string): void => {
    if (ended) return;
    const text = `${head}${result}}`;
    if (!held.holding) notify(method, new RawJson(text));
    // Past the bound the connection is dropped (its close ends the subscription): nothing held is sent.
    else if (!held.hold(text)) end();
  };
  let stopStart: () => void;
  try {
    stopStart = await start(name, params as JsonValue[], send);
  } catch (err) {
    end();
    throw err;
  }
  subscriptions.add(id, () => {
    end();
    stopStart();
  });
  const activate = (): void => {
    const ready = held.release();
    if (!ended) for (const message of ready) notify(method, message);
  };
  if (ctx.afterReply) ctx.afterReply(activate);
  else activate();
  return id;
}

/** `*_unsubscribe`, whatever its namespace (geth's unsubscribeCb): ends one of the caller's subscriptions. */
export function unsubscribe(ctx: CallContext, id: string): true {
  if (!ctx.subscriptions?.end(id)) throw subscriptionErrors.notFound();
  return true;
}

/** `<namespace>_subscribe` where the namespace serves none: handleSubscribe's refusals, in its order. */
export function noSubscription(ctx: CallContext, namespace: string, params: JsonValue | undefined): never {
  if (!ctx.notify || !ctx.subscriptions) throw subscriptionErrors.notifications();
  throw subscriptionErrors.unknown(namespace, subscriptionName(params));
}
