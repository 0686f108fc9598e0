// @ethereumjs's interpreter analyses a code (its JUMPDESTs, each PUSH's value as a bigint, each byte's
// opcode entry) in one pass over the whole code, at every message that runs it: in an eth_call of an
// ERC-20's balanceOf that pass was about a third of the interpreter's time (CPU profile of 4,000
// calls: 240-315 of 848 ms under the interpreter's loop). The analysis depends only on the code and
// on the EVM's opcode table, and the interpreter only reads it, so it is kept per table, by the
// code's bytes, for the codes of the last KEPT_CODE_BYTES run: an analysis takes some 18 bytes per
// byte of code (440 KB for a 24 KB code of PUSHes), so the bound is on what is kept, not on how many
// codes. A code object remembers its bytes as a key (the state's caches hand the same object to
// the calls of a block), so a hit costs no copy of the code.

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

/** Bytes of code per opcode table whose analyses are kept (some 10 MB of analyses at most). */
const KEPT_CODE_BYTES = 512 * 1024;

/** An opcode table's analyses by code bytes (latin1), least recently used first, and their codes' size. */
interface Kept {
  byBytes: Map<string, Analysis>;
  codeBytes: number;
}

const tables = new WeakMap<object, Kept>();
/** A code object's bytes as a key: the size of the code itself, and no analysis kept alive by it. */
const keys = new WeakMap<Uint8Array, string>();
/** Interpreter classes (their prototypes) that keep analyses; the last one seen answers at once. */
const patched = new WeakSet<object>();
let last: object | undefined;
let patchedCount = 0;

function keptFor(table: object): Kept {
  let kept = tables.get(table);
  if (!kept) {
    kept = { byBytes: new Map(), codeBytes: 0 };
    tables.set(table, kept);
  }
  return kept;
}

function keyOf(code: Uint8Array): string {
  let key = keys.get(code);
  if (key === undefined) {
    key = Buffer.from(code.buffer, code.byteOffset, code.byteLength).toString('latin1');
    keys.set(code, key);
  }
  return key;
}

/** Keeps `analysis` of the code `key`, dropping the least recently used past the bound (never the one just kept). */
function keep(kept: Kept, key: string, analysis: Analysis): void {
  kept.byBytes.set(key, analysis);
  kept.codeBytes += key.length;
  for (const oldest of kept.byBytes.keys()) {
    if (kept.codeBytes <= KEPT_CODE_BYTES || oldest === key) break;
    kept.byBytes.delete(oldest);
    kept.codeBytes -= oldest.length;
  }
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
    const key = keyOf(code);
    let analysis = kept.byBytes.get(key);
    if (analysis) {
      // The most recently used goes last.
      kept.byBytes.delete(key);
      kept.byBytes.set(key, analysis);
      return analysis;
    }
    analysis = analyse.call(this, code);
    keep(kept, key, analysis);
    return analysis;
  };
}

/** How many interpreter classes keep their analyses (for tests). */
export function jumpAnalysesKept(): number {
  return patchedCount;
}
