// The HTTP server of the shell: it outlives rebuilds of the core, holds new requests while one is
// under way, and ends the websocket clients of a replaced core.
import type { AddressInfo } from 'node:net';
import { LOCAL_NODE } from '../chains/ids.js';
import { createApp, createHttpServer, type RequestListener } from '../server/app.js';
import { acceptWebsockets } from '../server/websocket.js';
import { formatAddrPort, type Shell, StartError } from './shell.js';
import type { CoreSlot } from './slot.js';

export interface Listening {
  uri: string;
  close(): Promise<void>;
}

export async function listen(shell: Shell, slot: CoreSlot): Promise<Listening> {
  const { config, clock } = shell;
  const router = { match: (path: string) => slot.core?.router.match(path), matchMount: (path: string) => slot.core?.router.matchMount(path) };
  const app = createApp({
    nodeId: LOCAL_NODE.nodeID,
    allowedOrigins: config.httpAllowedOrigins,
    allowedHosts: config.httpAllowedHosts,
    router,
    // The journal serves the emulator's controls and the Data API's usage metrics and request logs.
    ...(config.apiEmulatorEnabled || config.apiDataEnabled ? { journal: shell.journal, nowNs: () => clock.nowNs() } : {}),
    ...(config.apiEmulatorEnabled ? { faults: shell.faults } : {}),
  });
  const listener: RequestListener = (req, res) => {
    if (slot.rebuilding) void slot.rebuilding.then(() => listener(req, res));
    else app(req, res);
  };
  const server = createHttpServer(listener);
  const ws = acceptWebsockets(server, { match: (path) => slot.core?.router.match(path) }, config.httpAllowedHosts, () => slot.rebuilding);
  // A rebuilt core has new chains: subscriptions to the old ones end, as a restart ends them.
  slot.endSockets = () => ws.endCurrent();
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const addr = formatAddrPort(config.httpHost || '::', config.httpPort);
      const why = err.code === 'EADDRINUSE' ? 'bind: address already in use' : err.message;
      reject(new StartError(`failed to initialize node: couldn't initialize API server: listen tcp ${addr}: ${why}`));
    };
    server.once('error', onError);
    server.listen({ port: config.httpPort, host: config.httpHost === '' ? undefined : config.httpHost }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    uri: `http://${formatAddrPort(address.address, address.port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        ws.close();
      }),
  };
}
