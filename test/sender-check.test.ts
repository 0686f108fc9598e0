// skippingSenderCheck (an impersonated contract's tx in a block, a call from a contract): the sender's
// code hash is hidden from runTx's EIP-3607 check and put back, and a run that throws out of a frame
// (as an exception out of a precompile does) leaves the sender's code as it was, for a block that
// unwinds to its own checkpoint and keeps building, as the builder does.
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { createAddressFromString, KECCAK256_NULL } from '@ethereumjs/util';
import { runTx } from '@ethereumjs/vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { execBlock, skippingSenderCheck, stateAt } from '../src/vms/evm/execution.js';
import { withSender } from '../src/vms/evm/txcodec.js';
import { call, tempDir } from './helpers.js';

const SAFE = '0x000000000000000000000000000000000000a5fe';

describe('skippingSenderCheck', () => {
  let started: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    started = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir(), dbType: 'memdb', dev: true });
    const url = `${started.uri}/ext/bc/C/rpc`;
    // PUSH0 PUSH0 LOG0 STOP, with funds for gas.
    await call(url, 'anvil_setCode', [SAFE, '0x5f5fa000']);
    await call(url, 'anvil_setBalance', [SAFE, '0xde0b6b3a7640000']);
    // In a block's state root, where the test reads it from.
    await call(url, 'evm_mine', []);
  });
  afterAll(() => started.stop());

  async function blockRun(failAtStep: boolean) {
    const chain = started.node.cChain;
    const head = chain.head.header;
    const sm = stateAt(chain.nodes, chain.common, head.stateRoot, true);
    const vm = await chain.newVM(sm);
    const from = createAddressFromString(SAFE);
    const codeHash = (await sm.getAccount(from))!.codeHash;
    // A tx to itself from the contract, as an impersonated one is sent (placeholder signature).
    const tx = withSender(
      createFeeMarket1559Tx(
        { nonce: 0n, to: from, gasLimit: 100_000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 0n, v: 0n, r: 1n, s: 1n },
        { common: chain.common, freeze: false },
      ),
      from,
    );
    const block = execBlock(chain.common, {
      number: head.number + 1n,
      time: head.time + 1n,
      gasLimit: head.gasLimit,
      baseFee: 1n,
      difficulty: 1n,
      coinbase: head.coinbase,
    });
    // The block's own checkpoint, and its depth, as the builder opens and keeps them.
    await sm.checkpoint();
    const depth = sm.depth;
    const step = () => {
      throw new Error('out of a frame');
    };
    if (failAtStep) vm.evm.events!.on('step', step);
    let failed = false;
    try {
      await skippingSenderCheck(vm, from, () => runTx(vm, { tx, block, skipHardForkValidation: true, skipBlockGasLimitValidation: true }));
    } catch {
      failed = true;
      await sm.unwindTo(depth);
    } finally {
      vm.evm.events!.off('step', step);
    }
    return { failed, before: codeHash, after: (await sm.getAccount(from))!.codeHash, nonce: (await sm.getAccount(from))!.nonce };
  }

  it("keeps the sender's code through a run, and through one that throws out of its frame", async () => {
    const ok = await blockRun(false);
    expect(ok.failed).toBe(false);
    expect(Buffer.from(ok.after)).toEqual(Buffer.from(ok.before));
    expect(ok.nonce).toBe(1n);
    const thrown = await blockRun(true);
    expect(thrown.failed).toBe(true);
    expect(Buffer.from(thrown.after)).not.toEqual(Buffer.from(KECCAK256_NULL));
    expect(Buffer.from(thrown.after)).toEqual(Buffer.from(thrown.before));
    // Nothing of the thrown run stays: the nonce is the block's before it.
    expect(thrown.nonce).toBe(0n);
  });
});
