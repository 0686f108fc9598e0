// The files avalanchego reads about chains: --chain-aliases-file and, per chain, config.json and
// upgrade.json in --chain-config-dir.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StartError } from './shell.js';

/** avalanchego's --chain-aliases-file: a JSON map of blockchain ID to aliases; no file, no aliases. */
export async function readChainAliases(path: string): Promise<Record<string, string[]>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StartError(`couldn't read chain aliases file: ${(err as Error).message}`);
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((v) => Array.isArray(v) && v.every((a) => typeof a === 'string'))
  ) {
    throw new StartError("couldn't read chain aliases file: json: cannot unmarshal into Go value of type map[ids.ID][]string");
  }
  return parsed as Record<string, string[]>;
}

/** A chain's config.json or upgrade.json in --chain-config-dir, under its ID or else an alias, as avalanchego looks. */
export async function readChainFile(dir: string, names: string[], file: 'config.json' | 'upgrade.json'): Promise<Uint8Array | undefined> {
  for (const name of names) {
    try {
      return new Uint8Array(await readFile(join(dir, name, file)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err;
    }
  }
  return undefined;
}

/** Whether an upgrade.json says anything: an empty object is allowed where none is read. */
export function saysSomething(upgrade: Uint8Array | undefined): boolean {
  return (
    upgrade !== undefined &&
    Buffer.from(upgrade)
      .toString('utf8')
      .trim()
      .replace(/^\{\s*\}$/, '') !== ''
  );
}
