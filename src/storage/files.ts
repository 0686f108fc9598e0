import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

let writes = 0;

/**
 * perms.WriteFile: fill a temporary file beside the target, then rename it into place. Each write
 * gets its own temporary name, created exclusively ('wx'), so concurrent writes never share one
 * and nothing planted at either name (a symlink) is followed: the rename replaces the link itself.
 */
async function replaceAtomically(path: string, mode: number, fill: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o750 });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++writes}.tmp`);
  try {
    await fill(tmp);
    await chmod(tmp, mode);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o640): Promise<void> {
  return replaceAtomically(path, mode, (tmp) => writeFile(tmp, data, { mode, flag: 'wx' }));
}

/** writeFileAtomic for content that arrives as a stream (a heap snapshot). */
export function streamFileAtomic(path: string, source: Readable, mode = 0o640): Promise<void> {
  return replaceAtomically(path, mode, (tmp) => pipeline(source, createWriteStream(tmp, { mode, flags: 'wx' })));
}
