import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

/** perms.WriteFile: write to a temporary file beside the target, then rename it into place. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o640): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o750 });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  await writeFile(tmp, data, { mode });
  await chmod(tmp, mode);
  await rename(tmp, path);
}
