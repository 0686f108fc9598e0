// What one eth_call read of its state, recorded by the reader's state manager while the call runs
// (execution.ts), so that its answer can be known to hold in a later state (answers.ts): the accounts
// it read, the storage slots it read, and whether any code it ran can see more than the state.

/**
 * Opcodes whose result depends on the block the call runs in rather than on the state (BLOCKHASH,
 * COINBASE, TIMESTAMP, NUMBER, PREVRANDAO, GASLIMIT, BASEFEE, BLOBHASH, BLOBBASEFEE), and those whose
 * outcome depends on state no read names (CREATE and CREATE2 check the new address's storage root,
 * SELFDESTRUCT its beneficiary's account as a whole).
 */
const CONTEXT_OPS = new Set([0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x48, 0x49, 0x4a, 0xf0, 0xf5, 0xff]);
const PUSH1 = 0x60;
const PUSH32 = 0x7f;

/** Ops after which the next byte runs only if a jump lands on it: STOP, JUMP, RETURN, REVERT, INVALID (SELFDESTRUCT is a context op). */
const ENDS_BLOCK = new Set([0x00, 0x56, 0xf3, 0xfd, 0xfe]);
const JUMPDEST = 0x5b;

/** Per code object (the state's caches hand the same one to call after call): whether it has none of those ops. */
const scanned = new WeakMap<Uint8Array, boolean>();

/**
 * Whether `code` has none of CONTEXT_OPS where it can run. PUSH data is skipped (bytes there are not
 * ops), and so are the bytes after an op that ends a block up to the next JUMPDEST: nothing runs
 * them, since the only way in is a jump, which must land on a JUMPDEST. Solidity's metadata (the
 * CBOR hash and compiler version after the code's last INVALID) is such bytes, and always holds a
 * 0x43 (the version's CBOR header, NUMBER as an op): read as ops, where the hash's bytes left it
 * unskipped, a contract seemed to read the block, and no answer of its calls was ever carried. (A
 * 0x5b in the hash, not in PUSH data, still brings the bytes after it back into the scan: a jump
 * could land there.)
 */
export function stateOnly(code: Uint8Array): boolean {
  let known = scanned.get(code);
  if (known === undefined) {
    known = true;
    let live = true;
    for (let i = 0; i < code.length; i++) {
      const op = code[i]!;
      if (op >= PUSH1 && op <= PUSH32) i += op - PUSH1 + 1;
      else if (op === JUMPDEST) live = true;
      else if (!live) continue;
      else if (CONTEXT_OPS.has(op)) {
        known = false;
        break;
      } else if (ENDS_BLOCK.has(op)) live = false;
    }
    scanned.set(code, known);
  }
  return known;
}

export class CallReads {
  /** Addresses (hex, no 0x) whose account was read. */
  readonly accounts = new Set<string>();
  /** Address hex followed by slot hex (32 bytes), of every storage slot read. */
  readonly slots = new Set<string>();
  /** False once a code the call loaded has an op of CONTEXT_OPS. */
  stateOnly = true;

  noteCode(code: Uint8Array): void {
    if (this.stateOnly && !stateOnly(code)) this.stateOnly = false;
  }
}
