// Websocket upgrades, for any route that takes them (the EVM chains' /ws endpoints). An upgrade
// request passes the same allowed-hosts filter as every request, then the router's exact paths;
// an accepted connection is handed to the route's socket handler.
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { hostAllowed, isCleanPath } from './middleware.js';
import type { Router } from './router.js';

/** The largest message a client may send: the HTTP body limit. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface Websockets {
  /** Closes every open connection (the HTTP server's close leaves upgraded sockets alone). */
  close(): void;
  /** The connections open now: the returned function ends them (later ones stay). */
  endCurrent(): () => void;
}

/**
 * A client's bad frame (a message over the size limit, invalid UTF-8 in a text message, an
 * unmasked frame, a reserved opcode or bit): ws has already sent the close frame with RFC 6455's
 * code (1009, 1007, 1002) and ends that connection, as gorilla/websocket does for geth (which adds
 * a reason to its 1002s, and does not check text for UTF-8). The error is that client's alone;
 * left without a listener, ws's 'error' event would end the node.
 */
function badFrame(): void {}

function refuse(socket: Duplex, status: number, reason: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** RFC 6455's 1012, Service Restart: what a client is told when the node's core is rebuilt under it. */
const SERVICE_RESTART = 1012;
/** How long a client told to go may take to close before its socket is destroyed. */
const CLOSE_GRACE_MS = 1000;

/** Tells a client the node restarts its service (a revert, a load), and destroys its socket if it does not close. */
function restart(client: import('ws').WebSocket): void {
  client.close(SERVICE_RESTART);
  setTimeout(() => client.terminate(), CLOSE_GRACE_MS).unref();
}

/**
 * `ready`: while the node rebuilds its core (a revert, a load), a promise of its end; upgrades
 * wait for it, as HTTP requests do, rather than find no route.
 */
export function acceptWebsockets(
  server: http.Server,
  router: Pick<Router, 'match'>,
  allowedHosts: string[],
  ready: () => Promise<void> | undefined = () => undefined,
): Websockets {
  // ws is loaded with the first upgrade: most nodes never see one, and it costs start-up time.
  let wss: Promise<WebSocketServer> | undefined;
  // require, not import(): see storage/db.ts.
  const open = () =>
    (wss ??= Promise.resolve().then(() => {
      const { WebSocketServer: Server } = createRequire(import.meta.url)('ws') as typeof import('ws');
      return new Server({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
    }));
  const hostOk = hostAllowed(allowedHosts);
  const upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (!hostOk(req.headers.host ?? '')) return refuse(socket, 403, 'Forbidden', 'invalid host specified\n');
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    let path = q < 0 ? raw : raw.slice(0, q);
    try {
      path = decodeURIComponent(path);
    } catch {
      return refuse(socket, 400, 'Bad Request', '400 Bad Request');
    }
    const route = isCleanPath(path) ? router.match(path) : undefined;
    if (!route?.ws) return refuse(socket, 404, 'Not Found', '404 page not found\n');
    const serve = route.ws;
    void open().then(
      (server) =>
        server.handleUpgrade(req, socket, head, (ws) => {
          ws.on('error', badFrame);
          serve(ws, req);
        }),
      () => socket.destroy(),
    );
  };
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const rebuilding = ready();
    if (rebuilding) void rebuilding.then(() => upgrade(req, socket, head));
    else upgrade(req, socket, head);
  });
  return {
    endCurrent() {
      const current = wss?.then((server) => [...server.clients]);
      return () => {
        void current?.then((clients) => {
          for (const client of clients) restart(client);
        });
      };
    },
    close() {
      void wss?.then((server) => {
        for (const client of server.clients) client.terminate();
        server.close();
      });
    },
  };
}
