// JSON-RPC over a websocket (geth's /ws endpoints): every text message is one request or batch,
// answered in its own message; the connection is one call context, through which methods push
// notifications (subscriptions) and learn when the caller leaves.
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { CallContext, ServiceDef } from './method.js';
import { goMarshal } from '../encoding/gojson.js';
import type { Dialect } from './dialect.js';
import { internalError } from './endpoint.js';

export function jsonRpcSocket(dialect: Dialect, services: ServiceDef[]) {
  const respond = dialect.responder(services);
  return (socket: WebSocket, req: IncomingMessage): void => {
    const closers: Array<() => void> = [];
    const ctx: CallContext = {
      request: req,
      notify: (method, params) => {
        if (socket.readyState === socket.OPEN) socket.send(`{"jsonrpc":"2.0","method":${goMarshal(method)},"params":${goMarshal(params)}}\n`);
      },
      onClose: (fn) => closers.push(fn),
    };
    socket.on('close', () => {
      for (const fn of closers.splice(0)) fn();
    });
    socket.on('message', (data, isBinary) => {
      const body = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      void (async () => {
        try {
          const r = await respond(body, ctx);
          if (r.body !== null && socket.readyState === socket.OPEN) socket.send(r.body, { binary: isBinary });
        } catch (err) {
          internalError(undefined, err);
          socket.close(1011, 'internal error');
        }
      })();
    });
  };
}
