// Websocket subscriptions as geth's rpc package makes them (handleSubscribe): `<ns>_subscribe` with
// the subscription's name first, then its arguments; notifications as `<ns>_subscription`
// {subscription, result}; each connection's subscriptions its own (another cannot end them), all
// ended when it closes. The eth namespace's (filters.ts) and the debug namespace's (traceChain).
import { randomBytes } from 'node:crypto';
import { goMarshal, type JsonValue, RawJson } from '../../../encoding/gojson.js';
import { type CallContext, RpcError } from '../../../rpc/method.js';
import { ParamsError } from '../../../rpc/schema.js';

export const subscriptionErrors = {
  /** rpc.ErrNotificationsUnsupported: over HTTP. */
  notifications: () => new RpcError('notifications not supported', -32601),
  /** rpc.ErrSubscriptionNotFound: an ID this connection did not subscribe (or already ended). */
  notFound: () => new RpcError('subscription not found'),
};

/** An rpc.ID: 16 random bytes in hex, without leading zeros (also a polled filter's ID). */
export const newID = (): string => `0x${randomBytes(16).toString('hex').replace(/^0+/, '') || '0'}`;

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

/** A connection's subscriptions, and whether it has closed. */
interface Connection {
  subs: Map<string, () => void>;
  closed: boolean;
}

export class Subscriptions {
  private readonly connections = new WeakMap<CallContext, Connection>();

  constructor(private readonly namespace: string) {}

  /** handleSubscribe's order: notifications first (HTTP has none), then the name, then what `start` checks. */
  async subscribe(ctx: CallContext, params: JsonValue | undefined, start: SubscriptionStart): Promise<string> {
    if (!ctx.notify || !ctx.onClose) throw subscriptionErrors.notifications();
    const name = subscriptionName(params);
    const connection = this.of(ctx, ctx.onClose);
    const notify = ctx.notify;
    const id = newID();
    // The notification's params as geth writes them, around a result encoded once for everyone.
    const head = `{"subscription":${goMarshal(id)},"result":`;
    const method = `${this.namespace}_subscription`;
    const stop = await start(name, params as JsonValue[], (result) => notify(method, new RawJson(`${head}${result}}`)));
    // A connection that closed while an asynchronous start ran ends the subscription at once.
    if (connection.closed) stop();
    else connection.subs.set(id, stop);
    return id;
  }

  /** Ends the caller's subscription `id`. */
  unsubscribe(ctx: CallContext, id: string): true {
    const subs = this.connections.get(ctx)?.subs;
    const stop = subs?.get(id);
    if (!stop) throw subscriptionErrors.notFound();
    stop();
    subs!.delete(id);
    return true;
  }

  private of(ctx: CallContext, onClose: (fn: () => void) => void): Connection {
    let connection = this.connections.get(ctx);
    if (!connection) {
      const mine: Connection = { subs: new Map(), closed: false };
      this.connections.set(ctx, mine);
      onClose(() => {
        mine.closed = true;
        for (const stop of mine.subs.values()) stop();
        mine.subs.clear();
      });
      connection = mine;
    }
    return connection;
  }
}
