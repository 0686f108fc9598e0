// The shape of the code, checked: dependencies between the folders of src/ point one way, as the
// README and docs/architecture.md draw them, and the rest of the node reaches a VM only through its
// index.ts. (File-level import cycles are Biome's noImportCycles, run by the test command.)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/** What each folder of src/ may import, besides itself. The entry points (cli, banner, index) may import anything. */
const ALLOWED: Record<string, string[]> = {
  encoding: [],
  crypto: [],
  logging: ['encoding'],
  storage: ['encoding'],
  config: ['encoding', 'logging'],
  health: ['encoding', 'storage'],
  rpc: ['encoding'],
  // crypto is a leaf, as encoding is (proposervm's block IDs are SHA-256s).
  chains: ['encoding', 'crypto', 'logging', 'storage', 'health'],
  indexer: ['encoding', 'logging', 'storage', 'chains'],
  vms: ['encoding', 'crypto', 'logging', 'storage', 'chains', 'rpc'],
  genesis: ['encoding', 'chains', 'vms'],
  api: ['encoding', 'logging', 'storage', 'config', 'health', 'chains', 'indexer', 'rpc'],
  data: ['encoding', 'crypto', 'logging', 'storage', 'chains', 'vms', 'rpc'],
  server: ['encoding', 'rpc'],
  // The ICM relayer follows the EVM chains' accepted blocks, as the Data API does.
  relayer: ['encoding', 'crypto', 'logging', 'storage', 'chains', 'vms', 'rpc'],
  // The node's assembly (the composition root): everything but the entry points.
  node: ['encoding', 'crypto', 'logging', 'storage', 'config', 'health', 'chains', 'indexer', 'vms', 'genesis', 'api', 'data', 'relayer', 'rpc', 'server'],
};
const ENTRY_POINTS = ['cli.ts', 'index.ts', 'banner.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of a file (static, dynamic, type-only), as a path relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => relative(SRC, normalize(join(dirname(file), s))));
}

const top = (path: string) => path.split('/')[0]!;

/** Whether an import target (relative to src/) is a public surface: vms/<vm>/index or vms/components/<c>/index. */
function surfaceOf(target: string): boolean {
  const [layer, unit, ...rest] = target.split('/');
  const path = unit === 'components' ? rest.slice(1) : rest;
  return layer === 'vms' && path.length === 1 && /^index\.[jt]s$/.test(path[0]!);
}

const files = sourceFiles(SRC);

describe('dependencies between the folders of src/', () => {
  it('every folder is declared, and each imports only what its layer allows', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = relative(SRC, file);
      if (ENTRY_POINTS.includes(from)) continue;
      const layer = top(from);
      const allowed = ALLOWED[layer];
      if (!allowed) {
        violations.push(`${from}: folder ${layer}/ is not in the layer table`);
        continue;
      }
      for (const target of importsOf(file)) {
        const to = top(target);
        if (to === layer || allowed.includes(to)) continue;
        violations.push(`${from} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the layer table itself has no cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycle = (layer: string, path: string[]): string[] | undefined => {
      if (done.has(layer)) return undefined;
      if (visiting.has(layer)) return [...path, layer];
      visiting.add(layer);
      for (const next of ALLOWED[layer] ?? []) {
        const found = cycle(next, [...path, layer]);
        if (found) return found;
      }
      visiting.delete(layer);
      done.add(layer);
      return undefined;
    };
    for (const layer of Object.keys(ALLOWED)) expect(cycle(layer, [])).toBeUndefined();
  });

  // As in avalanchego, what VMs share lives in vms/components (avax, secp256k1fx, gas, verify):
  // any VM may import it, it imports no VM.
  it('no VM imports another VM, and no node-level service imports another service', () => {
    const crossings: string[] = [];
    for (const file of files) {
      const from = relative(SRC, file);
      const [layer, unit] = from.split('/');
      if (layer !== 'vms' && layer !== 'api') continue;
      for (const target of importsOf(file)) {
        const [toLayer, toUnit] = target.split('/');
        if (layer === 'vms' && toUnit === 'components' && unit !== 'components') continue;
        if (toLayer === layer && toUnit !== unit && target.includes('/')) crossings.push(`${from} imports ${target}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  // Each VM (and each component code outside src/vms uses) says what it offers in its index.ts: the
  // rest of the node imports that, never a module inside.
  it('code outside src/vms imports a VM or a component only through its index.ts', () => {
    const deep: string[] = [];
    for (const file of files) {
      const from = relative(SRC, file);
      if (top(from) === 'vms') continue;
      for (const target of importsOf(file)) {
        if (top(target) !== 'vms') continue;
        if (!surfaceOf(target)) deep.push(`${from} imports ${target}`);
      }
    }
    expect(deep).toEqual([]);
  });

  it('catches a violation when there is one (the check can fail)', () => {
    const imports = importsOf(join(SRC, 'storage', 'db.ts'));
    expect(imports.every((t) => ['storage', 'encoding'].includes(top(t)))).toBe(true);
    expect(ALLOWED.storage!.includes('chains')).toBe(false);
    expect(surfaceOf('vms/evm/index.js')).toBe(true);
    expect(surfaceOf('vms/components/warp/index.js')).toBe(true);
    expect(surfaceOf('vms/evm/api/debug.js')).toBe(false);
    expect(surfaceOf('vms/avm/codec/index.js')).toBe(false);
    expect(surfaceOf('vms/components/avax/address.js')).toBe(false);
    expect(surfaceOf('vms/components/gas.js')).toBe(false);
  });
});
