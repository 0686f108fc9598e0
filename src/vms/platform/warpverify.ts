// The P-Chain's check of the warp message an L1 validator tx carries (txs/executor/warp_verifier.go):
// its network, then the source chain's subnet's validator set as the P-Chain holds it (an L1's
// active validators with their keys), then the signature with a 67% quorum.
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
  if (m.networkID !== opts.networkID) return `wrong networkID: expected ${opts.networkID} but got ${m.networkID}`;
  const hexSource = Buffer.from(m.sourceChainID).toString('hex');
  const subnet =
    ledger.chains.get(hexSource)?.subnetID ?? (opts.subnetOf(m.sourceChainID) ? Buffer.from(opts.subnetOf(m.sourceChainID)!).toString('hex') : undefined);
  if (subnet === undefined) return `failed to get subnet of "${hexSource}": not found`;
  return verifyBitSetSignature(m.unsigned, m.signers, m.signature, subnetValidators(ledger, subnet));
}
