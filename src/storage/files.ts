import { chmod, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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

/** A path that resolves outside the directory it is confined to (after following symlinks). */
export class OutsideDirError extends Error {}

/** Whether `path` (absolute, normalized) is `dir` or inside it. */
const within = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * `path` resolved against `dir` (a relative path is under it), refused with OutsideDirError when it
 * lands outside `dir` either as written or once symlinks are followed: the part of the path that
 * exists is resolved with realpath, so a link planted inside `dir` cannot lead out of it. `dir` is
 * created if missing.
 */
export async function confinedPath(dir: string, path: string): Promise<string> {
  const root = resolve(dir);
  const target = resolve(root, path);
  if (!within(root, target)) throw new OutsideDirError(path);
  await mkdir(root, { recursive: true, mode: 0o750 });
  const realRoot = await realpath(root);
  // The deepest existing ancestor (or the target itself), followed through its links.
  let existing = target;
  let rest = '';
  for (;;) {
    try {
      const real = await realpath(existing);
      if (!within(realRoot, join(real, rest))) throw new OutsideDirError(path);
      return target;
    } catch (err) {
      if (err instanceof OutsideDirError || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      rest = join(basename(existing), rest);
      existing = dirname(existing);
    }
  }
}
