// Where the benchmarks find the built emulator, with a clear stop when it has not been built.
import { existsSync } from 'node:fs';
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
