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
  });

  it("tells the fixtures' contracts that read the block or create from those that read only state", () => {
    const readsMore = new Set(['ContextProbe', 'Forwarder', 'OtsFactory', 'OtsDoomed', 'Probe']);
    const seen: string[] = [];
    for (const contracts of Object.values(compileFixtures())) {
      for (const [name, c] of Object.entries(contracts)) {
        if (c.deployedBytecode === '0x') continue; // an interface
        seen.push(name);
        expect([name, stateOnly(code(c.deployedBytecode.slice(2)))]).toEqual([name, !readsMore.has(name)]);
      }
    }
    expect(seen).toEqual(expect.arrayContaining([...readsMore, 'TestToken', 'TestNFT', 'StateProbe']));
  });
});
