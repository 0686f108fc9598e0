// Admin API (avalanchego api/admin), mounted only with --api-admin-enabled=true.
import { join, posix } from 'node:path';
import { idFromString } from '../../encoding/cb58.js';
import { decodeHex, encodeHex } from '../../encoding/hex.js';
import type { Aliaser } from '../../chains/aliases.js';
import type { VmRegistry } from '../../chains/vms.js';
import type { LogFactory, Logger } from '../../logging/logger.js';
import { parseLevel, type Level } from '../../logging/level.js';
import type { Database } from '../../storage/db.js';
import { writeFileAtomic } from '../../storage/files.js';
import { goQuote } from '../../encoding/goquote.js';
import { method, rpcTry, rpcTryAsync, serviceErrors, type ServiceDef } from '../../rpc/method.js';
import { none, optional, string, struct, textual } from '../../rpc/schema.js';
import type { Profiler } from './profiler.js';

const MAX_ALIAS_LENGTH = 512;

const errors = serviceErrors({
  aliasTooLong: () => 'alias length is too long',
  loggerNotFound: (name: string) => `logger with name ${goQuote(name)} not found`,
  noLevel: () => 'need to specify either displayLevel or logLevel',
});

/** What admin.alias needs of the HTTP router. */
export interface RouteAliases {
  addAliases(endpoint: string, ...aliases: string[]): void;
}

export interface AdminDeps {
  routes: RouteAliases;
  chainAliases: Aliaser;
  logs: LogFactory;
  vms: VmRegistry;
  profiler: Profiler;
  db: Database;
  config: () => Record<string, unknown>;
}

const level = textual<Level | undefined>(parseLevel, () => undefined);

/** loggerLevels is a Go map: its keys come out sorted. */
const levelsOf = (loggers: Logger[]) => ({
  loggerLevels: Object.fromEntries(
    [...loggers].sort((a, b) => (a.name < b.name ? -1 : 1)).map((l) => [l.name, { logLevel: l.levels.logLevel, displayLevel: l.levels.displayLevel }]),
  ),
});

/** Go's len() of a string counts UTF-8 bytes. */
const tooLong = (alias: string) => Buffer.byteLength(alias, 'utf8') > MAX_ALIAS_LENGTH;

function loggersNamed(logs: LogFactory, name: string): Logger[] {
  if (name === '') return logs.names().map((n) => logs.get(n)!);
  const logger = logs.get(name);
  if (!logger) throw errors.loggerNotFound(name);
  return [logger];
}

export function adminService(d: AdminDeps): ServiceDef {
  const aliasArgs = struct({ endpoint: string, alias: string });
  return {
    name: 'admin',
    methods: {
      startCPUProfiler: method(none, async () => {
        await rpcTryAsync(() => d.profiler.startCPU());
        return {};
      }),
      stopCPUProfiler: method(none, async () => {
        await rpcTryAsync(() => d.profiler.stopCPU());
        return {};
      }),
      memoryProfile: method(none, async () => {
        await rpcTryAsync(() => d.profiler.memory());
        return {};
      }),
      lockProfile: method(none, async () => {
        await rpcTryAsync(() => d.profiler.lock());
        return {};
      }),

      alias: method(aliasArgs, ({ endpoint, alias }) => {
        if (tooLong(alias)) throw errors.aliasTooLong();
        rpcTry(() => d.routes.addAliases(endpoint, alias));
        return {};
      }),

      aliasChain: method(struct({ chain: string, alias: string }), ({ chain, alias }) => {
        if (tooLong(alias)) throw errors.aliasTooLong();
        const id = rpcTry(() => d.chainAliases.lookup(chain));
        rpcTry(() => d.chainAliases.alias(id, alias));
        rpcTry(() => d.routes.addAliases(posix.join('bc', id), posix.join('bc', alias)));
        return {};
      }),

      getChainAliases: method(struct({ chain: string }), ({ chain }) => {
        rpcTry(() => idFromString(chain));
        return { aliases: d.chainAliases.aliases(chain) };
      }),

      stacktrace: method(none, async () => {
        const report = process.report.getReport() as unknown as {
          javascriptStack?: { message?: string; stack?: string[] };
          nativeStack?: Array<{ pc: string; symbol: string }>;
          libuv?: Array<{ type: string; is_active: boolean; is_referenced?: boolean }>;
        };
        const lines = [`pid ${process.pid}, ${new Date().toISOString()}`, '', 'JavaScript stack (main thread):'];
        lines.push(...(report.javascriptStack?.stack ?? []).map((s) => `  ${s.trim()}`));
        lines.push('', 'Native stack:', ...(report.nativeStack ?? []).map((f) => `  ${f.pc} ${f.symbol}`));
        lines.push('', 'Active libuv handles:', ...(report.libuv ?? []).filter((h) => h.is_active).map((h) => `  ${h.type}`));
        await rpcTryAsync(() => writeFileAtomic(join(process.cwd(), 'stacktrace.txt'), `${lines.join('\n')}\n`));
        return {};
      }),

      setLoggerLevel: method(
        struct({ loggerName: string, logLevel: optional(level), displayLevel: optional(level) }),
        ({ loggerName, logLevel, displayLevel }) => {
          if (logLevel === undefined && displayLevel === undefined) throw errors.noLevel();
          const loggers = loggersNamed(d.logs, loggerName);
          for (const l of loggers) {
            if (logLevel !== undefined) l.levels.logLevel = logLevel;
            if (displayLevel !== undefined) l.levels.displayLevel = displayLevel;
          }
          return levelsOf(loggers);
        },
      ),

      getLoggerLevel: method(struct({ loggerName: string }), ({ loggerName }) => levelsOf(loggersNamed(d.logs, loggerName))),

      getConfig: method(none, () => d.config()),

      loadVMs: method(none, async () => {
        const { newVMs, failedVMs } = await rpcTryAsync(() => d.vms.reload());
        return Object.keys(failedVMs).length === 0 ? { newVMs } : { newVMs, failedVMs };
      }),

      dbGet: method(struct({ key: string }), async ({ key }) => {
        const bytes = rpcTry(() => decodeHex(key));
        if (d.db.status !== 'open') return { value: '', errorCode: 1 };
        const value = await d.db.get(bytes);
        return value === undefined ? { value: '', errorCode: 2 } : { value: encodeHex(value), errorCode: 0 };
      }),
    },
  };
}
