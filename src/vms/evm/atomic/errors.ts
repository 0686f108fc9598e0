// coreth's atomic error texts, declared once (plugin/evm/atomic/*.go, atomic/vm/*.go,
// atomic/txpool/*.go, and the avalanchego packages they wrap: secp256k1fx, components/avax,
// utils/math). avax.issueTx returns a verification error raw, so every character is API.

import { VerifyError } from '../../components/verify/errors.js';

/** A refusal of an atomic tx (parse, verification, mempool): its message is the node's text. */
export class AtomicError extends Error {
  override name = 'AtomicError';
}

export const atomicErrors = {
  // utils/math
  overflow: () => 'overflow',
  underflow: () => 'underflow',
  // atomic/tx.go
  wrongNetworkID: () => 'tx was issued with a different network ID',
  noValueOutput: () => 'output has no value',
  noValueInput: () => 'input has no value',
  emptyAssetID: () => 'empty asset ID is not valid',
  feeOverflow: () => 'overflow occurred while calculating the fee',
  nonPositiveBaseFee: (baseFee: bigint) => `cannot calculate tip with base fee ${baseFee} <= 0`,
  insufficientBurned: (burned: bigint, fee: bigint) => `insufficient AVAX burned (${burned}) to cover import tx fee (${fee})`,
  // atomic/import_tx.go
  noImportInputs: () => 'tx has no imported inputs',
  wrongChainID: () => 'tx has wrong chain ID',
  noEVMOutputs: () => 'tx has no EVM outputs',
  evmOutput: (why: string) => `EVM Output failed verification: ${why}`,
  importNonAVAXOutput: () => 'import output cannot contain non-AVAX in Banff',
  importNonAVAXInput: () => 'import input cannot contain non-AVAX in Banff',
  atomicInput: (why: string) => `atomic input failed verification: ${why}`,
  inputsNotSortedUnique: () => 'inputs not sorted and unique',
  outputsNotSortedUnique: () => 'outputs not sorted and unique',
  outputsNotSorted: () => 'tx outputs not sorted',
  // atomic/export_tx.go
  noExportOutputs: () => 'tx has no export outputs',
  exportNonAVAXInput: () => 'export input cannot contain non-AVAX in Banff',
  exportNonAVAXOutput: () => 'export output cannot contain non-AVAX in Banff',
  insufficientFunds: () => 'insufficient funds',
  invalidNonce: () => 'invalid nonce',
  // atomic/vm/tx_semantic_verifier.go
  importFlow: (why: string) => `import tx flow check failed due to: ${why}`,
  exportFlow: (why: string) => `export tx flow check failed due to: ${why}`,
  importCredentials: (inputs: number, creds: number) => `incorrect number of credentials: (${inputs} vs. ${creds})`,
  exportCredentials: (inputs: number, creds: number) => `export tx contained incorrect number of credentials want ${inputs} got ${creds}`,
  fetchUTXOs: (chain: string, why: string) => `failed to fetch import UTXOs from ${chain} due to: ${why}`,
  unmarshalUTXO: (why: string) => `failed to unmarshal UTXO: ${why}`,
  assetMismatch: () => "asset IDs in the input don't match the utxo",
  transfer: (why: string) => `import tx transfer failed verification: ${why}`,
  // A failed type assertion prints the typed nil it produced: the expected type, twice.
  notCredential: () => 'expected *secp256k1fx.Credential but got *secp256k1fx.Credential',
  signatureCount: (n: number) => `incorrect number of signatures want 1 signature for EVM Input Credential, but got ${n}`,
  signatureMismatch: () => "signature doesn't match public key",
  // chains/atomic (database.ErrNotFound)
  notFound: () => 'not found',
  // (secp256k1fx's and utils/crypto/secp256k1's texts come from vms/components, through asAtomic)
  // atomic/vm/vm.go verifyTxAtTip, atomic/txpool
  txTooLarge: (size: number, max: number) => `tx size (${size}) exceeds total atomic txs size target (${max})`,
  txGasTooHigh: (gas: bigint, max: bigint) => `tx gas usage (${gas}) exceeds maximum allowed mempool gas usage (${max})`,
  conflict: (txID: string, price: bigint, other: string, otherPrice: bigint, n: number) =>
    `conflict present: issued tx (${txID}) gas price ${price} <= conflict tx (${other}) gas price ${otherPrice} (${n} total conflicts in mempool)`,
  mempoolFull: () => 'mempool full',
  insufficientFee: (min: bigint, provided: bigint) => `insufficient fee currentMin=${min} provided=${provided}`,
} as const;

/** A shared secp256k1fx check (vms/components) run here: its failure, same text, as an AtomicError. */
export function asAtomic<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof VerifyError) throw new AtomicError(err.message);
    throw err;
  }
}

export function fail(message: string): never {
  throw new AtomicError(message);
}

/** fmt.Errorf("...%w", err) for an AtomicError; anything else is a bug and passes through. */
export function wrapped<T>(wrap: (why: string) => string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof AtomicError) throw new AtomicError(wrap(err.message));
    throw err;
  }
}
