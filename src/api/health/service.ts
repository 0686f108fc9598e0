// Health API (avalanchego api/health): GET reports with 200/503, and the JSON-RPC service whose
// replies are always HTTP 200.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RawJson } from '../../encoding/gojson.js';
import { reply } from '../../rpc/http.js';
import type { Health, WorkerKind } from '../../health/health.js';
import { method, type ServiceDef } from '../../rpc/method.js';
import { arrayOf, none, string, struct } from '../../rpc/schema.js';

const tagsArgs = struct({ tags: arrayOf(string) });

export function healthService(health: Health): ServiceDef {
  // The cached report text: encoding it once per check run, not once per request.
  const reply = (kind: WorkerKind, tags: string[]) => new RawJson(health.reportJson(kind, tags).json);
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
    const body = `${json}\n`;
    req.resume();
    reply(res, healthy ? 200 : 503, ['Content-Type', 'application/json'], body);
  };
}
