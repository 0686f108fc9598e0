// Bundles the compiled CLI (dist/cli.js and every module it imports) into one CommonJS file,
// dist/avalanche-emulator.cjs, run by the launcher dist/avalanche-emulator.js (scripts/launcher.mjs)
// through V8's code cache, which this script then makes by starting a node once.
// Node 20 loads ES modules one file at a time; one file instead of about sixty saves some 60 ms of
// start-up, and the code cache some 50 ms more. The native bindings (LevelDB, libsecp256k1, blst) and
// ws stay external and load from node_modules as before; LevelDB's JavaScript (level, classic-level,
// abstract-level and their helpers) and memory-level are bundled (see bundledStores).
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import { slowPaths } from './slowpaths.mjs';

/**
 * The stores' JavaScript in the bundle: loaded from node_modules, `level` cost some 35 ms of every
 * start-up (resolving, reading and compiling about twenty small files), memory-level 4. They stay
 * lazy: storage/db.js requires only the store in use, through a require the bundler cannot see,
 * made a plain one here; the bundle's modules run on their first require. classic-level's native
 * binding is still found by node-gyp-build in the installed package's directory.
 */
const bundledStores = {
  name: 'bundled-stores',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]storage[\\/]db\.js$/ }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      let found = 0;
      const contents = source.replace(/\blazyRequire\('(memory-level|level)'\)/g, (_, name) => {
        found++;
        return `require('${name}')`;
      });
      if (found !== 2) throw new Error(`bundle: expected the two stores' lazyRequire calls in ${file}, found ${found}`);
      return { contents, loader: 'js' };
    });
    // The binding of the classic-level that `level` (a dependency) resolves, wherever the package
    // manager put it, found by the node-gyp-build beside it.
    b.onLoad({ filter: /[\\/]node_modules[\\/]classic-level[\\/]binding\.js$/ }, () => ({
      contents: [
        "const path = require('node:path');",
        "const level = path.dirname(require.resolve('level/package.json'));",
        "const dir = path.dirname(require.resolve('classic-level/package.json', { paths: [level] }));",
        "module.exports = require(require.resolve('node-gyp-build', { paths: [dir] }))(dir);",
      ].join('\n'),
      loader: 'js',
    }));
  },
};

const { metafile } = await build({
  entryPoints: ['dist/cli.js'],
  metafile: true,
  outfile: 'dist/avalanche-emulator.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [slowPaths, bundledStores],
  external: ['level/package.json', 'classic-level/package.json', 'ws', 'secp256k1', '@chainsafe/blst'],
  logLevel: 'warning',
  // The sources are ES modules: import.meta.url is the bundle's own URL.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// Node's own modules the bundle requires, for the launcher to load before it sets its V8 flags.
const builtins = [...new Set(metafile.outputs['dist/avalanche-emulator.cjs'].imports.filter((i) => i.external && isBuiltin(i.path)).map((i) => i.path))].sort();
writeFileSync('dist/avalanche-emulator.builtins.json', `${JSON.stringify(builtins)}\n`);
copyFileSync('scripts/launcher.mjs', 'dist/avalanche-emulator.js');
chmodSync('dist/avalanche-emulator.js', 0o755);

// The code cache: a node started on the default database (LevelDB, in a temp dir), stopped once it
// has written its process context file; the launcher writes what V8 compiled on its way out.
rmSync('dist/avalanche-emulator.cjs.cache', { force: true });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'avalanche-emulator-build-'));
try {
  const child = spawn(process.execPath, ['dist/avalanche-emulator.js', '--http-port=0', '--log-level=off', `--data-dir=${dataDir}`], {
    stdio: 'ignore',
    env: { ...process.env, AVALANCHE_EMULATOR_WRITE_CODE_CACHE: '1' },
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 30_000;
  while (!existsSync(path.join(dataDir, 'process.json')) && child.exitCode === null && Date.now() < deadline) await sleep(10);
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0 || !existsSync('dist/avalanche-emulator.cjs.cache')) {
    // Not fatal: the node runs without the cache, only its start-up is slower.
    console.warn(`bundle: no code cache (the node exited with ${code}); start-up will compile the bundle`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
