// An esbuild plugin for the bundle: the object spreads of three of ethereumjs's hottest files
// become Object.assign calls.
//
// Node 20's V8 (11.3) takes a slow path when a spread adds properties to an object another spread
// made (`{ ...a, ...b }`, `{ ...a, newKey }`): about 2 µs a property. ethereumjs builds every
// message frame's result that way (EVM.runInterpreter's `{ ...runState, ...result, ...env }`,
// _executeCall's `{ ...{ codeAddress }, ...message, gasLimit }`): 60-100 µs per frame, a tenth of
// an eth_call. Its 1559 txs and its receipts are built so too. esbuild lowers these files' spreads
// to its helpers, and the helpers' calls become Object.assign calls: 3-5 µs for runInterpreter's
// result (a microbenchmark: 75-82 µs native, 14-20 µs with esbuild's helpers, which define one
// property at a time). Only these files: in the rest of the code the native spread is mostly the
// fast kind (`{ ...a }`), and lowering every file cost the block builder and the metrics more.
//
// Object.assign does what the spread does when the target is a new plain object and the sources
// hold plain data properties: it sets where the spread defines, which differs only for a setter
// on the target or an own `__proto__` key in a source; and the helper that copies a literal's
// properties (`__spreadProps`) would keep an accessor the literal defines. Every spread of these
// files, at the pinned versions, is of the plain kind (object literals of data, ethereumjs's
// results and options, a Message's own fields). SPREADS counts them, so that another version of a
// file stops the build until its spreads are read again.
import { readFile } from 'node:fs/promises';
import { transform } from 'esbuild';

/** The files (under node_modules/@ethereumjs), and how many spread helper calls esbuild makes of each. */
const SPREADS = {
  'evm/dist/esm/evm.js': 30,
  'vm/dist/esm/runTx.js': 5,
  'tx/dist/esm/1559/tx.js': 6,
};
const FILES = /[\\/]node_modules[\\/]@ethereumjs[\\/](evm[\\/]dist[\\/]esm[\\/]evm|vm[\\/]dist[\\/]esm[\\/]runTx|tx[\\/]dist[\\/]esm[\\/]1559[\\/]tx)\.js$/;
const HELPER_CALL = /\b__spread(Values|Props)\(/g;

export const assignSpreads = {
  name: 'assign-spreads',
  setup(build) {
    build.onLoad({ filter: FILES }, async ({ path: file }) => {
      const name = file.replace(/\\/g, '/').replace(/.*\/node_modules\/@ethereumjs\//, '');
      const options = { loader: 'js', format: 'esm', target: 'node20', supported: { 'object-rest-spread': false } };
      const { code } = await transform(await readFile(file, 'utf8'), options);
      const calls = code.match(HELPER_CALL)?.length ?? 0;
      if (calls !== SPREADS[name] || code.includes('__objRest(')) {
        throw new Error(`assign-spreads: @ethereumjs/${name} has ${calls} spreads, not ${SPREADS[name]}: read them, then update scripts/spreads.mjs`);
      }
      return { contents: code.replace(HELPER_CALL, 'Object.assign('), loader: 'js' };
    });
  },
};
