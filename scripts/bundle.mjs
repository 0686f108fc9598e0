// Bundles the compiled CLI (dist/cli.js and every module it imports) into one CommonJS file,
// dist/avalanche-emulator.cjs, run by the launcher dist/avalanche-emulator.js (scripts/launcher.mjs)
// through V8's code cache, which this script then makes by starting a node once and asking it a
// contract test's first requests.
// Node 20 loads ES modules one file at a time; one file instead of about sixty saves some 60 ms of
// start-up, and the code cache some 50 ms more. The native bindings (LevelDB, libsecp256k1, blst) and
// ws stay external and load from node_modules as before; LevelDB's JavaScript (level, classic-level,
// abstract-level and their helpers) and memory-level are bundled (see bundledStores).
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** How Node wraps a CommonJS module's code; the launcher calls the function with the same arguments. */
const MODULE_WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

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
  // Without comments and indentation the bundle is 1.7 MB instead of 2.4, and all ASCII (esbuild
  // escapes what strings hold; some comments did not): each start-up reads it, and V8 scans what it
  // compiles lazily. Names are kept, so stack traces still name their functions.
  minifyWhitespace: true,
  // Lines kept short: Node prints the source line of an uncaught exception's throw site, and a
  // minified line is hundreds of kilobytes.
  lineLimit: 160,
  // The sources are ES modules: import.meta.url is the bundle's own URL.
  define: { 'import.meta.url': '__bundleUrl' },
  // The bundle is the body of a CommonJS module's function, wrapped here as Node wraps a module, so
  // that the launcher compiles the file as it is read, with no copy made to wrap it (V8 takes the
  // hashbang line that esbuild keeps from src/cli.ts).
  banner: { js: `${MODULE_WRAPPER}const __bundleUrl = require('node:url').pathToFileURL(__filename).href;` },
  footer: { js: '\n})' },
});
const bundled = readFileSync('dist/avalanche-emulator.cjs');
const notAscii = bundled.findIndex((byte) => byte > 0x7f);
if (notAscii >= 0) throw new Error(`bundle: dist/avalanche-emulator.cjs is not all ASCII (byte ${notAscii}); the launcher reads it as latin1`);
// Node's own modules the bundle requires, for the launcher to load before it sets its V8 flags.
const builtins = [...new Set(metafile.outputs['dist/avalanche-emulator.cjs'].imports.filter((i) => i.external && isBuiltin(i.path)).map((i) => i.path))].sort();
writeFileSync('dist/avalanche-emulator.builtins.json', `${JSON.stringify(builtins)}\n`);
copyFileSync('scripts/launcher.mjs', 'dist/avalanche-emulator.js');
chmodSync('dist/avalanche-emulator.js', 0o755);
// Not a script of its own any more (a function's source): only the launcher runs it.
chmodSync('dist/avalanche-emulator.cjs', 0o644);

// The code cache: a node started on the default database (LevelDB, in a temp dir) and, once it has
// written its process context file, asked what a contract test's first requests ask (firstRequests);
// the launcher writes what V8 compiled on its way out, so a node's first tx and call find their
// functions compiled too.
rmSync('dist/avalanche-emulator.cjs.cache', { force: true });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'avalanche-emulator-build-'));
try {
  const child = spawn(
    process.execPath,
    ['dist/avalanche-emulator.js', '--http-port=0', '--log-level=off', '--dev', '--test-accounts=1', `--data-dir=${dataDir}`],
    {
      stdio: 'ignore',
      env: { ...process.env, AVALANCHE_EMULATOR_WRITE_CODE_CACHE: '1' },
    },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 30_000;
  const context = path.join(dataDir, 'process.json');
  while (!existsSync(context) && child.exitCode === null && Date.now() < deadline) await sleep(10);
  if (existsSync(context)) {
    // Not fatal: what was compiled by then is cached all the same.
    await firstRequests(`${JSON.parse(readFileSync(context, 'utf8')).uri}/ext/bc/C/rpc`).catch((err) =>
      console.warn(`bundle: the code cache's requests failed: ${err.message}`),
    );
  }
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0 || !existsSync('dist/avalanche-emulator.cjs.cache')) {
    // Not fatal: the node runs without the cache, only its start-up is slower.
    console.warn(`bundle: no code cache (the node exited with ${code}); start-up will compile the bundle`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * A contract test's first requests on the C-Chain: a deploy and a call sent as raw signed txs to
 * their receipts, eth_call, eth_estimateGas, eth_fillTransaction, a snapshot reverted, logs and a
 * block read, and what ethers and Hardhat ask around a send (nonce, fees, code, storage, the tx).
 * The contract stores 42, logs it and returns it.
 */
async function firstRequests(url) {
  let id = 0;
  const rpc = async (method, params) => {
    const reply = await (
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    ).json();
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result;
  };
  const [from] = await rpc('eth_accounts', []);
  const send = async (tx) => {
    const raw = await rpc('eth_signTransaction', [{ from, ...tx }]);
    const hash = await rpc('eth_sendRawTransaction', [raw]);
    for (let i = 0; i < 500; i++) {
      const receipt = await rpc('eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      await sleep(5);
    }
    throw new Error('no receipt');
  };
  const runtime = '602a60005560005460005260206000a060206000f3';
  const { contractAddress: to } = await send({ data: `0x6015600c60003960156000f3${runtime}` });
  await rpc('eth_call', [{ to }, 'latest']);
  await rpc('eth_estimateGas', [{ from, to }, 'latest']);
  await rpc('eth_fillTransaction', [{ from, to }]);
  const snapshot = await rpc('evm_snapshot', []);
  await send({ to });
  await rpc('eth_getLogs', [{ address: to, fromBlock: '0x0' }]);
  await rpc('eth_getBlockByNumber', ['latest', true]);
  await rpc('eth_getBalance', [from, 'latest']);
  await rpc('evm_revert', [snapshot]);
  // What ethers and Hardhat ask around a send.
  await rpc('eth_chainId', []);
  await rpc('eth_blockNumber', []);
  await rpc('eth_getTransactionCount', [from, 'pending']);
  await rpc('eth_maxPriorityFeePerGas', []);
  await rpc('eth_feeHistory', ['0x4', 'latest', [50]]);
  await rpc('eth_getCode', [to, 'latest']);
  await rpc('eth_getStorageAt', [to, '0x0', 'latest']);
  await rpc('eth_getTransactionByHash', [(await send({ to })).transactionHash]);
}
