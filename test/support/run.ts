// A client's command line (hardhat, forge) run to its end, its stdout and stderr kept together.
import { spawn } from 'node:child_process';

export interface Finished {
  code: number | null;
  /** stdout and stderr as they came. */
  output: string;
}

export function runToEnd(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => {
      output += d;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => resolve({ code, output }));
  });
}
