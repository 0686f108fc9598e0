// The command line a user runs: spawned as a process, found through its process context file.
import { existsSync, readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, runCli, spawnNode, tempDir } from './helpers.js';

const health = async (uri: string) => (await fetch(`${uri}/ext/health`)).status;

describe('a spawned node', () => {
  it('writes the process context file once it serves, prints the banner, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir();
    const node = await spawnNode(['--log-level=info'], dir);
    const text = readFileSync(node.contextFile, 'utf8');
    const context = JSON.parse(text);
    expect(Object.keys(context)).toEqual(['pid', 'uri', 'stakingAddress']);
    expect(context.pid).toBe(node.child.pid);
    expect(context.uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(context.stakingAddress).toBe('[::]:9651');
    expect(text).toBe(JSON.stringify(context, null, 2));
    expect(statSync(node.contextFile).mode & 0o777).toBe(0o640);
    expect(await health(node.uri)).toBe(200);
    // The banner follows the process context file (it reads ewoq's holdings from the chains' APIs).
    for (let i = 0; i < 100 && !node.output().includes('Listening on'); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 50));
    expect(node.output().trimEnd().split('\n').at(-1)).toBe(`Listening on ${node.uri}`);
    // What ewoq holds, as each chain's API answers it (the local genesis's allocations).
    expect(node.output()).toContain('      holds 300,000,000 AVAX on X, 30,000,000 on P (locked included), 50,000,000 on C\n');

    const t0 = Date.now();
    node.child.kill('SIGTERM');
    expect(await node.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(existsSync(node.contextFile)).toBe(false);
    expect(readFileSync(join(dir, 'logs', 'main.log'), 'utf8')).toMatch(/INFO .*node started/);

    // The database was closed: a new process opens the same data dir.
    const again = await spawnNode([], dir);
    expect(await health(again.uri)).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    expect(existsSync(again.contextFile)).toBe(false);
  });

  it('refuses a second process on the same data dir with a clear error, leaving the first serving', async () => {
    const dir = tempDir();
    const first = await spawnNode([], dir);
    const second = await runCli([`--data-dir=${dir}`, '--http-port=0']);
    expect(second.code).toBe(1);
    // Log lines come first, as on avalanchego; the failure is the last line.
    expect(second.stdout.trimEnd().split('\n').at(-1)).toMatch(/^couldn't start node: database .*db\/local is in use by another process/);
    expect(await health(first.uri)).toBe(200);
    first.child.kill('SIGTERM');
    await first.exited;
  });

  it('reports a port in use the way avalanchego does', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli([`--data-dir=${tempDir()}`, `--http-port=${port}`]);
      expect(r.code).toBe(1);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
        `couldn't start node: failed to initialize node: couldn't initialize API server: listen tcp 127.0.0.1:${port}: bind: address already in use`,
      );
    } finally {
      blocker.close();
    }
  });

  it('keeps nothing on disk with --db-type=memdb', async () => {
    const dir = tempDir();
    const node = await spawnNode(['--db-type=memdb', '--log-level=off'], dir);
    expect(await health(node.uri)).toBe(200);
    expect(existsSync(join(dir, 'db'))).toBe(false);
    node.child.kill('SIGTERM');
    await node.exited;
  });

  it('takes --flag value, AVAGO_* variables and --config-file, flags first', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ 'api-admin-enabled': true, 'network-id': 'network-4242', 'log-level': 'off' }));
    const node = await spawnNode(['--config-file', config, '--network-id', '7777'], dir);
    try {
      expect(await call(`${node.uri}/ext/info`, 'info.getNetworkID')).toEqual({ networkID: '7777' });
      expect(await call(`${node.uri}/ext/admin`, 'admin.getLoggerLevel', { loggerName: 'main' })).toEqual({
        loggerLevels: { main: { logLevel: 'OFF', displayLevel: 'OFF' } },
      });
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  });
});

describe('flag errors: one line naming the flag, exit 1, nothing written', () => {
  const cases: Array<[string[], string]> = [
    [['--foo=1'], "couldn't configure flags: unknown flag: --foo"],
    [['--http-port=abc'], `couldn't configure flags: invalid argument "abc" for "--http-port" flag: strconv.ParseUint: parsing "abc": invalid syntax`],
    [['--http-port=70000'], `couldn't configure flags: invalid argument "70000" for "--http-port" flag: port must be in [0, 65535]`],
    [
      ['--api-admin-enabled=yes'],
      `couldn't configure flags: invalid argument "yes" for "--api-admin-enabled" flag: strconv.ParseBool: parsing "yes": invalid syntax`,
    ],
    [['--health-check-frequency=5'], `couldn't configure flags: invalid argument "5" for "--health-check-frequency" flag: time: missing unit in duration "5"`],
    [['--health-check-frequency=0s'], "couldn't load node config: health-check-frequency must be positive"],
    [['--network-id=Foo'], `couldn't load node config: invalid --network-id: failed to parse network name: "foo"`],
    [['--log-level=loud'], `couldn't load node config: invalid --log-level: unknown log level: "loud"`],
    [['--db-type=rocksdb'], "couldn't load node config: invalid --db-type: db-type must be one of {leveldb, memdb}"],
    [['--http-port'], "couldn't configure flags: flag needs an argument: --http-port"],
    [['--api-admin-enabled', 'false'], `couldn't configure flags: unexpected argument "false": flags are written --name=value`],
  ];
  it.each(cases)('%j', async (args, line) => {
    const dir = join(tempDir(), 'data');
    const r = await runCli([`--data-dir=${dir}`, ...args]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${line}\n`);
    expect(existsSync(dir)).toBe(false);
  });

  it('refuses mainnet and fuji, whose genesis is not reproduced', async () => {
    for (const net of ['mainnet', 'fuji', '1', 'testnet']) {
      const r = await runCli([`--network-id=${net}`, `--data-dir=${join(tempDir(), 'd')}`]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^couldn't load node config: invalid --network-id: network (mainnet|fuji) \(\d\) is not supported/);
    }
  });

  it('names a bad AVAGO_ variable and an unknown config-file key', async () => {
    const env = await runCli([`--data-dir=${join(tempDir(), 'd')}`], { AVAGO_HTTP_PORT: 'x' });
    expect(env.stdout).toBe(`couldn't configure flags: invalid argument "x" for "--http-port" flag: strconv.ParseUint: parsing "x": invalid syntax\n`);
    const dir = tempDir();
    writeFileSync(join(dir, 'c.json'), '{"no-such-flag": 1}');
    const file = await runCli([`--config-file=${join(dir, 'c.json')}`, `--data-dir=${join(dir, 'd')}`]);
    expect(file.code).toBe(1);
    expect(file.stdout).toBe(`couldn't configure flags: unknown config file key: "no-such-flag"\n`);
    expect(readdirSync(dir)).toEqual(['c.json']);
  });
});

describe('--help and --version', () => {
  it('--help lists every flag with its default and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--http-port',
      '--http-host',
      '--api-admin-enabled',
      '--index-enabled',
      '--health-check-frequency',
      '--db-type',
      '--network-id',
      '--process-context-file',
      '--profile-dir',
    ]) {
      expect(r.stderr).toContain(flag);
    }
    expect(r.stderr).toContain('(default "9650")');
    expect(r.stderr).toContain('(default "30s")');
  });

  it('--version prints the avalanchego version line', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^avalanchego\/1\.14\.2 \[database=v1\.4\.5, rpcchainvm=45, /);
  });
});
