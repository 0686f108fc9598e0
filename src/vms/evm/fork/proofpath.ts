// Reading a Merkle proof's path (eth_getProof's list of RLP nodes from the root to a key): where a
// node hanging off that path sits in the trie, as the nibbles of the hashed keys beneath it.

/** A decoded trie node: a branch's 17 items, or a leaf's or extension's 2 (an embedded child is a list). */
export type ProofNode = Array<Uint8Array | ProofNode>;

const nibblesOf = (bytes: Uint8Array): number[] => [...bytes].flatMap((b) => [b >> 4, b & 15]);

const same = (a: Uint8Array | ProofNode | undefined, b: Uint8Array): boolean =>
  a instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);

/** A leaf's or extension's path (hex-prefix encoding) and whether it is a leaf. */
function compactPath(encoded: Uint8Array): { nibbles: number[]; leaf: boolean } {
  const all = nibblesOf(encoded);
  const flag = all[0]!;
  return { nibbles: all.slice(flag & 1 ? 1 : 2), leaf: flag >= 2 };
}

/**
 * The position (nibbles from the root) of the child `missing` of a branch on the path of `hashedKey`,
 * off that path: where a key must lead to reach it. Undefined when the path holds no such child.
 */
export function siblingPrefix(path: ProofNode[], hashedKey: Uint8Array, missing: Uint8Array): number[] | undefined {
  const key = nibblesOf(hashedKey);
  let depth = 0;
  let index = 0;
  let node: ProofNode | undefined = path[0];
  while (node !== undefined) {
    let next: Uint8Array | ProofNode | undefined;
    if (node.length === 17) {
      for (let j = 0; j < 16; j++) if (j !== key[depth] && same(node[j], missing)) return [...key.slice(0, depth), j];
      next = node[key[depth]!];
      depth++;
    } else if (node.length === 2) {
      const { nibbles, leaf } = compactPath(node[0] as Uint8Array);
      if (leaf) return undefined;
      depth += nibbles.length;
      next = node[1];
    } else return undefined;
    if (next === undefined || (next instanceof Uint8Array && next.length === 0)) return undefined;
    node = next instanceof Uint8Array ? path[++index] : next;
  }
  return undefined;
}
