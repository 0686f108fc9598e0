// A JSON-RPC proxy for fork tests, between a forker and its upstream: each HTTP request's calls go to
// `target` through `request` first (to rewrite or hold them), and each answer comes back through
// `reply` (to change it), a batch as a batch.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcCall {
  jsonrpc?: string;
  id?: unknown;
  method: string;
  params?: unknown[];
}

export interface RpcAnswer {
  jsonrpc?: string;
  id?: unknown;
  /** Whatever the upstream answered, for a hook to change. */
  result?: any;
  error?: unknown;
}

export interface ProxyHooks {
  /** The calls of one HTTP request, as they go upstream: returned as they are, changed, or after a wait. */
  request?(calls: RpcCall[]): RpcCall[] | Promise<RpcCall[]>;
  /** Each answer, with the call it answers, as it goes back. */
  reply?(answer: RpcAnswer, call: RpcCall | undefined): RpcAnswer;
}

export interface RpcProxy {
  /** The proxy's URL, for --fork-url. */
  url: string;
  close(): void;
}

export async function rpcProxy(target: string, hooks: ProxyHooks = {}): Promise<RpcProxy> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCall | RpcCall[];
    const batch = Array.isArray(body);
    const sent = [body].flat();
    const calls = hooks.request ? await hooks.request(sent) : sent;
    const answered = (await (
      await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch ? calls : calls[0]) })
    ).json()) as RpcAnswer | RpcAnswer[];
    const reply = hooks.reply;
    const out = !reply
      ? answered
      : Array.isArray(answered)
        ? answered.map((a) =>
            reply(
              a,
              calls.find((c) => c.id === a.id),
            ),
          )
        : reply(answered, calls[0]);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(out));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}
