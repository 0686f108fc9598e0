// An esbuild plugin for the bundle: a few lines of ethereumjs's hottest files, written in ways
// that take Node 20's V8 (11.3) down a slow path, are bundled as code that computes the same
// thing. Each file is checked against the SHA-256 of the version whose code was read for this (the
// pinned versions): another version stops the build until it is read again and its hash updated.
// test/bundle-rewrites.test.ts runs random EVM programs on the bundle and on the packages as
// published, and compares every answer, receipt and block hash.
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
// 4. Hex. @ethereumjs/util's bytesToHex, and bytesToBigInt through it, use noble's, a loop adding
//    two digits at a time: its string is a rope of 20-32 pieces, flattened again by each Map or
//    ordered-map lookup it keys (the state caches and the journal key by such hex, some 70 times an
//    eth_call). Node's own encoder (Buffer's hexSlice, which toString('hex') runs) makes a flat
//    string: 0.25-0.45 µs for a 20- or 32-byte key made and looked up, against 0.86-1.2 µs. Anything
//    but a Uint8Array still goes to noble's (and its error).
// 5. bigIntToBytes checks the digits it made itself with a regular expression (hexToBytes,
//    stripHexPrefix, isHexString): a non-negative bigint's digits go straight to noble's hexToBytes,
//    the same bytes; anything else goes the old way (and to its error).
// 6. The interpreter's step (interpreter.js). Interpreter.run awaits runStep, an async function,
//    for every opcode, and runStep awaits the gas handler (every one of gas.js's is an async
//    function, most awaiting nothing) and the logic of the opcodes marked async (custom opcodes
//    are marked so: the node's JUMP and JUMPI are). Each await of a value that is already there is
//    a promise and a turn of the microtask queue. Without a step listener, debug logging or the
//    profiler (when runStep's hooks have nothing to do), the loop runs runStepFast, which does what
//    runStep does in its order and awaits only what returns a promise (`thenable` below, as await
//    tests). gas.js's handlers that await nothing are made plain functions, so that their gas is
//    there at once; runStep awaits them as before. A microtask turn lets no I/O run, so a run holds
//    the thread exactly as long as before. In process (medians of 9 alternating rounds of
//    3,000), this one took eth_call from 515 to 445 µs and eth_estimateGas from 546 to 464 µs
//    after 4 and 5; the three of them, 586 to 459 and 702 to 576 µs.
// 7. RLP (@ethereumjs/rlp, and the trie's node decoding). Allocations are most of a trie write's
//    time, and RLP makes more than it needs: a list's body is copied before its items are copied
//    out of it (a branch node's 530 bytes, off the heap, for every node read), the trie copies a
//    node's bytes before decoding them, and one-byte lengths and empty strings are made with
//    Uint8Array.from (the iterator protocol) or copied twice. The body is now a view (its items are
//    still copies, and a Buffer's were views before too), a plain Uint8Array node is decoded in
//    place (its items copies all the same), and the small arrays are made directly: the same
//    arrays and the same errors. A trie update (checkpoint, 7 puts, commit, 5,000 keys): median of
//    7 alternating runs 157 → 137 µs a put.
// 8. @ethereumjs/util made a bigint of every number below 65,536 as it loaded, for bytesToBigInt to
//    answer one- and two-byte inputs from: 21-24 ms of every start-up (the loop alone, run once, in
//    the interpreter), and garbage for the first collections to copy. Those inputs now make their
//    bigint as asked, the same value.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

// The interpreter's fast step (6. above).
const RUN_STEP_CALL = `                if (this.profilerOpts?.enabled === true || this._evm.events.listenerCount('step') > 0 || this._evm.DEBUG) {
                    await this.runStep(opCodeObj);
                }
                else {
                    const stepping = this.runStepFast(opCodeObj ?? this.lookupOpInfo(this._runState.opCode));
                    if (stepping !== undefined)
                        await stepping;
                }`;
const STEP_FAST_METHODS = `    runStepFast(opEntry) {
        const opInfo = opEntry.opcodeInfo;
        if (!opInfo.dynamicGas)
            return this.finishStepFast(opEntry, opInfo.feeBigInt);
        const gas = opEntry.gasHandler(this._runState, opInfo.feeBigInt, this.common);
        if (thenable(gas))
            return gas.then((paid) => this.finishStepFast(opEntry, paid));
        return this.finishStepFast(opEntry, gas);
    }
    finishStepFast(opEntry, gas) {
        const opInfo = opEntry.opcodeInfo;
        if ((this.common.isActivatedEIP(6800) || this.common.isActivatedEIP(7864)) &&
            this._env.chargeCodeAccesses === true) {
            const contract = this._runState.interpreter.getAddress();
            const statelessGas = this._runState.env.accessWitness.readAccountCodeChunks(contract, this._runState.programCounter, this._runState.programCounter);
            gas += statelessGas;
            debugGas(\`codechunk accessed statelessGas=\${statelessGas} (-> \${gas})\`);
        }
        if (opInfo.isInvalid) {
            throw new EVMError(EVMError.errorMessages.INVALID_OPCODE);
        }
        this.useGas(gas, opInfo);
        this._runState.programCounter++;
        consumeEip7928PostTargetCallOog(this._runState);
        const ran = opEntry.opHandler.apply(null, [this._runState, this.common]);
        if (opInfo.isAsync && thenable(ran))
            return ran.then(() => this._runState.env.accessWitness?.commit());
        this._runState.env.accessWitness?.commit();
    }
`;
// The new methods go before lookupOpInfo and its comment.
const LOOKUP_OP_INFO = `    /**
     * Get info for an opcode from EVM's list of opcodes.
     */
    lookupOpInfo(op) {`;
const THENABLE = "const thenable = (x) => x !== null && (typeof x === 'object' || typeof x === 'function') && typeof x.then === 'function';\n";

/** gas.js with its dynamic gas handlers that await nothing as plain functions. */
function syncGasHandlers(code) {
  const header = 'async function (runState, gas, common) {';
  const [head, ...handlers] = code.split(header);
  const plain = handlers.filter((body) => !body.includes('await')).length;
  if (plain < 20) throw new Error(`slow-paths: gas.js has ${plain} dynamic gas handlers that await nothing`);
  return handlers.reduce((out, body) => out + (body.includes('await') ? header : 'function (runState, gas, common) {') + body, head);
}

/** The node's byte helpers as built (dist/, which the bundle is made from). */
const NODE_BYTES = fileURLToPath(new URL('../dist/encoding/bytes.js', import.meta.url));

/** The files (under node_modules/@ethereumjs), each with the SHA-256 of the version read, and what is done to it. */
const FILES = {
  'evm/dist/esm/evm.js': { sha256: 'e978f659e72aeb8ee22ebc4559bafb37e4760b0557512224f734b5b46da22f46', spreads: true },
  'vm/dist/esm/runTx.js': { sha256: 'e64717c0ff4046a6fe3496e41c3a6e53c24a7f7bd74a63c8b0ddf8ab390e3373', spreads: true },
  'tx/dist/esm/1559/tx.js': { sha256: '82666285e1b2cc7e68a154f9c177bf96938babcbf235bc4eb59a41478e8774b1', spreads: true },
  'util/dist/esm/bytes.js': {
    sha256: 'd7a103a3abafff285f26306546c1b46bfb2fb415404522a081a40c34eb3c46f1',
    prelude: [
      'const padded = (msg, length, at) => { const out = new Uint8Array(length); out.set(msg, at); return out; };',
      // The node's own hex of bytes (src/encoding/bytes.ts: Node's encoder where it answers a probe right).
      `import { toHex as hexOf } from ${JSON.stringify(NODE_BYTES)};`,
      '',
    ].join('\n'),
    swaps: [
      ['new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])', 'padded(msg, length, 0)'],
      ['new Uint8Array([...new Uint8Array(length - msg.length), ...msg])', 'padded(msg, length, length - msg.length)'],
      // 8. above: no 65,536 bigints made at load.
      ['for (let i = 0; i <= 256 * 256 - 1; i++) {\n    BIGINT_CACHE[i] = BigInt(i);\n}\n', ''],
      ['        return BIGINT_CACHE[bytes[0]];', '        return BigInt(bytes[0]);'],
      ['        return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];', '        return BigInt(bytes[0] * 256 + bytes[1]);'],
      [
        'export const bytesToUnprefixedHex = bytesToUnprefixedHexNoble;',
        'export const bytesToUnprefixedHex = (bytes) => bytes instanceof Uint8Array ? hexOf(bytes) : bytesToUnprefixedHexNoble(bytes);',
      ],
      [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in the file
        'const bytes = hexToBytes(`0x${padToEven(num.toString(16))}`);',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in the file
        "const bytes = typeof num === 'bigint' && num >= BIGINT_0 ? hexToBytesNoble(padToEven(num.toString(16))) : hexToBytes(`0x${padToEven(num.toString(16))}`);",
      ],
    ],
  },
  'evm/dist/esm/interpreter.js': {
    sha256: '27106c4194446a01eb6207a2c5158e13eb242fc6cbb7e180d4b937cd87ba6499',
    prelude: THENABLE,
    swaps: [
      ['                await this.runStep(opCodeObj);', RUN_STEP_CALL],
      [LOOKUP_OP_INFO, `${STEP_FAST_METHODS}${LOOKUP_OP_INFO}`],
    ],
  },
  'evm/dist/esm/opcodes/gas.js': {
    sha256: '72087f58b0b78e2f5dc7fed7cfa48aeee6000c5dbff4f3d851622f40c5a900c4',
    edit: syncGasHandlers,
  },
  'rlp/dist/esm/index.js': {
    sha256: '83d3eb4b7cc7d5dafd6824f728077d24ebe35ca2130b94c32ed2a658083323c4',
    prelude:
      "const safeView = (input, start, end) => { if (end > input.length) throw EthereumJSErrorWithoutCode('invalid RLP (safeSlice): end slice of Uint8Array out-of-bounds'); return input.subarray(start, end); };\n",
    swaps: [
      ['        return Uint8Array.from([len + offset]);', '        return new Uint8Array([len + offset]);'],
      ['    return Uint8Array.from(hexToBytes(firstByte + hexLength));', '    return hexToBytes(firstByte + hexLength);'],
      ['            data = Uint8Array.from([]);', '            data = new Uint8Array(0);'],
      ['        innerRemainder = safeSlice(input, 1, length);', '        innerRemainder = safeView(input, 1, length);'],
      ['        innerRemainder = safeSlice(input, lLength, totalLength);', '        innerRemainder = safeView(input, lLength, totalLength);'],
    ],
  },
  'mpt/dist/esm/node/util.js': {
    sha256: 'c928cc568f9ff8855320d51012f5432ac09384050c60a0208a0ef535d9f81f55',
    swaps: [
      [
        '    const decodedNode = RLP.decode(Uint8Array.from(node));',
        '    const decodedNode = RLP.decode(node instanceof Uint8Array && node.constructor === Uint8Array ? node : Uint8Array.from(node));',
      ],
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

/** A file's code as bundled: its spreads as Object.assign calls, or its edit and swaps made after its prelude. */
async function rewrite(file) {
  const name = nameOf(file);
  const { sha256, spreads, prelude = '', swaps = [], edit } = FILES[name];
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
  let code = edit ? edit(source) : source;
  for (const [from, to] of swaps) {
    // Split and join, not replace: a replacement's `$&` or `$'` would be read as a pattern.
    const parts = code.split(from);
    if (parts.length !== 2) throw new Error(`slow-paths: @ethereumjs/${name} has ${parts.length - 1} of \`${from}\`, not one`);
    code = parts.join(to);
  }
  return { contents: prelude + code, loader: 'js' };
}

export const slowPaths = {
  name: 'slow-paths',
  setup(build) {
    build.onLoad({ filter: pattern(Object.keys(FILES)) }, ({ path: file }) => rewrite(file));
  },
};
