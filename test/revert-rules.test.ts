// A revert brings back the rules a state sets for the next block: on an L1 whose fee manager and
// reward manager are on (fixtures/gated.json), the fee config and the reward address the snapshot's
// state held, read from that state again as the chain reloads. Each rule is changed before the
// snapshot and again after it, so that the one the revert must give back is neither the genesis's
// nor the latest. (Where no manager is on, as on the C-Chain, the rules read no state and stay the
// configuration's: every revert test of the C-Chain runs that path.)
import { join } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, type Hex, http, parseAbi, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTestNode, type TestNode } from './helpers.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'gated.json');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const FEES: Hex = '0x0200000000000000000000000000000000000003';
const REWARDS: Hex = '0x0200000000000000000000000000000000000004';
const feeAbi = parseAbi([
  'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
]);
const rewardAbi = parseAbi(['function setRewardAddress(address addr)']);
const gated = defineChain({ id: 99999, name: 'gated', nativeCurrency: { name: 'Token', symbol: 'TKN', decimals: 18 }, rpcUrls: { default: { http: [] } } });
/** The fee config with `gasLimit` and `minBaseFee` set, the rest as in the fixture's genesis. */
const feesWith = (gasLimit: bigint, minBaseFee: bigint) => [gasLimit, 2n, minBaseFee, 100_000_000n, 48n, 0n, 10_000_000n, 500_000n] as const;

describe('a revert gives back the rules its state sets', () => {
  let node: TestNode;
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  const urlOf = (chain: string) => `${node.uri}/ext/bc/${chain}/rpc`;
  const rpc = async (chain: string, method: string, params: unknown[] = []) => {
    const { json } = await post(urlOf(chain), JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    if (json.error) throw new Error(`${method}: ${json.error.message}`);
    return json.result;
  };

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE], dev: true });
  });
  afterAll(() => node.stop());

  it('on an L1 with its fee manager and reward manager on: the fee config and the reward address of the snapshot', async () => {
    const client = createPublicClient({ chain: gated, transport: http(urlOf('gated')), cacheTime: 0 }) as PublicClient;
    const wallet = createWalletClient({ chain: gated, transport: http(urlOf('gated')), account: ewoq });
    // Explicit fees: each change raises the minimum base fee over what viem would draw from the last block.
    const send = async (to: Hex, data: Hex) =>
      client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to, data, chain: gated, account: ewoq, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n }),
      });
    const nextBlock = async () => client.getBlock({ blockNumber: (await send('0x4444444444444444444444444444444444444444', '0x')).blockNumber });
    const setFees = (gasLimit: bigint, minBaseFee: bigint) =>
      send(FEES, encodeFunctionData({ abi: feeAbi, functionName: 'setFeeConfig', args: feesWith(gasLimit, minBaseFee) }));
    const setReward = (to: Hex) => send(REWARDS, encodeFunctionData({ abi: rewardAbi, functionName: 'setRewardAddress', args: [to] }));
    const first: Hex = '0x5555555555555555555555555555555555555555';
    const second: Hex = '0x6666666666666666666666666666666666666666';

    const changed = (await setFees(25_000_000n, 1_500_000_000n)).blockNumber;
    await setReward(first);
    const before = await nextBlock();
    expect([before.gasLimit, before.baseFeePerGas, before.miner]).toEqual([25_000_000n, 1_500_000_000n, first]);
    const id = await rpc('gated', 'evm_snapshot');

    await setFees(30_000_000n, 2_000_000_000n);
    await setReward(second);
    const after = await nextBlock();
    expect([after.gasLimit, after.baseFeePerGas, after.miner]).toEqual([30_000_000n, 2_000_000_000n, second]);

    expect(await rpc('gated', 'evm_revert', [id])).toBe(true);
    expect((await rpc('gated', 'eth_feeConfig', ['latest'])).lastChangedAt).toBe(Number(changed));
    const reverted = await nextBlock();
    expect(reverted.number).toBe(before.number + 1n);
    expect([reverted.gasLimit, reverted.baseFeePerGas, reverted.miner]).toEqual([25_000_000n, 1_500_000_000n, first]);
  });
});
