// How the node serves a VM's or the node's services: avalanchego's gorilla JSON-RPC (node APIs, X,
// P) and geth's JSON-RPC over HTTP and websockets (EVM chains), each method logged and open to the
// emulator's injected faults.
import { type ServiceDef, withCallLog } from '../rpc/method.js';
import { jsonRpcEndpoint } from '../rpc/endpoint.js';
import { withFaults } from '../rpc/faults.js';
import { gethDialect } from '../rpc/geth.js';
import { gorillaDialect } from '../rpc/gorilla.js';
import { jsonRpcSocket } from '../rpc/socket.js';
import type { Shell } from './shell.js';

export interface Endpoints {
  /** avalanchego's JSON-RPC (service.method names) over HTTP. */
  rpc(services: ServiceDef[]): ReturnType<typeof jsonRpcEndpoint>;
  /** The same, as a VM's handlers. */
  serve(services: ServiceDef[]): { http: ReturnType<typeof jsonRpcEndpoint> };
  /** geth's JSON-RPC (namespace_method names) over HTTP and websockets. */
  serveGeth(services: ServiceDef[]): { http: ReturnType<typeof jsonRpcEndpoint>; ws: ReturnType<typeof jsonRpcSocket> };
}

export function endpoints({ main, faults, bodies }: Pick<Shell, 'main' | 'faults' | 'bodies'>): Endpoints {
  const prepared = (services: ServiceDef[], separator: '.' | '_') =>
    services.map((s) =>
      withFaults(
        withCallLog(s, (msg, fields) => main.debug(msg, fields)),
        faults,
        separator,
      ),
    );
  const rpc = (services: ServiceDef[]) => jsonRpcEndpoint(gorillaDialect, prepared(services, '.'), { budget: bodies });
  return {
    rpc,
    serve: (services) => ({ http: rpc(services) }),
    serveGeth: (services) => {
      const logged = prepared(services, '_');
      return { http: jsonRpcEndpoint(gethDialect, logged, { budget: bodies }), ws: jsonRpcSocket(gethDialect, logged) };
    },
  };
}
