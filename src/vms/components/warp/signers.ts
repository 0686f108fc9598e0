// The BLS keys this process signs warp messages with: avalanchego's local network stakers 1-5, whose
// signer keys avalanchego publishes (staking/local/signer<N>.key, the ASCII of
// "AvalancheLocalNetworkValidator0<N>"). They validate the primary network; the node is staker 1.
import { publicKeyOf } from './bls.js';

export interface LocalSigner {
  nodeID: string;
  secretKey: Uint8Array;
}

export const LOCAL_SIGNERS: readonly LocalSigner[] = [
  'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
  'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
  'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
  'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
  'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
].map((nodeID, i) => ({ nodeID, secretKey: new Uint8Array(Buffer.from(`AvalancheLocalNetworkValidator0${i + 1}`)) }));

let byPublicKey: Map<string, Uint8Array> | undefined;

/** The secret key of the local staker that holds `publicKey` (compressed), if one does. */
export function localSecretKeyOf(publicKey: Uint8Array): Uint8Array | undefined {
  // Derived on first use: a scalar multiplication each, not worth paying at start-up.
  byPublicKey ??= new Map(LOCAL_SIGNERS.map((s) => [Buffer.from(publicKeyOf(s.secretKey)).toString('hex'), s.secretKey]));
  return byPublicKey.get(Buffer.from(publicKey).toString('hex'));
}
