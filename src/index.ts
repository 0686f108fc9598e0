// The programmatic API: start a node in-process, e.g. one per vitest worker on a free port.
//
//   const node = await startEmulator({ httpPort: 0, dbType: 'memdb', dataDir: tmp });
//   ... fetch(`${node.uri}/ext/info`) ...
//   await node.stop();
import { loadConfig, type NodeOptions } from './config/load.js';
import { FlagError } from './config/flags.js';
import { startNode, type RunningNode } from './node/index.js';

export type { NodeOptions } from './config/load.js';
export type { RunningNode } from './node/index.js';
export type { NodeConfig } from './config/load.js';
export { FlagError } from './config/flags.js';
export { StartError } from './node/index.js';
export { IndexerShutdown } from './indexer/indexer.js';

/**
 * Starts a node with the same options as the command-line flags (kebab-case or camelCase keys:
 * `'http-port'` or `httpPort`). Environment variables are not read; the process context file is
 * written only when `processContextFile` is given, so parallel nodes do not overwrite each other's.
 */
export async function startEmulator(options: NodeOptions = {}): Promise<{ uri: string; stop(): Promise<void>; node: RunningNode }> {
  const given = Object.keys(options).some((k) => k === 'processContextFile' || k === 'process-context-file');
  const result = loadConfig({ options: given ? options : { ...options, processContextFile: '' } });
  if (result.action !== 'run') throw new FlagError('help and version are command-line actions');
  const node = await startNode(result.config);
  return { uri: node.uri, stop: () => node.stop(), node };
}
