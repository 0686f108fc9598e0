// JSON-RPC over a websocket (geth's /ws endpoints): every text message is one request or batch,
// answered in its own message; the connection is one call context, through which methods push
// notifications (subscriptions) and learn when the caller leaves.
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { CallContext, ServiceDef } from './method.js';
import { goMarshal } from '../encoding/gojson.js';
import type { Dialect } from './dialect.js';
import { internalError } from './endpoint.js';
import { ConnectionSubscriptions, MAX_HELD_BYTES } from './subscriptions.js';

/**
 * The bytes a connection may have waiting to be written before it counts as not keeping up: of
 * notifications, it is dropped (geth drops a subscriber whose writes stall); of replies, its
 * requests are no longer read until they drain. 16 MiB holds some 15,000 newHeads or 25,000
 * small logs.
 */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/** A body in pieces as one message. */
const whole = (body: string | readonly Buffer[]): string | Buffer => (typeof body === 'string' ? body : Buffer.concat(body));

/** What a connection sends, with the notifications still unwritten counted (see MAX_BACKLOG_BYTES). */
function outbox(socket: WebSocket) {
  // Counted from ws's write callbacks rather than read off bufferedAmount: a large reply the client
  // is reading does not make its subscriptions look stalled.
  let unwritten = 0;
  const resumeIfDrained = () => {
    if (socket.isPaused && socket.bufferedAmount <= MAX_BACKLOG_BYTES) socket.resume();
  };
  return {
    notify(message: string): void {
      if (unwritten > MAX_BACKLOG_BYTES) {
        // No close frame: it would wait behind what the client is not reading.
        socket.terminate();
        return;
      }
      const size = Buffer.byteLength(message);
      unwritten += size;
      socket.send(message, () => {
        unwritten -= size;
        resumeIfDrained();
      });
    },
    /** Sends a reply; `written` runs once ws has written it (or failed to). */
    reply(body: string | readonly Buffer[], binary: boolean, written?: () => void): void {
      socket.send(whole(body), { binary }, () => {
        resumeIfDrained();
        written?.();
      });
      // A client that sends requests without reading the replies would otherwise have them pile up.
      if (socket.bufferedAmount > MAX_BACKLOG_BYTES) socket.pause();
    },
  };
}

/** `maxHeldBytes`: what a connection's new subscriptions may hold before their IDs are sent (subscriptions.ts). */
export function jsonRpcSocket(dialect: Dialect, services: ServiceDef[], { maxHeldBytes = MAX_HELD_BYTES } = {}) {
  const respond = dialect.responder(services);
  return (socket: WebSocket, req: IncomingMessage): void => {
    const out = outbox(socket);
    // Set once a message cannot be read: nothing after it is answered or notified (Client.read stops there).
    let closing = false;
    const open = () => socket.readyState === socket.OPEN && !closing;
    // Past the bound, dropped without a close frame, as a connection whose notifications stall.
    const subscriptions = new ConnectionSubscriptions(() => socket.terminate(), maxHeldBytes);
    const ctx: CallContext = {
      request: req,
      notify: (method, params) => {
        if (open()) out.notify(`{"jsonrpc":"2.0","method":${goMarshal(method)},"params":${goMarshal(params)}}\n`);
      },
      subscriptions,
    };
    socket.on('close', () => subscriptions.close());
    // Replies under way: geth answers the calls it was running before it closes (handler.close waits).
    let pending = 0;
    let ending: (() => void) | undefined;
    // geth closes the connection itself, without a close frame, once its stream cannot be read on:
    // the error's answer first, then the calls under way, then the close.
    const end = (last: string | readonly Buffer[] | null): void => {
      closing = true;
      socket.pause();
      let written = last === null;
      const finish = () => {
        if (written && pending === 0) socket.terminate();
      };
      ending = finish;
      if (last !== null)
        // Text, as every message but a reply to a binary one (ws would send a Buffer as binary).
        socket.send(whole(last), { binary: false }, () => {
          written = true;
          finish();
        });
      finish();
    };
    const fail = (err: unknown) => {
      internalError(undefined, err);
      closing = true;
      socket.close(1011, 'internal error');
    };
    socket.on('message', (data, isBinary) => {
      if (closing) return;
      const body = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      // What waits for this message's reply: the notifications of the subscriptions it makes.
      const replied: Array<() => void> = [];
      const sent = () => {
        for (const fn of replied.splice(0)) fn();
      };
      let r: ReturnType<typeof respond>;
      try {
        r = respond(body, { ...ctx, afterReply: (fn) => replied.push(fn) });
      } catch (err) {
        return fail(err);
      }
      // A message that does not decode is answered at once, before the next one is taken.
      if (!(r instanceof Promise)) {
        if (r.close) return end(r.body);
        if (r.body !== null && open()) out.reply(r.body, isBinary);
        return sent();
      }
      pending++;
      const settled = () => {
        pending--;
        ending?.();
      };
      r.then(
        (answer) => {
          // Sent even once the stream has ended: it was read before the message that ended it.
          if (answer.body !== null && socket.readyState === socket.OPEN) out.reply(answer.body, isBinary, settled);
          else settled();
          // ws writes in the order it is given: what is sent now follows the reply.
          sent();
        },
        (err) => {
          settled();
          fail(err);
        },
      );
    });
  };
}
