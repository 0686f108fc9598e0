// The P-Chain's check of the warp message an L1 validator tx carries (txs/executor/warp_verifier.go):
// its network, then the source chain's subnet's validator set as the P-Chain holds it (an L1's
// active validators with their keys, its inactive weight without one), then the signature over
// that set's canonical order with a 67% quorum.
import { encodeCB58 } from '../../encoding/cb58.js';
import { parseSignedMessage, type SignedMessage } from '../components/warp/message.js';
import { verifySignature } from '../components/warp/signature.js';
import type { Ledger } from './ledger.js';
import { validatorSets, warpSet } from './validators.js';

/** The P-Chain's quorum for the messages its txs carry (WarpQuorumNumerator). */
const QUORUM = 67n;

/** Why the message fails, or undefined. */
export function verifyWarpMessage(
  message: Uint8Array,
  ledger: Ledger,
  opts: { networkID: number; subnetOf(chainID: Uint8Array): Uint8Array | undefined },
): string | undefined {
  let m: SignedMessage;
  try {
    m = parseSignedMessage(message);
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
  return verifySignature(m, warpSet(validatorSets(ledger)[subnet] ?? []), QUORUM);
}
