// avalanchego's JSON-RPC dialect (gorilla json2 v1.2.0 + utils/json codec), through HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, rpc, startTestNode, type TestNode } from './helpers.js';

let node: TestNode;
let info: string;
beforeAll(async () => {
  node = await startTestNode({ apiAdminEnabled: true });
  info = `${node.uri}/ext/info`;
});
afterAll(() => node.stop());

const EMPTY_DATA = { jsonrpc: '', method: '', params: null, id: null };
const INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

describe('successful calls', () => {
  it('answers with jsonrpc, result, id in that order, a trailing newline and nosniff', async () => {
    const r = await rpc(info, 'info.getNetworkID');
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers id 0 (avalanchejs starts its ids at 0)', async () => {
    const r = await rpc(info, 'info.getNetworkID', undefined, 0);
    expect(r.text).toBe('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":0}\n');
  });

  it('echoes the id as written, compacted and HTML-escaped', async () => {
    const r = await post(info, '{"jsonrpc":"2.0","id": 1.50 ,"method":"info.getNetworkID"}');
    expect(r.text.endsWith('"id":1.50}\n')).toBe(true);
    const s = await post(info, '{"jsonrpc":"2.0","id":{"a" : "<&>"},"method":"info.getNetworkID"}');
    expect(s.text.endsWith('"id":{"a":"\\u003c\\u0026\\u003e"}}\n')).toBe(true);
    const line = await post(info, '{"jsonrpc":"2.0","id":"a\u2028b\u2029c","method":"info.getNetworkID"}');
    expect(line.text.endsWith('"id":"a\\u2028b\\u2029c"}\n')).toBe(true);
    const big = await post(info, '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"info.getNetworkID"}');
    expect(big.text.endsWith('"id":123456789012345678901234567890}\n')).toBe(true);
  });

  it('matches envelope keys case-insensitively and ignores trailing bytes after the first value', async () => {
    const r = await post(info, '{"JSONRPC":"2.0","ID":7,"Method":"info.getNetworkName"} trailing garbage');
    expect(r.json).toEqual({ jsonrpc: '2.0', result: { networkName: 'local' }, id: 7 });
  });

  it('accepts params as an object, a one-element array, [], {} and null', async () => {
    for (const params of ['{"alias":"X"}', '[{"alias":"X"}]']) {
      const r = await post(info, `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":${params}}`);
      expect(r.json.result).toEqual({ blockchainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed' });
    }
    for (const params of ['[]', '{}', 'null']) {
      const r = await post(info, `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":${params}}`);
      expect(r.json.result).toEqual({ networkID: '12345' });
    }
  });

  it('executes a notification (no id, or id null) and answers an empty 200', async () => {
    const admin = `${node.uri}/ext/admin`;
    const r = await post(admin, '{"jsonrpc":"2.0","method":"admin.setLoggerLevel","params":{"loggerName":"P","logLevel":"debug"}}');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    const n = await post(admin, '{"jsonrpc":"2.0","id":null,"method":"admin.setLoggerLevel","params":{"loggerName":"P","displayLevel":"warn"}}');
    expect(n.text).toBe('');
    const check = await rpc(admin, 'admin.getLoggerLevel', { loggerName: 'P' });
    expect(check.json.result).toEqual({ loggerLevels: { P: { logLevel: 'DEBUG', displayLevel: 'WARN' } } });
  });
});

describe('parse errors (-32700)', () => {
  const cases: Array<[string, string]> = [
    ['', 'EOF'],
    ['   \n', 'EOF'],
    ['{"jsonrpc":"2.0"', 'unexpected EOF'],
    ['xyz', "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{,}', "invalid character ',' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":"\t"}', "invalid character '\\t' in string literal"],
    ['[', 'unexpected EOF'],
  ];
  it.each(cases)('body %j -> %s', async (body, message) => {
    const r = await post(info, body);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', error: { code: -32700, message, data: EMPTY_DATA }, id: null });
    expect(r.text.endsWith('\n')).toBe(true);
  });

  it('rejects a batch as a parse error', async () => {
    const r = await post(info, '[{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}]');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'json: cannot unmarshal array into Go value of type json2.serverRequest', data: EMPTY_DATA },
      id: null,
    });
  });

  it('reports a field of the wrong type with the partially decoded request and its id', async () => {
    const r = await post(info, '{"jsonrpc":"2.0","id":3,"method":5,"params":{"x" : 1}}');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32700,
        message: 'json: cannot unmarshal number into Go struct field serverRequest.method of type string',
        data: { jsonrpc: '2.0', method: '', params: { x: 1 }, id: 3 },
      },
      id: 3,
    });
  });
});

describe('request errors', () => {
  it('answers a wrong version with -32600 and the decoded request as data', async () => {
    const r = await post(info, '{"jsonrpc":"1.0","id":1,"method":"info.getNodeID"}');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'jsonrpc must be 2.0', data: { jsonrpc: '1.0', method: 'info.getNodeID', params: null, id: 1 } },
      id: 1,
    });
    const silent = await post(info, '{"jsonrpc":"1.0","method":"info.getNodeID"}');
    expect(silent.text).toBe('');
  });

  const serverErrors: Array<[string, string]> = [
    ['info.foo', 'rpc: can\'t find method "info.Foo"'],
    ['info.', 'rpc: can\'t find method "info."'],
    ['foo.getX', 'rpc: can\'t find service "foo.GetX"'],
    ['Info.getNodeID', 'rpc: can\'t find service "Info.GetNodeID"'],
    ['info', 'rpc: service/method request ill-formed: "info"'],
    ['info.a.b', 'rpc: service/method request ill-formed: "info.A.b"'],
    ['info.GetNodeID', 'method must start with a non-uppercase letter'],
  ];
  it.each(serverErrors)('method %s -> %s', async (method, message) => {
    const r = await rpc(info, method);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id: 1 });
    expect(r.headers.get('x-content-type-options')).toBeNull();
  });

  it('collapses every params decoding failure into one message', async () => {
    for (const params of ['"abc"', '5', '{"alias":5}', '[5]', 'true']) {
      const r = await post(info, `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":${params}}`);
      expect(r.json.error).toEqual({ code: -32000, message: INVALID_ARG, data: null });
    }
    const level = await rpc(`${node.uri}/ext/admin`, 'admin.setLoggerLevel', { logLevel: 'loud' });
    expect(level.json.error.message).toBe(INVALID_ARG);
  });

  it('escapes <, > and & in error messages as Go does', async () => {
    const r = await rpc(info, 'info.getBlockchainID', { alias: 'a<b>&c' });
    expect(r.text).toContain('"message":"there is no ID with alias: a\\u003cb\\u003e\\u0026c"');
  });
});

describe('HTTP-level refusals', () => {
  it('405 for a method other than POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(info, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe(`rpc: POST method required, received ${method}`);
    }
  });

  it('415 for a missing or wrong Content-Type, keeping its original case', async () => {
    const none = await post(info, '{}', {});
    expect(none.status).toBe(415);
    expect(none.text).toBe('rpc: unrecognized Content-Type: ');
    const wrong = await post(info, '{}', { 'content-type': 'Text/Plain; charset=utf-8' });
    expect(wrong.text).toBe('rpc: unrecognized Content-Type: Text/Plain');
    const spaced = await post(info, '{}', { 'content-type': 'application/json ;x' });
    expect(spaced.status).toBe(415);
  });

  it('accepts application/json in any case and with parameters', async () => {
    for (const type of ['APPLICATION/JSON', 'application/json; charset=UTF-8', 'application/json;']) {
      const r = await post(info, '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}', { 'content-type': type });
      expect(r.json.result).toEqual({ networkID: '12345' });
    }
  });

  it('refuses a body over the limit with a parse error and no crash', async () => {
    const huge = `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`;
    const r = await post(info, huge);
    expect(r.json.error.code).toBe(-32700);
    expect(r.json.error.message).toMatch(/^http: request body too large/);
    const after = await rpc(info, 'info.getNetworkID');
    expect(after.json.result).toEqual({ networkID: '12345' });
  });
});
