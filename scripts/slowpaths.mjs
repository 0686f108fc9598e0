// An esbuild plugin for the bundle: a few lines of ethereumjs's hottest files, written in ways
// that take Node 20's V8 (11.3) down a slow path, are bundled as code that computes the same
// thing. Each change names what it replaces and stops the build when a file no longer has it as
// expected, so that a new version of a package is read again before it is bundled this way.
//
// 1. Object spreads. V8 takes a slow path when a spread adds properties to an object another
//    spread made (`{ ...a, ...b }`, `{ ...a, newKey }`): about 2 µs a property, and garbage (a
//    map per property). ethereumjs builds every message frame's result that way (EVM.
//    runInterpreter's `{ ...runState, ...result, ...env }`, _executeCall's `{ ...{ codeAddress },
//    ...message, gasLimit }`): 60-100 µs per frame. Its 1559 txs are built so too; its receipts
//    and its afterTx event spread a result into a literal. esbuild lowers these files' spreads to
//    its helpers, and the helpers' calls become Object.assign calls: 3-5 µs for runInterpreter's
//    result (a microbenchmark: 75-82 µs native, 14-20 µs with esbuild's helpers, which define one
//    property at a time). Only these files: elsewhere the native spread is mostly the fast kind
//    (`{ ...a }`), and lowering every file cost the block builder and the metrics more.
//    Object.assign does what the spread does when the target is a new plain object and the sources
//    hold plain data properties: it sets where the spread defines, which differs only for a setter
//    on the target or an own `__proto__` key in a source; and the helper that copies a literal's
//    properties (`__spreadProps`) would keep an accessor the literal defines. Every spread of these
//    files, at the pinned versions, is of the plain kind (object literals of data, ethereumjs's
//    results and options, a Message's own fields). SPREADS counts them per file.
// 2. Byte padding. @ethereumjs/util's setLength pads with `new Uint8Array([...new Uint8Array(n),
//    ...msg])`, through the array iterator byte by byte: 2.6-3.2 µs for a word, against 0.11-0.14
//    µs for a new array and a set(). MSTORE pads every word it writes, storage keys are padded:
//    3.1 % of an eth_call's profile, 0.1 % after.
// 3. The trie's path stack. @ethereumjs/mpt's findPath, which every trie read and write runs,
//    makes its stack with `Array.from({ length: keyLen })`, 4.8-6.4 µs for 64 nibbles, against
//    0.17-0.28 µs for `new Array(keyLen)`: 4 % of an eth_call's profile. The stack is only
//    indexed and then filtered of undefined entries, which drops holes and undefined alike.
import { readFile } from 'node:fs/promises';
import { transform } from 'esbuild';

/** The files whose object spreads become Object.assign calls, and how many spread helper calls esbuild makes of each. */
const SPREADS = {
  'evm/dist/esm/evm.js': 30,
  'vm/dist/esm/runTx.js': 5,
  'tx/dist/esm/1559/tx.js': 6,
};
const HELPER_CALL = /\b__spread(Values|Props)\(/g;

/** Exact rewrites: each `from` must be in its file once; `prelude` goes before the file's code. */
const REWRITES = {
  'util/dist/esm/bytes.js': {
    prelude: 'const padded = (msg, length, at) => { const out = new Uint8Array(length); out.set(msg, at); return out; };\n',
    swaps: [
      ['new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])', 'padded(msg, length, 0)'],
      ['new Uint8Array([...new Uint8Array(length - msg.length), ...msg])', 'padded(msg, length, length - msg.length)'],
    ],
  },
  'mpt/dist/esm/mpt.js': { prelude: '', swaps: [['Array.from({ length: keyLen })', 'new Array(keyLen)']] },
};

/** esbuild's filter for the files `names` (paths under node_modules/@ethereumjs), with either separator. */
const pattern = (names) => {
  const sep = '[\\\\/]';
  const escaped = (part) => part.replace(/\./g, '\\.');
  const files = names.map((n) => n.split('/').map(escaped).join(sep));
  return new RegExp(`${sep}node_modules${sep}@ethereumjs${sep}(${files.join('|')})$`);
};
const nameOf = (file) => file.replace(/\\/g, '/').replace(/.*\/node_modules\/@ethereumjs\//, '');
const stop = (message) => {
  throw new Error(`slow-paths: @ethereumjs/${message}: read it again, then update scripts/slowpaths.mjs`);
};

async function assignSpreads(file) {
  const name = nameOf(file);
  const options = { loader: 'js', format: 'esm', target: 'node20', supported: { 'object-rest-spread': false } };
  const { code } = await transform(await readFile(file, 'utf8'), options);
  const calls = code.match(HELPER_CALL)?.length ?? 0;
  if (calls !== SPREADS[name] || code.includes('__objRest(')) stop(`${name} has ${calls} spreads, not ${SPREADS[name]}`);
  return { contents: code.replace(HELPER_CALL, 'Object.assign('), loader: 'js' };
}

async function rewrite(file) {
  const name = nameOf(file);
  const { prelude, swaps } = REWRITES[name];
  let code = await readFile(file, 'utf8');
  for (const [from, to] of swaps) {
    if (code.split(from).length !== 2) stop(`${name} no longer has ${from} once`);
    code = code.replace(from, to);
  }
  return { contents: prelude + code, loader: 'js' };
}

export const slowPaths = {
  name: 'slow-paths',
  setup(build) {
    build.onLoad({ filter: pattern(Object.keys(SPREADS)) }, ({ path: file }) => assignSpreads(file));
    build.onLoad({ filter: pattern(Object.keys(REWRITES)) }, ({ path: file }) => rewrite(file));
  },
};
