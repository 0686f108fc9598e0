// keccak-256 where the EVM spends it (trie node hashes at every state write, tx and header hashes,
// the KECCAK256 opcode): hash-wasm's WebAssembly build, several times @noble/hashes on the 532-byte
// branch nodes of a state trie. @noble/hashes answers until the WebAssembly has loaded (the EVM
// factory awaits it once) and wherever it cannot load; both give the same digests.
import { createRequire } from 'node:module';
import { keccak_256 } from '@noble/hashes/sha3.js';

interface Hasher {
  init(): unknown;
  update(data: Uint8Array): unknown;
  /** A new array each time. */
  digest(format: 'binary'): Uint8Array;
}

let wasm: Hasher | undefined;
let loading: Promise<void> | undefined;

/** Loads the WebAssembly hasher (once); a failure leaves @noble/hashes in place. */
export function loadKeccak(): Promise<void> {
  loading ??= (async () => {
    if (process.env.EMULATOR_KECCAK === 'noble') return;
    try {
      // The keccak build alone (12 KB), not the package's index of every algorithm.
      const { createKeccak } = createRequire(import.meta.url)('hash-wasm/dist/keccak.umd.min.js') as {
        createKeccak(bits: 256): Promise<Hasher>;
      };
      wasm = await createKeccak(256);
    } catch {
      // No WebAssembly here: @noble/hashes hashes instead.
    }
  })();
  return loading;
}

export function keccak256(message: Uint8Array): Uint8Array {
  if (!wasm) return keccak_256(message);
  wasm.init();
  wasm.update(message);
  return wasm.digest('binary');
}

/** keccak-256 of the concatenation of `parts`, without concatenating them. */
export function keccak256Parts(...parts: Uint8Array[]): Uint8Array {
  if (!wasm) {
    const h = keccak_256.create();
    for (const p of parts) h.update(p);
    return h.digest();
  }
  wasm.init();
  for (const p of parts) wasm.update(p);
  return wasm.digest('binary');
}

/**
 * A digest fixed by its preimage (an event's topic, the empty trie's root), given as a literal
 * rather than hashed when the module loads: the WebAssembly hasher has not loaded then, and
 * @noble/hashes, still cold, took about half a millisecond per digest, some 20 ms of the node's
 * start-up for the few dozen its modules made. The preimage is not read here:
 * test/known-digests.test.ts wraps this function and hashes each preimage again.
 */
export function knownKeccak(_preimage: string | Uint8Array, digestHex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(digestHex, 'hex'));
}

const textDigests = new Map<string, Uint8Array>();

/** keccak-256 of a text (a function's signature), computed once per text. */
export function keccakText(text: string): Uint8Array {
  let digest = textDigests.get(text);
  if (!digest) {
    digest = keccak256(Buffer.from(text));
    textDigests.set(text, digest);
  }
  return digest;
}
