// The explorer's page (--api-explorer-enabled, on by default): the files `npm run build` writes to
// dist/explorer, served at /explorer. Any path under /explorer/ that is not one of its files gets
// index.html, so the page's own router reads the URL (/explorer/tx/0x…, /explorer/chain/C). Nothing
// is read at start-up: a file is read when first asked for, then kept until it changes.
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, replyText } from '../rpc/http.js';
import type { MountHandler } from './router.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The package's dist/explorer, found from this module (src/server, dist/server or the bundle in dist/). */
export function defaultExplorerDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'explorer');
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), 'explorer');
}

export function explorerHandler(dir: () => string = defaultExplorerDir): MountHandler {
  // By name: the file's contents and its mtime; a rebuilt file is read again.
  const files = new Map<string, { mtimeMs: number; body: Uint8Array }>();
  let root: string | undefined;
  const read = async (name: string): Promise<Uint8Array | undefined> => {
    root ??= dir();
    const path = join(root, name);
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(path)).mtimeMs;
    } catch {
      return undefined;
    }
    const cached = files.get(name);
    if (cached?.mtimeMs === mtimeMs) return cached.body;
    const body = new Uint8Array(await readFile(path));
    files.set(name, { mtimeMs, body });
    return body;
  };
  return (req: IncomingMessage, res: ServerResponse, { rest }) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply(res, 405, ['Allow', 'GET, HEAD', 'Content-Type', 'text/plain; charset=utf-8'], 'method not allowed\n');
      return;
    }
    // /explorer alone: to /explorer/, the page's address (relative, so it holds behind any host).
    if (rest === '' && !(req.url ?? '').split('?')[0]!.endsWith('/')) {
      reply(res, 301, ['Location', 'explorer/']);
      return;
    }
    const name = /^\/(app\.js|app\.css|favicon\.svg)$/.exec(rest)?.[1] ?? 'index.html';
    void read(name).then(
      (body) => {
        if (!body) {
          replyText(res, 404, 'the explorer is not built: run `npm run build` (it writes dist/explorer)\n');
          return;
        }
        const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
        // For HEAD, Node sends the headers (the file's Content-Length) and drops the body.
        reply(res, 200, ['Content-Type', type, 'Cache-Control', 'no-cache', 'X-Content-Type-Options', 'nosniff'], body);
      },
      (err) => replyText(res, 500, `${(err as Error).message}\n`),
    );
  };
}
