#!/usr/bin/env node
// The avalanchego-compatible command line: same flags, same failure lines and exit codes.
import { loadConfig } from './config/load.js';
import { FlagError } from './config/flags.js';
import { NODE_VERSION } from './chains/vms.js';
import { DATABASE_VERSION, RPC_PROTOCOL_VERSION } from './api/info/service.js';
import { startNode, type RunningNode } from './node/index.js';
import { IndexerShutdown } from './indexer/indexer.js';
import { banner } from './banner.js';

async function main(): Promise<number> {
  let result: ReturnType<typeof loadConfig>;
  try {
    result = loadConfig({ argv: process.argv.slice(2), env: process.env });
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    process.stdout.write(`${err.stage === 'flags' ? "couldn't configure flags" : "couldn't load node config"}: ${err.message}\n`);
    return 1;
  }
  if (result.action === 'help') {
    process.stderr.write(`${result.text}\n`);
    return 0;
  }
  if (result.action === 'version') {
    process.stdout.write(
      `${NODE_VERSION} [database=${DATABASE_VERSION}, rpcchainvm=${RPC_PROTOCOL_VERSION}, emulator=avalanche-emulator, node=${process.version}]\n`,
    );
    return 0;
  }
  const config = result.config;
  // Signals are handled from the start: one that arrives while the node starts stops it cleanly once up.
  let stopRequested!: () => void;
  const stopSignal = new Promise<void>((resolve) => {
    stopRequested = resolve;
  });
  process.once('SIGINT', () => stopRequested());
  process.once('SIGTERM', () => stopRequested());
  let node: RunningNode;
  try {
    node = await startNode(config);
  } catch (err) {
    // An indexer refusal is a FATAL log line and a clean shutdown, exit code 0, as on avalanchego.
    if (err instanceof IndexerShutdown) return 0;
    process.stdout.write(`couldn't start node: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`${await banner(node)}\n`);

  await stopSignal;
  await node.stop();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stdout.write(`couldn't start node: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
