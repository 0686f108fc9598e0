// What the benchmarks share: where the built emulator is (with a clear stop when it has not been
// built), integer settings from the environment, percentiles and a process's CPU time.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = path.join(ROOT, 'dist');
export const CLI = path.join(DIST, 'avalanche-emulator.js');

/** Imports modules of dist/ (paths relative to it), after checking that the CLI and they exist. */
export async function loadDist(bench, ...relativePaths) {
  const files = relativePaths.map((p) => path.join(DIST, p));
  for (const file of [CLI, ...files]) {
    if (!existsSync(file)) {
      console.error(`${bench}: ${path.relative(process.cwd(), file) || file} is missing; run npm run build first`);
      process.exit(1);
    }
  }
  return Promise.all(files.map((file) => import(pathToFileURL(file).href)));
}

/** Reads integer settings from the environment; a bad one stops the benchmark with its name. */
export function envIntOf(bench) {
  return (name, dflt, min = 1) => {
    const v = process.env[name];
    if (v === undefined || v === '') return dflt;
    const n = Math.floor(Number(v));
    if (!Number.isFinite(n) || n < min) {
      console.error(`${bench}: ${name}=${v} is not an integer >= ${min}`);
      process.exit(1);
    }
    return n;
  };
}

/** The p-quantile (0..1) of ascending samples, nearest rank. */
export function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] : NaN;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
export async function cpuSeconds(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}
