// The P-Chain's check of the warp message an L1 validator tx carries (txs/executor/warp_verifier.go):
// its network, then the source chain's subnet's validator set as the P-Chain holds it (an L1's
// active validators with their keys), then the signature with a 67% quorum.
import { encodeCB58 } from '../../encoding/cb58.js';
import type { Ledger } from './ledger.js';
import { verifyBitSetSignature } from './bls.js';
import { parseWarpMessage } from './warp.js';
import { validatorSets } from './validators.js';

const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));

/** The validators that sign for `subnetID`, as the validator manager holds them now. */
export function subnetValidators(ledger: Ledger, subnetID: string): Array<{ publicKey?: Uint8Array; weight: bigint }> {
  return (validatorSets(ledger)[subnetID] ?? []).map((m) => ({ publicKey: m.publicKey ? bytes(m.publicKey) : undefined, weight: m.weight }));
}

/** Why the message fails, or undefined. */
export function verifyWarpMessage(
  message: Uint8Array,
  ledger: Ledger,
  opts: { networkID: number; subnetOf(chainID: Uint8Array): Uint8Array | undefined },
): string | undefined {
  let m: ReturnType<typeof parseWarpMessage>;
  try {
    m = parseWarpMessage(message);
  } catch (err) {
    return (err as Error).message;
  }
  // GetCanonicalValidatorSetFromChainID first (the source chain's subnet), then the signature, whose
  // Verify checks the network before the signers.
  const hexSource = Buffer.from(m.sourceChainID).toString('hex');
  const known = opts.subnetOf(m.sourceChainID);
  const subnet = ledger.chains.get(hexSource)?.subnetID ?? (known ? Buffer.from(known).toString('hex') : undefined);
  const id = encodeCB58(m.sourceChainID);
  if (subnet === undefined) return ledger.subnets.has(hexSource) ? `"${id}" is not a blockchain` : `problem retrieving blockchain "${id}": not found`;
  if (m.networkID !== opts.networkID) return 'wrong networkID';
  return verifyBitSetSignature(m.unsigned, m.signers, m.signature, subnetValidators(ledger, subnet));
}
