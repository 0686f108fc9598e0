// Named loggers as avalanchego has them (`main`, `vm-factory`, one per chain): each writes to
// <log-dir>/<name>.log at its logLevel and to stdout at its displayLevel, and both levels can be
// changed at run time through admin.setLoggerLevel.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { enabled, type Level } from './level.js';

export interface LoggerLevels {
  logLevel: Level;
  displayLevel: Level;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function stamp(d = new Date()): string {
  return `[${pad(d.getMonth() + 1)}-${pad(d.getDate())}|${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}]`;
}

export class Logger {
  private file: WriteStream | undefined;

  constructor(
    readonly name: string,
    public levels: LoggerLevels,
    private readonly logDir: string | undefined,
    private readonly display: (line: string) => void,
  ) {}

  log(level: Level, message: string, fields?: Record<string, unknown>): void {
    const toFile = this.logDir !== undefined && enabled(level, this.levels.logLevel);
    const toDisplay = enabled(level, this.levels.displayLevel);
    if (!toFile && !toDisplay) return;
    const scope = this.name === 'main' || this.name === 'vm-factory' ? '' : ` <${this.name} Chain>`;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    const line = `${stamp()} ${level.padEnd(5)}${scope} ${message}${extra}`;
    if (toDisplay) this.display(line);
    if (toFile) this.fileStream().write(`${line}\n`);
  }

  verbo(msg: string, f?: Record<string, unknown>) {
    this.log('VERBO', msg, f);
  }
  debug(msg: string, f?: Record<string, unknown>) {
    this.log('DEBUG', msg, f);
  }
  trace(msg: string, f?: Record<string, unknown>) {
    this.log('TRACE', msg, f);
  }
  info(msg: string, f?: Record<string, unknown>) {
    this.log('INFO', msg, f);
  }
  warn(msg: string, f?: Record<string, unknown>) {
    this.log('WARN', msg, f);
  }
  error(msg: string, f?: Record<string, unknown>) {
    this.log('ERROR', msg, f);
  }
  fatal(msg: string, f?: Record<string, unknown>) {
    this.log('FATAL', msg, f);
  }

  private fileStream(): WriteStream {
    if (!this.file) {
      mkdirSync(this.logDir!, { recursive: true, mode: 0o750 });
      this.file = createWriteStream(join(this.logDir!, `${this.name}.log`), { flags: 'a', mode: 0o640 });
    }
    return this.file;
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    if (file) await new Promise<void>((done) => file.end(done));
  }
}

/** The node's loggers by name, in creation order (as getLoggerLevel lists them). */
export class LogFactory {
  private readonly loggers = new Map<string, Logger>();

  constructor(
    private readonly defaults: LoggerLevels,
    private readonly logDir: string | undefined,
    private readonly display: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {}

  make(name: string): Logger {
    let logger = this.loggers.get(name);
    if (!logger) {
      logger = new Logger(name, { ...this.defaults }, this.logDir, this.display);
      this.loggers.set(name, logger);
    }
    return logger;
  }

  get(name: string): Logger | undefined {
    return this.loggers.get(name);
  }

  names(): string[] {
    return [...this.loggers.keys()];
  }

  async close(): Promise<void> {
    await Promise.all([...this.loggers.values()].map((l) => l.close()));
  }
}
