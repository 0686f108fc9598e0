// Subnet authorization (txs/executor/subnet_tx_verification.go): the last credential signs for the
// subnet's owner through secp256k1fx's VerifyPermission; the others pay for the inputs.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { verifyCredentials, verifyOwners, verifySigIndices } from '../../components/secp256k1fx/fx.js';
import { ownersOf } from '../ledger.js';
import type { FxValue, Owners, SignedTx } from '../types.js';
import { sha256 } from '../../../crypto/sha256.js';
import { fail, wrapped } from './base.js';
import type { TxEnv } from './env.js';
import { toHex } from '../../../encoding/bytes.js';

/** secp256k1fx.Fx.VerifyPermission. */
export function verifyPermission(tx: SignedTx, auth: FxValue, cred: FxValue, owner: Owners, env: TxEnv): void {
  if (auth.type !== 10) fail('wrong input type');
  if (cred.type !== 9) fail('wrong credential type');
  verifySigIndices(auth.sigIndices);
  verifyOwners(owner);
  verifyCredentials(auth.sigIndices, cred.signatures, owner, { hash: sha256(tx.unsignedBytes), now: env.now });
}

/** verifySubnetAuthorization: returns the credentials left for the inputs. */
export function verifySubnetAuthorization(tx: SignedTx, subnetID: Uint8Array, auth: FxValue, env: TxEnv): FxValue[] {
  // GetSubnetOwner first: a chain's ID names a tx that is not a subnet.
  const subnet =
    env.ledger.subnets.get(toHex(subnetID)) ?? (env.ledger.chains.has(toHex(subnetID)) ? fail(`"${encodeCB58(subnetID)}" is not a subnet`) : fail('not found'));
  if (tx.credentials.length === 0) fail('should have the same number of credentials as inputs');
  const cred = tx.credentials[tx.credentials.length - 1]!;
  wrapped('unauthorized modification', () => verifyPermission(tx, auth, cred, ownersOf(subnet.owner), env));
  return tx.credentials.slice(0, -1);
}

/** verifyPoASubnetAuthorization: the authorization, then a subnet converted to an L1 is refused (no transformations exist here). */
export function verifyPoASubnetAuthorization(tx: SignedTx, subnetID: Uint8Array, auth: FxValue, env: TxEnv): FxValue[] {
  const creds = verifySubnetAuthorization(tx, subnetID, auth, env);
  if (env.ledger.subnets.get(toHex(subnetID))?.conversion) fail(`"${encodeCB58(subnetID)}" is immutable`);
  return creds;
}
