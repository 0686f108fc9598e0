// Opt-in deterministic test keys (--test-accounts=N), like Anvil's accounts: each is funded by one
// ordinary BaseTx from the ewoq key, accepted in the first block, so every genesis ID stays the real
// local network's.
import { sha256 } from '../../crypto/sha256.js';
import { encodeCB58 } from '../../encoding/cb58.js';
import { buildTx, compareBytes, outputSortKey } from './codec/index.js';
import type { SignedTx, TransferableOutput, UTXO } from './types.js';
import { addressOfPrivateKey, signHash, txHash } from './verify/index.js';

/** The well-known ewoq key of the local network (public test key; holds the 300M AVAX genesis UTXO). */
export const EWOQ_PRIVATE_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
/** Its address (a constant: deriving it would load the curve at start-up; a test checks the two agree). */
export const EWOQ_ADDRESS = Buffer.from('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c', 'hex');
/** 10,000 AVAX each. */
export const TEST_ACCOUNT_BALANCE = 10_000n * 1_000_000_000n;

export interface TestAccount {
  privateKey: Uint8Array;
  address: Uint8Array;
}

export function testAccounts(count: number): TestAccount[] {
  return Array.from({ length: count }, (_, i) => {
    const privateKey = sha256(new TextEncoder().encode(`avalanche-emulator test account ${i}`));
    return { privateKey, address: addressOfPrivateKey(privateKey) };
  });
}

export const privateKeyString = (key: Uint8Array) => `PrivateKey-${encodeCB58(key)}`;

/** A BaseTx spending ewoq's genesis UTXO: one output per account, change back to ewoq. */
export function fundingTx(
  p: { networkID: number; chainID: Uint8Array; avaxAssetID: Uint8Array; txFee: bigint },
  source: UTXO,
  accounts: TestAccount[],
): SignedTx {
  if (source.output.type !== 7) throw new Error('funding UTXO must be a TransferOutput');
  const change = source.output.amount - TEST_ACCOUNT_BALANCE * BigInt(accounts.length) - p.txFee;
  const out = (amount: bigint, address: Uint8Array): TransferableOutput => ({
    assetID: p.avaxAssetID,
    out: { type: 7, amount, owners: { locktime: 0n, threshold: 1, addresses: [address] } },
  });
  const outputs = [...accounts.map((a) => out(TEST_ACCOUNT_BALANCE, a.address)), out(change, EWOQ_ADDRESS)].sort((a, b) =>
    compareBytes(outputSortKey(a.out), outputSortKey(b.out)),
  );
  const unsigned = {
    type: 0 as const,
    base: {
      networkID: p.networkID,
      blockchainID: p.chainID,
      outputs,
      inputs: [{ utxoID: source.utxoID, assetID: p.avaxAssetID, input: { type: 5 as const, amount: source.output.amount, sigIndices: [0] } }],
      memo: new Uint8Array(),
    },
  };
  const unsignedTx = buildTx(unsigned, []);
  const signature = signHash(txHash(unsignedTx.unsignedBytes), EWOQ_PRIVATE_KEY);
  return buildTx(unsigned, [{ type: 9, signatures: [signature] }]);
}
