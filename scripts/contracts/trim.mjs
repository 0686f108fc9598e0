// Writes contracts/data-api.json: the Data API operations the emulator serves, cut from the vendored
// glacier.json (ava-labs/builders-hub public/openapi @d9e88bf) with every schema they reference and
// without docs (descriptions, examples, code samples). The node validates requests and the contract
// test validates responses against it; test/data-contract.test.ts checks it is still this cut.
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

export function trim(full) {
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
  for (const [p, item] of Object.entries(full.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      if (!OPERATIONS.includes(op.operationId)) continue;
      found.add(op.operationId);
      paths[p] = { ...(paths[p] ?? {}), [verb]: strip(op) };
    }
  }
  const missing = OPERATIONS.filter((o) => !found.has(o));
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
  const full = JSON.parse(readFileSync(path.join(ROOT, 'contracts/glacier.json'), 'utf8'));
  writeFileSync(path.join(ROOT, 'contracts/data-api.json'), `${JSON.stringify(trim(full), null, 1)}\n`);
  console.log('wrote contracts/data-api.json');
}
