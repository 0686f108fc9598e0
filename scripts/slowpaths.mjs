// An esbuild plugin for the bundle: a few lines of ethereumjs's hottest files, written in ways
// that take Node 20's V8 (11.3) down a slow path, are bundled as code that computes the same
// thing. Each file is checked against the SHA-256 of the version whose code was read for this (the
// pinned versions): another version stops the build until it is read again and its hash updated.
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
//    results and options, a Message's own fields; tx data is built from named fields, and the one
//    made from JSON goes through ethereumjs's own Object.assign first).
// 2. Byte padding. @ethereumjs/util's setLength pads with `new Uint8Array([...new Uint8Array(n),
//    ...msg])`, through the array iterator byte by byte: 2.6-3.2 µs for a word, against 0.11-0.14
//    µs for a new array and a set(). MSTORE pads every word it writes, storage keys are padded:
//    3.1 % of an eth_call's profile, 0.1 % after.
// 3. The trie's path stack. @ethereumjs/mpt's findPath, which every trie read and write runs,
//    makes its stack with `Array.from({ length: keyLen })`, 4.8-6.4 µs for 64 nibbles, against
//    0.17-0.28 µs for `new Array(keyLen)`: 4 % of an eth_call's profile. The stack is only
//    indexed and then filtered of undefined entries, which drops holes and undefined alike.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { transform } from 'esbuild';

/** The files (under node_modules/@ethereumjs), each with the SHA-256 of the version read, and what is done to it. */
const FILES = {
  'evm/dist/esm/evm.js': { sha256: 'e978f659e72aeb8ee22ebc4559bafb37e4760b0557512224f734b5b46da22f46', spreads: true },
  'vm/dist/esm/runTx.js': { sha256: 'e64717c0ff4046a6fe3496e41c3a6e53c24a7f7bd74a63c8b0ddf8ab390e3373', spreads: true },
  'tx/dist/esm/1559/tx.js': { sha256: '82666285e1b2cc7e68a154f9c177bf96938babcbf235bc4eb59a41478e8774b1', spreads: true },
  'util/dist/esm/bytes.js': {
    sha256: 'd7a103a3abafff285f26306546c1b46bfb2fb415404522a081a40c34eb3c46f1',
    prelude: 'const padded = (msg, length, at) => { const out = new Uint8Array(length); out.set(msg, at); return out; };\n',
    swaps: [
      ['new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])', 'padded(msg, length, 0)'],
      ['new Uint8Array([...new Uint8Array(length - msg.length), ...msg])', 'padded(msg, length, length - msg.length)'],
    ],
  },
  'mpt/dist/esm/mpt.js': {
    sha256: 'b64e9c95e0751f2145f9777e95f69e1940beb897b80658b67d7f874b9175f657',
    swaps: [['Array.from({ length: keyLen })', 'new Array(keyLen)']],
  },
};
const HELPER_CALL = /\b__spread(Values|Props)\(/g;

/** esbuild's filter for the files `names` (paths under node_modules/@ethereumjs), with either separator. */
const pattern = (names) => {
  const sep = '[\\\\/]';
  const escaped = (part) => part.replace(/\./g, '\\.');
  const files = names.map((n) => n.split('/').map(escaped).join(sep));
  return new RegExp(`${sep}node_modules${sep}@ethereumjs${sep}(${files.join('|')})$`);
};
const nameOf = (file) => file.replace(/\\/g, '/').replace(/.*\/node_modules\/@ethereumjs\//, '');

/** A file's code as bundled: its spreads as Object.assign calls, or its swaps made. */
async function rewrite(file) {
  const name = nameOf(file);
  const { sha256, spreads, prelude = '', swaps = [] } = FILES[name];
  const source = await readFile(file, 'utf8');
  const hash = createHash('sha256').update(source).digest('hex');
  if (hash !== sha256) {
    throw new Error(`slow-paths: @ethereumjs/${name} is not the version read (sha256 ${hash}): read it again, then update scripts/slowpaths.mjs`);
  }
  if (spreads) {
    const options = { loader: 'js', format: 'esm', target: 'node20', supported: { 'object-rest-spread': false } };
    const { code } = await transform(source, options);
    return { contents: code.replace(HELPER_CALL, 'Object.assign('), loader: 'js' };
  }
  let code = source;
  for (const [from, to] of swaps) code = code.replace(from, to);
  return { contents: prelude + code, loader: 'js' };
}

export const slowPaths = {
  name: 'slow-paths',
  setup(build) {
    build.onLoad({ filter: pattern(Object.keys(FILES)) }, ({ path: file }) => rewrite(file));
  },
};
