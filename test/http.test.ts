// The HTTP layer in front of every API: node-id header, CORS, allowed hosts, path routing.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTestNode, type TestNode } from './helpers.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

const NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';

/** A raw request, for headers fetch will not let us set (Host) and paths it would normalise. */
function raw(
  uri: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; rawHeaders: string[]; body: string }> {
  const { hostname, port } = new URL(uri);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, setHost: !opts.headers?.host }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('node-id and 404', () => {
  it('sends Node-Id on every response, 404s included', async () => {
    for (const path of ['/ext/health', '/ext/nope', '/']) {
      const res = await raw(node.uri, { path });
      expect(res.headers['node-id']).toBe(NODE_ID);
      expect(res.rawHeaders).toContain('Node-Id');
    }
  });

  it('answers unknown paths, trailing slashes and disabled APIs with Go http.NotFound', async () => {
    for (const path of ['/ext/foo', '/', '/ext/info/', '/ext/admin', '/ext/index/X/block', '/ext/bc/X/rpc']) {
      const res = await raw(node.uri, { path, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, path).toBe(404);
      expect(res.body).toBe('404 page not found\n');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('redirects unclean paths with 301, keeping the query', async () => {
    const cases: Array<[string, string]> = [
      ['//ext/info', '/ext/info'],
      ['/ext/./health', '/ext/health'],
      ['/ext/x/../health?tag=a', '/ext/health?tag=a'],
    ];
    for (const [path, location] of cases) {
      const res = await raw(node.uri, { path });
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe(location);
      expect(res.body).toBe('');
    }
  });

  it('answers header routing (Avalanche-Api-Route) as a node whose VMs have no connect-rpc handler', async () => {
    expect((await raw(node.uri, { path: '/ext/info', headers: { 'avalanche-api-route': '' } })).status).toBe(400);
    expect((await raw(node.uri, { path: '/ext/info', headers: { 'avalanche-api-route': 'abc' } })).status).toBe(404);
  });
});

describe('allowed hosts', () => {
  it('accepts localhost, IP literals and an empty Host; refuses other names with 403', async () => {
    for (const host of ['localhost', 'LOCALHOST:9650', '127.0.0.1:9650', '[::1]:9650', '10.1.2.3']) {
      const res = await raw(node.uri, { path: '/ext/health', headers: { host } });
      expect(res.status, host).toBe(200);
    }
    const bad = await raw(node.uri, { path: '/ext/health', headers: { host: 'evil.example:9650' } });
    expect(bad.status).toBe(403);
    expect(bad.body).toBe('invalid host specified\n');
    expect(bad.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(bad.headers['node-id']).toBe(NODE_ID);
  });

  it('--http-allowed-hosts lists names; * disables the filter', async () => {
    const listed = await startTestNode({ httpAllowedHosts: 'node.internal,other' });
    const any = await startTestNode({ httpAllowedHosts: '*' });
    try {
      expect((await raw(listed.uri, { path: '/ext/health', headers: { host: 'node.internal' } })).status).toBe(200);
      expect((await raw(listed.uri, { path: '/ext/health', headers: { host: 'localhost' } })).status).toBe(403);
      expect((await raw(any.uri, { path: '/ext/health', headers: { host: 'anything.example' } })).status).toBe(200);
    } finally {
      await Promise.all([listed.stop(), any.stop()]);
    }
  });
});

describe('CORS', () => {
  it('always varies on Origin and allows any origin with credentials by default', async () => {
    const res = await raw(node.uri, { path: '/ext/health', headers: { origin: 'https://app.example' } });
    expect(res.headers.vary).toBe('Origin');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    const none = await raw(node.uri, { path: '/ext/health' });
    expect(none.headers.vary).toBe('Origin');
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight itself, on any path, before the host filter', async () => {
    const res = await raw(node.uri, {
      method: 'OPTIONS',
      path: '/ext/anything',
      headers: {
        host: 'evil.example',
        origin: 'https://app.example',
        'access-control-request-method': 'post',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('POST');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.rawHeaders.filter((h, i) => i % 2 === 0 && h === 'Vary')).toHaveLength(3);
  });

  it('refuses to allow a header outside the default list', async () => {
    const res = await raw(node.uri, {
      method: 'OPTIONS',
      path: '/ext/info',
      headers: { origin: 'https://a', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-secret' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('--http-allowed-origins restricts origins, with * wildcards, echoing the origin', async () => {
    const restricted = await startTestNode({ httpAllowedOrigins: 'https://good.example https://*.avax.network' });
    try {
      const good = await raw(restricted.uri, { path: '/ext/health', headers: { origin: 'https://good.example' } });
      expect(good.headers['access-control-allow-origin']).toBe('https://good.example');
      const sub = await raw(restricted.uri, { path: '/ext/health', headers: { origin: 'https://api.avax.network' } });
      expect(sub.headers['access-control-allow-origin']).toBe('https://api.avax.network');
      const bad = await raw(restricted.uri, { path: '/ext/health', headers: { origin: 'https://evil.example' } });
      expect(bad.headers['access-control-allow-origin']).toBeUndefined();
      expect(bad.status).toBe(200);
    } finally {
      await restricted.stop();
    }
  });
});

describe('route aliases of the primary chains', () => {
  it('serves the C-Chain as coreth does: /rpc (and /ws) under every alias, nothing at the chain path itself', async () => {
    for (const path of ['/ext/bc/C', '/ext/C', '/ext/bc/2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC']) {
      expect((await post(`${node.uri}${path}`, '{}')).status).toBe(404);
    }
    for (const path of ['/ext/bc/C/rpc', '/ext/C/rpc', '/ext/bc/2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC/rpc']) {
      const r = await post(`${node.uri}${path}`, '{"jsonrpc":"2.0","id":1,"method":"net_version"}');
      expect(r.json).toEqual({ jsonrpc: '2.0', id: 1, result: '43112' });
    }
  });
});

describe('metrics', () => {
  it('serves a Prometheus exposition at /ext/metrics unless disabled', async () => {
    const res = await fetch(`${node.uri}/ext/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect(text).toMatch(/^avalanche_health_checks_failing\{tag="all"\} 0$/m);
    const off = await startTestNode({ apiMetricsEnabled: false, apiHealthEnabled: false });
    try {
      expect((await fetch(`${off.uri}/ext/metrics`)).status).toBe(404);
      expect((await fetch(`${off.uri}/ext/health`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});
