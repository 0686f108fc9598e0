// Health API (avalanchego api/health): GET reports with 200/503, and the JSON-RPC service whose
// replies are always HTTP 200.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Health, WorkerKind } from '../../health/health.js';
import { method, type ServiceDef } from '../../server/jsonrpc/service.js';
import { arrayOf, none, string, struct } from '../schema.js';

const tagsArgs = struct({ tags: arrayOf(string) });

export function healthService(health: Health): ServiceDef {
  const reply = (kind: WorkerKind, tags: string[]) => health.report(kind, tags);
  return {
    name: 'health',
    methods: {
      health: method(tagsArgs, ({ tags }) => reply('health', tags)),
      readiness: method(tagsArgs, ({ tags }) => reply('readiness', tags)),
      liveness: method(none, () => reply('liveness', [])),
    },
  };
}

/** The GET report: `?tag=` is repeatable; any method is answered (the sub-paths take every method). */
export function healthReportHandler(health: Health, kind: WorkerKind) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const q = req.url!.indexOf('?');
    const tags = q < 0 ? [] : new URLSearchParams(req.url!.slice(q + 1)).getAll('tag');
    const { json, healthy } = health.reportJson(kind, tags);
    const body = json + '\n';
    req.resume();
    res.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
}
