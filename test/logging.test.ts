// Named loggers: their levels decide what reaches <log-dir>/<name>.log, and admin changes them live.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestNode, type TestNode } from './helpers.js';

let node: TestNode;
let logFile: string;
beforeAll(async () => {
  node = await startTestNode({ apiAdminEnabled: true, logLevel: 'info', logDisplayLevel: 'off' });
  logFile = join(node.dataDir, 'logs', 'main.log');
});
afterAll(() => node.stop());

const settle = () => new Promise((r) => setTimeout(r, 100));
const logged = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

describe('logger levels', () => {
  it('writes INFO at info, and "API called" only once main is at DEBUG or finer', async () => {
    await call(`${node.uri}/ext/info`, 'info.getNetworkName');
    await settle();
    expect(logged()).toMatch(/INFO .*node started/);
    expect(logged()).not.toContain('"method":"getNetworkName"');

    await call(`${node.uri}/ext/admin`, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'debug' });
    await call(`${node.uri}/ext/info`, 'info.getNetworkName');
    await settle();
    expect(logged()).toMatch(/DEBUG API called \{"service":"info","method":"getNetworkName"\}/);

    // TRACE is coarser than DEBUG: at TRACE the DEBUG lines stop.
    await call(`${node.uri}/ext/admin`, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'trace' });
    const before = logged().length;
    await call(`${node.uri}/ext/info`, 'info.getNodeVersion');
    await settle();
    expect(logged().slice(before)).not.toContain('getNodeVersion');
  });
});
