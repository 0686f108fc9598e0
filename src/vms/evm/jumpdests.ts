// @ethereumjs's interpreter analyses a code (its JUMPDESTs, each PUSH's value as a bigint, each byte's
// opcode entry) in one pass over the whole code, at every message that runs it: in an eth_call of an
// ERC-20's balanceOf that pass was about a third of the interpreter's time (CPU profile of 4,000
// calls: 315 of 850 ms under the interpreter's loop). The analysis depends only on the code and on
// the EVM's opcode table, and the interpreter only reads it, so it is kept per table and code: by
// the code's object (the state's caches hand the same one to the calls of a block) and, bounded, by
// its bytes (a code read again after the caches were emptied at a new head).
import { MapLru } from './accountcache.js';

interface Analysis {
  jumps: Uint8Array;
  pushes: Record<number, bigint>;
  opcodesCached: unknown[];
}

/** The interpreter's own analysis and the EVM it reads the opcode table of (interpreter.ts in @ethereumjs/evm 10.1.3). */
interface Analyser {
  _getValidJumpDestinations(code: Uint8Array): Analysis;
  _evm: { _opcodeMap: object };
}

/** Codes analysed per opcode table, by their bytes (a 24 KB code's analysis takes some 250 KB). */
const KEPT_BY_BYTES = 128;

interface Kept {
  byObject: WeakMap<Uint8Array, Analysis>;
  byBytes: MapLru<Analysis>;
}

const tables = new WeakMap<object, Kept>();
/** Interpreter classes (their prototypes) that keep analyses; the last one seen answers at once. */
const patched = new WeakSet<object>();
let last: object | undefined;
let patchedCount = 0;

function keptFor(table: object): Kept {
  let kept = tables.get(table);
  if (!kept) {
    kept = { byObject: new WeakMap(), byBytes: new MapLru(KEPT_BY_BYTES) };
    tables.set(table, kept);
  }
  return kept;
}

/**
 * Has every interpreter of `interpreter`'s class keep its analyses (the class is not exported: it
 * is reached through one of its instances, the first time a JUMP runs). `interpreter` is a runState's.
 */
export function keepJumpAnalyses(interpreter: unknown): void {
  const proto = Object.getPrototypeOf(interpreter) as Analyser;
  if (proto === last) return;
  last = proto;
  if (patched.has(proto)) return;
  patched.add(proto);
  patchedCount++;
  const analyse = proto._getValidJumpDestinations;
  if (typeof analyse !== 'function') throw new Error('@ethereumjs/evm: the interpreter has no _getValidJumpDestinations');
  proto._getValidJumpDestinations = function (this: Analyser, code: Uint8Array): Analysis {
    const kept = keptFor(this._evm._opcodeMap);
    let analysis = kept.byObject.get(code);
    if (analysis) return analysis;
    const bytes = Buffer.from(code.buffer, code.byteOffset, code.byteLength).toString('latin1');
    analysis = kept.byBytes.get(bytes);
    if (!analysis) {
      analysis = analyse.call(this, code);
      kept.byBytes.set(bytes, analysis);
    }
    kept.byObject.set(code, analysis);
    return analysis;
  };
}

/** How many interpreter classes keep their analyses (for tests). */
export function jumpAnalysesKept(): number {
  return patchedCount;
}
