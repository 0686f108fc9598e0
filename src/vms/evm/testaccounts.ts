// Funding the test keys (--test-accounts) on an EVM chain: one ordinary EIP-1559 transfer each from
// ewoq, all in the chain's first block (while it has room), so the genesis (and its hash) stays the
// real local network's (or the L1's, as its file gives it).
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { Address, privateToAddress } from '@ethereumjs/util';
import type { EvmChain } from './chain.js';

/** 10,000 AVAX each, in wei. */
export const TEST_ACCOUNT_WEI = 10_000n * 10n ** 18n;

export const evmAddressOf = (privateKey: Uint8Array): Uint8Array => privateToAddress(privateKey);

/** ewoq's EVM address (a constant: deriving it would load the curve at start-up; a test checks the two agree). */
export const EWOQ_EVM_ADDRESS = new Uint8Array(Buffer.from('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc', 'hex'));

/** The C-Chain's cap: genesis' base fee is 225 gwei, the first block's 1 wei; the cap covers both. */
const C_FEE_CAP = 300_000_000_000n;

/** Whether nothing was made on `chain` yet: a fresh genesis, not a fork's or a restart's. */
export const untouched = (chain: EvmChain): boolean => chain.head.header.number === 0n && chain.pool.size === 0;

/**
 * Whether `chain` can fund `count` test accounts from `funder` in its first blocks: untouched, and
 * the funder holds enough (an L1 whose genesis gave ewoq nothing is left as it is).
 */
export async function canFundTestAccounts(chain: EvmChain, funder: Uint8Array, count: number): Promise<boolean> {
  if (count === 0 || !untouched(chain)) return false;
  const balance = (await chain.account(evmAddressOf(funder)))?.balance ?? 0n;
  return balance >= BigInt(count) * (TEST_ACCOUNT_WEI + 21_000n * feeCapOf(chain));
}

/**
 * The funding txs' fee cap: the C-Chain's constant (its first block's txs are those of every start),
 * an L1's twice its base fee or its fee config's minimum, whichever is higher (Subnet-EVM moves the
 * base fee by a few percent a block).
 */
function feeCapOf(chain: EvmChain): bigint {
  if (chain.flavor.multiCoin) return C_FEE_CAP;
  const floor = chain.flavor.minFeeCap(chain.headRules);
  const base = chain.head.header.baseFee ?? 0n;
  const twice = 2n * (base > floor ? base : floor);
  return twice > C_FEE_CAP ? twice : C_FEE_CAP;
}

export async function fundTestAccounts(chain: EvmChain, funder: Uint8Array, keys: Uint8Array[]): Promise<void> {
  const from = new Address(evmAddressOf(funder));
  let nonce = (await chain.account(from.bytes))?.nonce ?? 0n;
  const maxFeePerGas = feeCapOf(chain);
  // Pooled first, then mined together: one block, whatever the timing of the sends.
  await chain.dev.withoutAutomine(async () => {
    for (const key of keys) {
      const tx = createFeeMarket1559Tx(
        { nonce: nonce++, to: new Address(evmAddressOf(key)), value: TEST_ACCOUNT_WEI, gasLimit: 21_000n, maxFeePerGas, maxPriorityFeePerGas: 0n },
        { common: chain.common },
      ).sign(funder);
      await chain.sendRawTransaction(tx.serialize());
    }
  });
  await chain.dev.mine(1);
  // What a full block left goes in the next ones, before the node reports ready.
  for (let i = 1; i < keys.length && chain.pool.size > 0; i++) await chain.dev.mine(1);
  if (chain.pool.size > 0) throw new Error(`${chain.pool.size} of the test accounts' funding txs were not mined`);
}
