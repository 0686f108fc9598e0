// Whether a code can read more than the state (callreads.ts' stateOnly), which decides whether an
// eth_call's or an estimate's answer may be carried to a later head (answers.ts). Bytes nothing can
// run do not count: PUSH data, and what follows STOP, JUMP, RETURN, REVERT or INVALID up to the next
// JUMPDEST, such as Solidity's metadata, whose CBOR always holds a 0x43 (NUMBER as an op).
import { describe, expect, it } from 'vitest';
import { stateOnly } from '../src/vms/evm/callreads.js';
import { compileFixtures } from './support/solc.js';

const code = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/\s/g, ''), 'hex'));

describe('stateOnly', () => {
  it('finds the block read or the create where it can run, and only there', () => {
    expect(stateOnly(code('42'))).toBe(false); // TIMESTAMP
    expect(stateOnly(code('6042 00'))).toBe(true); // PUSH1 0x42: data
    expect(stateOnly(code('00 42'))).toBe(true); // after STOP: never run
    expect(stateOnly(code('00 5b 42'))).toBe(false); // a jump can land on the JUMPDEST
    expect(stateOnly(code('00 605b 42'))).toBe(true); // 0x5b in PUSH data is no JUMPDEST
    expect(stateOnly(code('6001 6003 57 43'))).toBe(false); // JUMPI falls through: NUMBER runs
    for (const end of ['56', 'f3', 'fd', 'fe']) expect(stateOnly(code(`${end} 40 41 f0 f5 ff`))).toBe(true);
    expect(stateOnly(code('56 5b ff'))).toBe(false); // SELFDESTRUCT
    expect(stateOnly(code('5b f5'))).toBe(false); // CREATE2
    expect(stateOnly(code('61 0000 42'))).toBe(false); // past PUSH2's data: live
    expect(stateOnly(code('00 5f 42'))).toBe(true); // PUSH0 has no data: still dead
    expect(stateOnly(code('0c 42'))).toBe(false); // an undefined op halts, but is not counted as an end
    expect(stateOnly(code(`7f${'42'.repeat(31)}`))).toBe(true); // code ending inside PUSH32's data
  });

  it("tells the fixtures' contracts that read the block or create from those that read only state", () => {
    const readsMore = new Set(['ContextProbe', 'Forwarder', 'OtsFactory', 'OtsDoomed', 'Probe']);
    const judged: Array<[string, boolean, boolean]> = [];
    for (const contracts of Object.values(compileFixtures())) {
      for (const [name, c] of Object.entries(contracts)) {
        if (c.deployedBytecode === '0x') continue; // an interface
        const runtime = code(c.deployedBytecode.slice(2));
        // Solidity's metadata: its CBOR's length in the last two bytes, then those.
        const withoutMetadata = runtime.subarray(0, runtime.length - 2 - ((runtime.at(-2)! << 8) | runtime.at(-1)!));
        judged.push([name, stateOnly(runtime), stateOnly(withoutMetadata)]);
      }
    }
    expect(judged.map(([name]) => name)).toEqual(expect.arrayContaining([...readsMore, 'TestToken', 'TestNFT', 'StateProbe']));
    // Without the metadata the code alone decides, exactly; with it, a reader is still a reader.
    for (const [name, whole, code] of judged) {
      expect([name, code]).toEqual([name, !readsMore.has(name)]);
      if (readsMore.has(name)) expect([name, whole]).toEqual([name, false]);
    }
    // With it, the others are state-only unless a JUMPDEST byte in the metadata's hash brings its
    // bytes back into the scan (1-2 % of hashes): the scan that read the metadata as ops judged 8
    // of these 19 otherwise, this one none with this solc.
    const stateOnlyOnes = judged.filter(([name]) => !readsMore.has(name));
    expect(stateOnlyOnes.filter(([, whole]) => whole).length).toBeGreaterThanOrEqual(stateOnlyOnes.length - 2);
  });
});
