// The Data API (/v1, contracts/data-api.json) and Metrics API (/v2/chains/{chainId}/metrics/{metric},
// /v1/avg_tps/{chainId}, contracts/metrics-api.json) families of the fuzz: every operation with
// random query params (valid, of the wrong type, out of range, repeated, unknown), bad and real page
// tokens ($PAGE: the last nextPageToken the run got, filled in when sent), huge pageSize, unknown
// chain IDs and networks, odd path segments and methods. These are REST: judged as no 5xx for a
// client's mistake, a 4xx with the Data API's error body ({"message", "statusCode", "error"}), and
// no hang.
import { readFileSync } from 'node:fs';
import { type FuzzRequest, JSON_CT, q, type Rng } from './fuzz-core.js';
import { EWOQ_EVM, LOG_ADDRESS, TEST0_EVM, TEST1_EVM } from './fuzz-evm.js';

const X_ID = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const C_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const P_ID = '11111111111111111111111111111111LpoYY';
const FUJI_X = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';
const FUJI_C = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_P = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

const enc = (s: string): string => encodeURIComponent(s);

/**
 * Half the requests are what a client sends (valid values, GET), so that the operations' real work
 * is reached; the other half are hostile throughout. Set per request while it is generated
 * (synchronously: the generator stays a pure function of its PRNG).
 */
let hostile = true;
const odds = (p: number): number => (hostile ? p : p / 10);

const ODD_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%00',
  '%zz',
  '%',
  ' ',
  '%20',
  '\u00e9',
  '%C3%A9',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '%ff',
  'a'.repeat(300),
  '1'.repeat(80),
  '-1',
  '0',
  '00043112',
  '43112.0',
  '0x a868',
  '0xa868',
  '1e3',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  '[]',
  '{}',
];

function chainIdValue(rng: Rng): string {
  return rng.weighted([
    [rng.pick(['43112', '99999', '43112', '99999']), 10],
    [
      rng.pick([
        C_ID,
        'c-chain',
        'C',
        'myl1',
        X_ID,
        P_ID,
        '43113',
        '43114',
        '1',
        '0',
        '4311299',
        '18446744073709551616',
        '-43112',
        'total',
        'testnet',
        'mainnet',
        'fuji',
      ]),
      4,
    ],
    [rng.pick(ODD_SEGMENTS), 2],
  ] as const);
}

function evmAddressValue(rng: Rng): string {
  return rng.weighted([
    [rng.pick([EWOQ_EVM, TEST0_EVM, TEST1_EVM, LOG_ADDRESS, '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC']), 10],
    [`0x${rng.bytes(20).toString('hex')}`, 2],
    [rng.pick(['0x', '0x1234', `0x${'g'.repeat(40)}`, 'ab'.repeat(20), `0x${'a'.repeat(41)}`, EWOQ_X, ...ODD_SEGMENTS.slice(0, 12)]), odds(3)],
  ] as const);
}

const networkValue = (rng: Rng): string =>
  rng.weighted([
    [rng.pick(['fuji', 'testnet']), 8],
    [rng.pick(['mainnet', 'local', 'Fuji', 'FUJI', 'network-12345', '12345', '']), odds(2)],
    [rng.pick(ODD_SEGMENTS), odds(1)],
  ] as const);

const blockchainValue = (rng: Rng): string =>
  rng.weighted([
    [rng.pick(['p-chain', 'x-chain', 'c-chain', P_ID, X_ID, C_ID, FUJI_X, FUJI_C]), 8],
    [rng.pick(['myl1', 'P', 'X', 'C', 'd-chain', '2q9e4r6Mu3U68nU1fYjgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp', X_ID.toLowerCase(), `${X_ID}x`]), odds(2)],
    [rng.pick(ODD_SEGMENTS), odds(1)],
  ] as const);

/** A query value: valid for its kind, of another type, out of range, or odd. */
function qv(rng: Rng, kind: 'int' | 'size' | 'token' | 'ts' | 'enum' | 'string' | 'number', valid: readonly string[] = []): string {
  if (kind === 'enum' && rng.chance(1 - odds(0.3))) return rng.pick(valid);
  if (kind === 'token' && rng.chance(hostile ? 0.4 : 0.9)) return '$PAGE';
  const odd = [
    '',
    '-1',
    '0',
    '1.5',
    '1e3',
    '1e400',
    'NaN',
    'Infinity',
    'abc',
    'true',
    '[]',
    '%00',
    '%zz',
    '9007199254740993',
    '18446744073709551616',
    '99999999999999999999999999999',
    ' 1',
    '0x10',
    'a'.repeat(2000),
  ];
  if (rng.chance(odds(0.35))) return rng.pick(odd);
  switch (kind) {
    case 'int':
      return String(rng.int(5000));
    case 'size':
      return hostile ? rng.pick(['1', '10', '100', '101', '2160', '2161', '1000000', '0', String(rng.range(1, 100))]) : String(rng.range(1, 100));
    case 'token':
      return rng.pick(['abc', 'eyJ4IjoxfQ', `${'A'.repeat(100)}.${'B'.repeat(43)}`, rng.bytes(24).toString('base64url'), 'null', '.', '..']);
    case 'ts':
      return rng.pick(['0', '1600000000', '1700000000', '1800000000', '4102444800', '253402300800', String(Math.floor(Date.UTC(2026, 10, 1) / 1000))]);
    case 'number':
      return hostile ? rng.pick(['0', '1', '2', '10', '1000000', '-1']) : String(rng.int(40));
    case 'enum':
      return rng.pick(['ASC', 'Desc', 'hourly', 'day', 'x', '']);
    default:
      return rng.pick(['a', EWOQ_EVM, EWOQ_X, '200', '/ext/bc/C/rpc', 'eth_call', 'XX', 'curl/8', X_ID]);
  }
}

type Param = [name: string, value: () => string];

/** name=value pairs: some of `params` (and sometimes repeated, unknown or bare ones), URL-encoded. */
function query(rng: Rng, params: Param[]): string {
  const parts: string[] = [];
  for (const [name, value] of params) {
    if (rng.chance(0.5)) continue;
    const v = value();
    parts.push(`${name}=${v === '$PAGE' ? v : enc(v)}`);
    if (rng.chance(0.05)) parts.push(`${name}=${enc(value())}`);
  }
  if (rng.chance(odds(0.1))) parts.push(rng.pick(['unknown=1', 'pageSize', '=', '&', 'a[b]=1', '__proto__[x]=1', `${params[0]?.[0] ?? 'x'}[]=1`, '%zz=1']));
  if (parts.length === 0) return rng.chance(0.1) ? '?' : '';
  return `?${parts.join('&')}`;
}

interface RestOp {
  weight: number;
  method?: string;
  path: (rng: Rng) => string;
  params: (rng: Rng) => Param[];
  body?: (rng: Rng) => string;
}

const pageParams = (rng: Rng, size: 'size' = 'size'): Param[] => [
  ['pageToken', () => qv(rng, 'token')],
  ['pageSize', () => qv(rng, size)],
];

const DATA_OPS: Record<string, RestOp> = {
  listLatestPrimaryNetworkBlocks: {
    weight: 3,
    path: (rng) => `/v1/networks/${enc(networkValue(rng))}/blockchains/${enc(blockchainValue(rng))}/blocks`,
    params: (rng) => [['startTimestamp', () => qv(rng, 'ts')], ['endTimestamp', () => qv(rng, 'ts')], ...pageParams(rng)],
  },
  listLatestXChainVertices: {
    weight: 1,
    path: (rng) => `/v1/networks/${enc(networkValue(rng))}/blockchains/${enc(blockchainValue(rng))}/vertices`,
    params: (rng) => pageParams(rng),
  },
  getVertexByHeight: {
    weight: 1,
    path: (rng) => `/v1/networks/${enc(networkValue(rng))}/blockchains/${enc(blockchainValue(rng))}/vertices:listByHeight`,
    params: (rng) => [['vertexHeight', () => qv(rng, 'int')], ...pageParams(rng), ['sortOrder', () => qv(rng, 'enum', ['asc', 'desc'])]],
  },
  getChainIdsForAddresses: {
    weight: 2,
    path: (rng) => `/v1/networks/${enc(networkValue(rng))}/addresses:listChainIds`,
    params: (rng) => [
      [
        'addresses',
        () =>
          rng.chance(0.7)
            ? Array.from({ length: rng.pick([1, 2, 5, 64, 65, 500]) }, () =>
                rng.pick([EWOQ_X, EWOQ_P, 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', 'X-local1', 'C-local1x', 'bogus']),
              ).join(',')
            : qv(rng, 'string'),
      ],
    ],
  },
  getBlockchainById: {
    weight: 2,
    path: (rng) =>
      `/v1/networks/${enc(networkValue(rng))}/blockchains/${enc(rng.chance(0.7) ? rng.pick([X_ID, C_ID, P_ID, 'myl1', FUJI_C]) : rng.pick(ODD_SEGMENTS))}`,
    params: () => [],
  },
  listIcmMessages: {
    weight: 2,
    path: () => '/v1/icm/messages',
    params: (rng) => [
      ...pageParams(rng),
      ['sourceBlockchainId', () => rng.pick([C_ID, X_ID, 'x', ''])],
      ['destinationBlockchainId', () => rng.pick([C_ID, 'x'])],
      ['blockchainId', () => rng.pick([C_ID, 'myl1'])],
      ['to', () => evmAddressValue(rng)],
      ['from', () => evmAddressValue(rng)],
      ['network', () => networkValue(rng)],
    ],
  },
  getApiLogs: {
    weight: 2,
    path: () => '/v1/apiLogs',
    params: (rng) => [
      ['orgId', () => qv(rng, 'string')],
      ['startTimestamp', () => qv(rng, 'ts')],
      ['endTimestamp', () => qv(rng, 'ts')],
      ['chainId', () => chainIdValue(rng)],
      ['responseCode', () => rng.pick(['200', '400', '404', '500', 'x'])],
      ['requestType', () => qv(rng, 'enum', ['data', 'rpc'])],
      ['apiKeyId', () => qv(rng, 'string')],
      ['requestPath', () => rng.pick(['/ext/bc/C/rpc', '/v1/chains/43112', '%', '*'])],
      ...pageParams(rng),
    ],
  },
  getPrimaryNetworkRpcUsageMetrics: {
    weight: 2,
    path: () => '/v1/primaryNetworkRpcUsageMetrics',
    params: (rng) => [
      ['timeInterval', () => qv(rng, 'enum', ['hourly', 'daily', 'weekly', 'monthly'])],
      ['startTimestamp', () => qv(rng, 'ts')],
      ['endTimestamp', () => qv(rng, 'ts')],
      ['groupBy', () => qv(rng, 'enum', ['rpcMethod', 'requestPath', 'responseCode', 'country', 'continent', 'userAgent'])],
      ['responseCode', () => rng.pick(['200', '4xx', 'x'])],
      ['requestPath', () => rng.pick(['/ext/bc/C/rpc', '/ext/info'])],
      ['country', () => rng.pick(['XX', 'US', ''])],
      ['continent', () => rng.pick(['XX', 'EU'])],
      ['userAgent', () => qv(rng, 'string')],
      ['rpcMethod', () => rng.pick(['eth_call', 'avm.getHeight', ''])],
      ['network', () => networkValue(rng)],
    ],
  },
  aggregateSignatures: {
    weight: 2,
    method: 'POST',
    path: (rng) => `/v1/signatureAggregator/${enc(networkValue(rng))}/aggregateSignatures`,
    params: () => [],
    body: (rng) => {
      if (rng.chance(0.15)) return rng.pick(['', '{', '[]', 'null', '1', '"x"', '{"message":1}', `{"message":${q('0x'.padEnd(2 + 2 * 70_000, 'ab'))}}`]);
      const parts: string[] = [];
      const hex = (n: number) => `0x${rng.bytes(n).toString('hex')}`;
      if (rng.chance(0.9)) parts.push(`"message":${q(rng.pick([hex(rng.int(300)), '0x', '', 'zz', hex(2), '0x0000', 'not hex']))}`);
      if (rng.chance(0.5)) parts.push(`"justification":${q(rng.pick([hex(32), '', 'zz']))}`);
      if (rng.chance(0.5)) parts.push(`"signingSubnetId":${q(rng.pick([P_ID, 'x', '', X_ID]))}`);
      if (rng.chance(0.5)) parts.push(`"quorumPercentage":${rng.pick(['67', '0', '100', '101', '-1', '1e400', '"67"', 'null', '66.6'])}`);
      if (rng.chance(0.3)) parts.push(`"quorumPercentageBuffer":${rng.pick(['0', '5', '34', '100', '-1'])}`);
      if (rng.chance(0.2)) parts.push(`"pChainHeight":${rng.pick(['0', '1', '18446744073709551616', '-1'])}`);
      return `{${parts.join(',')}}`;
    },
  },
  getAggregatedSignatures: {
    weight: 1,
    path: (rng) =>
      `/v1/signatureAggregator/${enc(networkValue(rng))}/aggregateSignatures/${enc(rng.pick([`0x${rng.bytes(32).toString('hex')}`, X_ID, C_ID, 'x', ...ODD_SEGMENTS.slice(0, 8)]))}`,
    params: () => [],
  },
  getNativeBalance: {
    weight: 3,
    path: (rng) => `/v1/chains/${enc(chainIdValue(rng))}/addresses/${enc(evmAddressValue(rng))}/balances:getNative`,
    params: (rng) => [
      ['blockNumber', () => qv(rng, 'number')],
      ['currency', () => qv(rng, 'enum', ['usd', 'eur', 'jpy', 'USD', 'btc'])],
    ],
  },
  getContractMetadata: {
    weight: 2,
    path: (rng) => `/v1/chains/${enc(chainIdValue(rng))}/addresses/${enc(evmAddressValue(rng))}`,
    params: () => [],
  },
  getChainInfo: {
    weight: 2,
    path: (rng) => `/v1/chains/${enc(chainIdValue(rng))}`,
    params: () => [],
  },
  listTransactions: {
    weight: 4,
    path: (rng) => `/v1/chains/${enc(chainIdValue(rng))}/addresses/${enc(evmAddressValue(rng))}/transactions`,
    params: (rng) => [
      ...pageParams(rng),
      ['startBlock', () => qv(rng, 'number')],
      ['endBlock', () => qv(rng, 'number')],
      ['sortOrder', () => qv(rng, 'enum', ['asc', 'desc'])],
    ],
  },
  listLatestTransactions: {
    weight: 3,
    path: (rng) => `/v1/chains/${enc(chainIdValue(rng))}/transactions`,
    params: (rng) => [...pageParams(rng), ['status', () => qv(rng, 'enum', ['failed', 'success'])]],
  },
  // Not operations: unknown paths under /v1, listed chains of the hosted API the node does not serve.
  unknown: {
    weight: 1,
    path: (rng) =>
      rng.pick([
        '/v1',
        '/v1/',
        '/v1/chains',
        '/v1/chains/',
        '/v1/chains/43112/blocks',
        '/v1/chains/43112/addresses',
        '/v1/chains/43112/addresses/',
        '/v1/chains/43112/transactions/0x00',
        '/v1/networks/fuji',
        '/v1/networks/fuji/blockchains',
        '/v1/health-check',
        '/v1/chains/43112/addresses/0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc/balances:listErc20',
        '/v1/chains/43112/addresses/0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc/balances:getNative/x',
        '/v1/chains/43112//transactions',
        '/v1//chains/43112',
        '/v1/chains/43112/./transactions',
        '/v1/chains/43112/../43112/transactions',
        '/v1/chains/%2e%2e/transactions',
        '/v1/chains/43112%2Ftransactions',
        `/v1/${'x/'.repeat(200)}`,
        '/v1/webhooks',
        '/v1/teleporter/messages',
        '/V1/chains/43112',
      ]),
    params: (rng) => [['pageSize', () => qv(rng, 'size')]],
  },
};

/** The metrics the Metrics API names (its contract's ChainMetric). */
const METRIC_NAMES: string[] = JSON.parse(readFileSync(new URL('../../contracts/metrics-api.json', import.meta.url), 'utf8')).components.schemas.ChainMetric
  .enum;

const METRICS_OPS: Record<string, RestOp> = {
  getEvmChainMetrics: {
    weight: 8,
    path: (rng) =>
      `/v2/chains/${enc(rng.chance(0.15) ? rng.pick(['total', 'testnet', 'mainnet', 'fuji']) : chainIdValue(rng))}/metrics/${enc(rng.chance(0.85) ? rng.pick(METRIC_NAMES) : rng.pick(['nope', 'TXCOUNT', 'txcount', '', ...ODD_SEGMENTS.slice(0, 10)]))}`,
    params: (rng) => [
      ['startTimestamp', () => qv(rng, 'ts')],
      ['endTimestamp', () => qv(rng, 'ts')],
      ['timeInterval', () => qv(rng, 'enum', ['hour', 'day', 'week', 'month'])],
      ['pageToken', () => qv(rng, 'token')],
      ['pageSize', () => rng.pick(['1', '100', '2160', '2161', '0', '100000', qv(rng, 'size')])],
    ],
  },
  getAvgTps: {
    weight: 3,
    path: (rng) => `/v1/avg_tps/${enc(chainIdValue(rng))}`,
    params: (rng) => [['pageToken', () => qv(rng, 'token')]],
  },
  unknown: {
    weight: 1,
    path: (rng) =>
      rng.pick([
        '/v2',
        '/v2/',
        '/v2/chains',
        '/v2/chains/43112',
        '/v2/chains/43112/metrics',
        '/v2/chains/43112/metrics/',
        '/v2/chains/43112/metrics/txCount/x',
        '/v2/chains/43112/teleporterMetrics/x',
        '/v2/chains/43112/rollingWindowMetrics/txCount',
        '/v1/avg_tps',
        '/v1/avg_tps/',
        '/v2/chains/43112//metrics/txCount',
        '/v2/chains/%2e%2e/metrics/txCount',
      ]),
    params: () => [],
  },
};

function restRequest(index: number, rng: Rng, api: 'data' | 'metrics'): FuzzRequest {
  hostile = rng.chance(0.5);
  const ops = api === 'data' ? DATA_OPS : METRICS_OPS;
  const name = rng.weighted(Object.entries(ops).map(([k, v]) => [k, k === 'unknown' ? odds(v.weight) : v.weight] as const));
  const op = ops[name]!;
  const path = op.path(rng);
  const qs = query(rng, op.params(rng));
  const method =
    op.method ??
    rng.weighted([
      ['GET', 20],
      ['HEAD', 1],
      ['POST', 1],
      ['PUT', 1],
      ['DELETE', 1],
      ['OPTIONS', 1],
      ['PATCH', 1],
    ] as const);
  const headers: Record<string, string> = {};
  let body: Buffer | undefined;
  if (op.body && method === 'POST') {
    body = Buffer.from(op.body(rng));
    if (rng.chance(0.9))
      headers['content-type'] = rng.chance(0.9)
        ? 'application/json'
        : rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']);
  } else if (method !== 'GET' && method !== 'HEAD' && rng.chance(0.3)) {
    body = Buffer.from(rng.pick(['{}', 'x', '{"jsonrpc":"2.0"}']));
    Object.assign(headers, JSON_CT);
  }
  if (rng.chance(0.05)) headers.accept = rng.pick(['text/html', 'application/xml', '*/*', '']);
  if (rng.chance(0.03)) headers.origin = 'http://evil.example';
  const r: FuzzRequest = {
    index,
    family: api === 'data' ? 'data-api' : 'metrics-api',
    note: `${name} ${method} ${(path + qs).slice(0, 120)}`,
    method,
    path: path + qs,
    headers,
    restApi: api,
  };
  if (body) r.body = body;
  return r;
}

export const dataApi = (index: number, rng: Rng): FuzzRequest => restRequest(index, rng, 'data');
export const metricsApi = (index: number, rng: Rng): FuzzRequest => restRequest(index, rng, 'metrics');

/** The Data API's error body: {"message": string | string[], "statusCode": <the status>, "error": string}. */
export function restBodyError(status: number, text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON`;
  }
  const o = v as { message?: unknown; statusCode?: unknown; error?: unknown } | null;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return `a ${status} whose body is not an object`;
  const okMessage = typeof o.message === 'string' || (Array.isArray(o.message) && o.message.every((x) => typeof x === 'string'));
  if (!okMessage) return `a ${status} without a message`;
  if (o.statusCode !== status) return `a ${status} whose statusCode is ${JSON.stringify(o.statusCode)}`;
  if (typeof o.error !== 'string') return `a ${status} without an error name`;
  return undefined;
}
