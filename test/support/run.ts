// A client's command line (hardhat, forge) run to its end, its stdout and stderr kept together;
// killed past `timeoutMs`, so a hung client neither outlives its test nor hides its output.
import { spawn } from 'node:child_process';

export interface Finished {
  code: number | null;
  /** stdout and stderr as they came, then why it ended early (if it did). */
  output: string;
}

export function runToEnd(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Finished> {
  const { timeoutMs, ...spawnOptions } = options;
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => {
      output += d;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n[${err.message}]` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
