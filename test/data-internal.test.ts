// The Data API's internal transactions come two ways: recorded while the node builds a block (the
// follower was running), or from callTracer when the follower indexes a block built before it ran
// (a backfill, a restart). One contract opens every kind of frame; the same signed txs on two fresh
// chains, one indexed each way, must list the very same internal transactions.
import { getCreateAddress, Interface, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { post, startTestNode } from './helpers.js';
import { EWOQ_KEY } from './support/data.js';
import { compileSources } from './support/solc.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Child { constructor() payable {} receive() external payable {} }
contract Failing { constructor() payable { revert("no"); } }
contract Kinds {
  function run() external payable {
    Child c = new Child{value: 7}();
    Child d = new Child{salt: bytes32(uint256(1)), value: 8}();
    // A constructor that reverts is a failed CREATE.
    try new Failing{value: 1}() returns (Failing) {} catch {}
    assembly {
      pop(call(gas(), c, 1, 0, 0, 0, 0))
      pop(callcode(gas(), c, 2, 0, 0, 0, 0))
      // Kinds has no receive function: a CALLCODE and a CALL to itself with a value revert.
      pop(callcode(gas(), address(), 3, 0, 0, 0, 0))
      pop(delegatecall(gas(), c, 0, 0, 0, 0))
      pop(staticcall(gas(), c, 0, 0, 0, 0))
      pop(call(gas(), 4, 5, 0, 0, 0, 0))
      pop(call(gas(), address(), 6, 0, 0, 0, 0))
      pop(call(gas(), d, 0, 0, 0, 0, 0))
    }
    // The same salt again collides (no frame in callTracer), and takes all but 1/64 of the gas: last.
    try new Child{salt: bytes32(uint256(1))}() returns (Child) {} catch {}
  }
}
`;

type Listed = Array<{ hash: string; internal: unknown[] | undefined }>;

async function rpc(uri: string, method: string, params: unknown[]): Promise<any> {
  const r = await post(`${uri}/ext/bc/C/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  if (r.json.error) throw new Error(`${method}: ${r.json.error.message}`);
  return r.json.result;
}

describe('Data API internal transactions', () => {
  it('are the same recorded while building as from callTracer in a backfill, for every kind of frame', async () => {
    const kinds = compileSources({ 'Kinds.sol': SOURCE })['Kinds.sol']!.Kinds!;
    const wallet = new Wallet(EWOQ_KEY);
    const tx = (nonce: number, fields: { to?: string; data: string; value?: bigint }) =>
      wallet.signTransaction({ type: 2, chainId: 43112n, nonce, gasLimit: 3_000_000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n, ...fields });
    const deploy = await tx(0, { data: kinds.bytecode });
    const address = getCreateAddress({ from: wallet.address, nonce: 0 });
    const run = await tx(1, { to: address, data: new Interface(kinds.abi).encodeFunctionData('run'), value: 1000n });

    const listed = async (uri: string): Promise<Listed> => {
      const r = await fetch(`${uri}/v1/chains/43112/addresses/${address}/transactions?sortOrder=asc`);
      expect(r.status).toBe(200);
      const body = (await r.json()) as { transactions: Array<{ nativeTransaction: { txHash: string }; internalTransactions?: unknown[] }> };
      return body.transactions.map((t) => ({ hash: t.nativeTransaction.txHash, internal: t.internalTransactions }));
    };
    const sendBoth = async (uri: string) => {
      for (const raw of [deploy, run]) {
        const hash = await rpc(uri, 'eth_sendRawTransaction', [raw]);
        expect((await rpc(uri, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
      }
    };

    // Recorded: the follower runs from the start.
    const live = await startTestNode({ dbType: 'memdb' });
    let recorded: Listed = [];
    try {
      await sendBoth(live.uri);
      recorded = await listed(live.uri);
    } finally {
      await live.stop();
    }
    // Traced: the chain is built without the Data API, which then backfills it.
    const first = await startTestNode({ apiDataEnabled: false });
    try {
      await sendBoth(first.uri);
    } finally {
      await first.stop();
    }
    const again = await startTestNode({ dataDir: first.dataDir });
    let traced: Listed = [];
    try {
      traced = await listed(again.uri);
    } finally {
      await again.stop();
    }

    expect(recorded).toEqual(traced);
    const internal = recorded.find((t) => t.internal && t.internal.length > 0)!.internal as Array<{
      internalTxType: string;
      value: string;
      isReverted: boolean;
    }>;
    expect(internal.map((t) => [t.internalTxType, t.value, t.isReverted])).toEqual([
      ['CREATE', '7', false],
      ['CREATE2', '8', false],
      ['CALL', '1', false],
      ['CALLCODE', '2', false],
      ['CALLCODE', '3', true],
      ['CALL', '5', false],
      ['CALL', '6', true],
    ]);
  }, 120_000);
});
