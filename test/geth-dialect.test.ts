// The geth dialect of the same dispatcher (for the EVM endpoints): batches, -32601, -32602, id first.
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { gethDialect, positional } from '../src/rpc/geth.js';
import { jsonRpcEndpoint } from '../src/rpc/endpoint.js';
import { method, RpcError } from '../src/rpc/method.js';
import { optional, string, uint64 } from '../src/rpc/schema.js';

const app = express();
app.post(
  '/rpc',
  jsonRpcEndpoint(gethDialect, [
    {
      name: 'test',
      methods: {
        echo: method(positional([string, optional(uint64)], 1), ([s, n]) => `${s}:${n ?? 'none'}`),
        fail: method(positional([]), () => {
          throw new RpcError('execution reverted', 3, '0x08c379a0');
        }),
      },
    },
  ]),
);

const send = (body: string) => request(app).post('/rpc').set('content-type', 'application/json').send(body);

describe('geth dialect', () => {
  it('answers with id before result and no data on plain errors', async () => {
    const r = await send('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["a","18446744073709551615"]}');
    expect(r.text).toBe('{"jsonrpc":"2.0","id":1,"result":"a:18446744073709551615"}\n');
  });

  it('-32601 for an unknown method, -32602 for bad params, custom codes with data', async () => {
    expect((await send('{"jsonrpc":"2.0","id":1,"method":"test_nope","params":[]}')).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'the method test_nope does not exist/is not available' },
    });
    expect((await send('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":[]}')).body.error).toEqual({
      code: -32602,
      message: 'missing value for required argument 0',
    });
    expect((await send('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["a",1,2]}')).body.error).toEqual({
      code: -32602,
      message: 'too many arguments, want at most 2',
    });
    expect((await send('{"jsonrpc":"2.0","id":1,"method":"test_fail","params":[]}')).body.error).toEqual({
      code: 3,
      message: 'execution reverted',
      data: '0x08c379a0',
    });
  });

  it('answers batches with arrays, skipping notifications', async () => {
    const r = await send(
      '[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]},{"jsonrpc":"2.0","method":"test_echo","params":["y"]},{"jsonrpc":"2.0","id":2,"method":"test_nope"}]',
    );
    expect(r.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'x:none' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method test_nope does not exist/is not available' } },
    ]);
    expect((await send('[{"jsonrpc":"2.0","id":5,"method":"test_echo","params":["z"]}]')).body).toEqual([{ jsonrpc: '2.0', id: 5, result: 'z:none' }]);
    expect((await send('[]')).body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
  });

  it('-32700 for unparsable bodies and -32600 for invalid requests', async () => {
    expect((await send('{oops')).body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    expect((await send('{"id":1,"method":"test_echo"}')).body.error.code).toBe(-32600);
    expect((await send('[1]')).body).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } }]);
  });

  it('refuses other methods and content types at the HTTP level', async () => {
    expect((await request(app).post('/rpc').set('content-type', 'text/plain').send('{}')).status).toBe(415);
  });
});
