// An esbuild plugin for the bundle: the object spreads of three of ethereumjs's hottest files
// become Object.assign calls, and its byte padding copies its bytes instead of spreading them.
//
// Node 20's V8 (11.3) takes a slow path when a spread adds properties to an object another spread
// made (`{ ...a, ...b }`, `{ ...a, newKey }`): about 2 µs a property. ethereumjs builds every
// message frame's result that way (EVM.runInterpreter's `{ ...runState, ...result, ...env }`,
// _executeCall's `{ ...{ codeAddress }, ...message, gasLimit }`): 60-100 µs per frame, and garbage
// (the slow path makes a map per property). Its 1559 txs are built so too; its receipts and its
// afterTx event spread a result into a literal. esbuild lowers these files' spreads
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
//
// @ethereumjs/util's setLength pads with `new Uint8Array([...new Uint8Array(n), ...msg])`, which
// goes through the array iterator byte by byte: 2.6-3.2 µs for a word, against 0.11-0.14 µs for a
// new array and a set() (a microbenchmark). MSTORE pads every word it writes so, and storage keys
// are padded too: a few percent of an eth_call. The two expressions are replaced by what they
// compute, a new Uint8Array of `length` bytes with msg's bytes at its end (or start).
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

const SET_LENGTH = /[\\/]node_modules[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/;
/** setLength's two paddings, as written at the pinned version, and what replaces each. */
const PADDINGS = [
  ['new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])', 'padded(msg, length, 0)'],
  ['new Uint8Array([...new Uint8Array(length - msg.length), ...msg])', 'padded(msg, length, length - msg.length)'],
];
const PADDED = 'const padded = (msg, length, at) => { const out = new Uint8Array(length); out.set(msg, at); return out; };\n';

/** setLength's paddings as copies; stops the build when the file no longer has each exactly once. */
async function copyPaddings(file) {
  let code = await readFile(file, 'utf8');
  for (const [from, to] of PADDINGS) {
    if (code.split(from).length !== 2) throw new Error(`assign-spreads: @ethereumjs/util's bytes.js no longer pads with ${from}: update scripts/spreads.mjs`);
    code = code.replace(from, to);
  }
  return { contents: PADDED + code, loader: 'js' };
}

export const assignSpreads = {
  name: 'assign-spreads',
  setup(build) {
    build.onLoad({ filter: SET_LENGTH }, ({ path: file }) => copyPaddings(file));
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
