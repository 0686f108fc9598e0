// eth_call's state overrides (geth's ethapi.StateOverride: balance, nonce, code, state, stateDiff) on
// the C-Chain, through HTTP. The reader keeps storage tries across calls (execution.ts
// ReaderStateManager): a call whose override empties a contract's storage must leave the next plain
// call reading the contract's own slots.
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainCommon } from '../src/vms/evm/rules.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const common = chainCommon(43112n);

// Runtime: return sload(calldataload(0)). Constructor: slot 0 = 42, slot 1 = 7, then the runtime.
const RUNTIME = '6000355460005260206000f3';
const INIT = `0x602a6000556007600155600c6016600039600c6000f3${RUNTIME}`;
// Runtime: return selfbalance().
const SELF_BALANCE = '0x4760005260206000f3';
const EMPTY_ADDRESS = '0x00000000000000000000000000000000000c0de5';

const word = (n: number | bigint) => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

describe('eth_call state overrides (C-Chain)', () => {
  let node: TestNode;
  let rpcUrl: string;
  let contract: string;
  const slot = (n: number, overrides?: unknown) =>
    call(rpcUrl, 'eth_call', [{ to: contract, data: word(n) }, 'latest', ...(overrides === undefined ? [] : [overrides])]);

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    rpcUrl = `${node.uri}/ext/bc/C/rpc`;
    const tx = createFeeMarket1559Tx(
      { nonce: 0n, data: Buffer.from(INIT.slice(2), 'hex'), gasLimit: 200_000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n },
      { common },
    ).sign(EWOQ_KEY);
    const hash = await call(rpcUrl, 'eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`]);
    const receipt = await call(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    contract = receipt.contractAddress;
  });
  afterAll(() => node.stop());

  it("reads the contract's own slots without overrides", async () => {
    expect(await slot(0)).toBe(word(42));
    expect(await slot(1)).toBe(word(7));
    expect(await slot(2)).toBe(word(0));
  });

  it('stateDiff changes the slots it names and keeps the others', async () => {
    const diff = { [contract]: { stateDiff: { [word(0)]: word(99) } } };
    expect(await slot(0, diff)).toBe(word(99));
    expect(await slot(1, diff)).toBe(word(7));
  });

  it('state replaces the whole storage, and the next plain calls read the real slots again', async () => {
    const state = { [contract]: { state: { [word(0)]: word(5) } } };
    for (let round = 0; round < 3; round++) {
      expect(await slot(0, state)).toBe(word(5));
      expect(await slot(1, state)).toBe(word(0));
      expect(await slot(0)).toBe(word(42));
      expect(await slot(1)).toBe(word(7));
    }
  });

  it('code, state and balance on an account without code', async () => {
    const overrides = { [EMPTY_ADDRESS]: { code: `0x${RUNTIME}`, state: { [word(3)]: word(0xabc) } } };
    expect(await call(rpcUrl, 'eth_call', [{ to: EMPTY_ADDRESS, data: word(3) }, 'latest', overrides])).toBe(word(0xabc));
    expect(await call(rpcUrl, 'eth_call', [{ to: EMPTY_ADDRESS, data: word(3) }, 'latest'])).toBe('0x');
    const funded = { [EMPTY_ADDRESS]: { code: SELF_BALANCE, balance: '0x1234' } };
    expect(await call(rpcUrl, 'eth_call', [{ to: EMPTY_ADDRESS }, 'latest', funded])).toBe(word(0x1234));
  });

  it("refuses state and stateDiff together with geth's text", async () => {
    const both = { [EMPTY_ADDRESS]: { state: {}, stateDiff: {} } };
    const err = await callError(rpcUrl, 'eth_call', [{ to: EMPTY_ADDRESS }, 'latest', both]);
    expect(err.code).toBe(-32000);
    expect(err.message).toBe("account 0x00000000000000000000000000000000000c0dE5 has both 'state' and 'stateDiff'");
  });
});
