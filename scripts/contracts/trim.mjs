// Writes contracts/data-api.json and contracts/metrics-api.json: the Data and Metrics API operations
// the emulator serves, cut from the vendored glacier.json and popsicle.json (ava-labs/builders-hub
// public/openapi @d9e88bf) with every schema they reference and without docs (descriptions,
// examples, code samples). The node validates requests and the contract tests validate responses
// against them; test/data-contract.test.ts and test/metrics.test.ts check they are still these cuts.
//
//   node scripts/contracts/trim.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OPERATIONS = [
  'aggregateSignatures',
  'getAggregatedSignatures',
  'listTransactions',
  'listLatestTransactions',
  'getNativeBalance',
  'getContractMetadata',
  'getChainInfo',
  'getChainIdsForAddresses',
  'getBlockchainById',
  'listLatestPrimaryNetworkBlocks',
  'listLatestXChainVertices',
  'getVertexByHeight',
  'listIcmMessages',
  'getPrimaryNetworkRpcUsageMetrics',
  'getApiLogs',
];
const DOCS = new Set(['description', 'examples', 'example', 'x-codeSamples', 'summary', 'tags', 'x-speakeasy-name-override', 'x-speakeasy-group']);

/** The Metrics API's operation in popsicle.json. */
export const METRICS_OPERATIONS = ['getEvmChainMetrics'];

/**
 * GET /v1/avg_tps/{chainId} is in no published contract, only in builders-hub's Metrics API usage
 * guide (results newest first, status, lastRun, a pageToken): declared here from that text.
 */
export const AVG_TPS = {
  '/v1/avg_tps/{chainId}': {
    get: {
      operationId: 'getAvgTps',
      parameters: [
        { name: 'chainId', required: true, in: 'path', schema: { type: 'string' } },
        { name: 'pageToken', required: false, in: 'query', schema: { type: 'string' } },
      ],
      responses: {
        200: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  results: { type: 'array', items: { $ref: '#/components/schemas/MetricsValue' } },
                  status: { type: 'integer' },
                  lastRun: { type: 'integer' },
                  nextPageToken: { type: 'string' },
                },
                required: ['results', 'status', 'lastRun'],
              },
            },
          },
        },
        400: { content: { 'application/json': { schema: { $ref: '#/components/schemas/BadRequest' } } } },
        404: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NotFound' } } } },
      },
    },
  },
};

export function trim(full, operations = OPERATIONS, extraPaths = {}) {
  const strip = (v) => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !DOCS.has(k))
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  const paths = {};
  const found = new Set();
  for (const [p, item] of Object.entries({ ...full.paths, ...extraPaths })) {
    for (const [verb, op] of Object.entries(item)) {
      if (!operations.includes(op.operationId) && !(p in extraPaths)) continue;
      found.add(op.operationId);
      paths[p] = { ...(paths[p] ?? {}), [verb]: strip(op) };
    }
  }
  const missing = operations.filter((o) => !found.has(o));
  if (missing.length) throw new Error(`glacier.json lacks ${missing.join(', ')}`);
  const schemas = {};
  const visit = (v) => {
    const refs = JSON.stringify(v).match(/#\/components\/schemas\/[A-Za-z0-9_.-]+/g) ?? [];
    for (const ref of refs) {
      const name = ref.split('/').pop();
      if (schemas[name]) continue;
      schemas[name] = strip(full.components.schemas[name]);
      visit(schemas[name]);
    }
  };
  visit(paths);
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k]]),
  );
  return { openapi: full.openapi, info: { title: full.info.title, version: full.info.version }, paths, components: { schemas: sorted } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const glacier = JSON.parse(readFileSync(path.join(ROOT, 'contracts/glacier.json'), 'utf8'));
  writeFileSync(path.join(ROOT, 'contracts/data-api.json'), `${JSON.stringify(trim(glacier), null, 1)}\n`);
  const popsicle = JSON.parse(readFileSync(path.join(ROOT, 'contracts/popsicle.json'), 'utf8'));
  writeFileSync(path.join(ROOT, 'contracts/metrics-api.json'), `${JSON.stringify(trim(popsicle, METRICS_OPERATIONS, AVG_TPS), null, 1)}\n`);
  console.log('wrote contracts/data-api.json and contracts/metrics-api.json');
}
