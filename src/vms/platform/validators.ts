// Validator sets as the P-Chain's validator manager holds them (state.initValidatorSets): the
// primary network's validators with their delegators' weight added, a permissioned subnet's
// validators (BLS keys taken from their primary-network entries), and an L1's active validators,
// its inactive weight gathered under the empty node ID without a key.
import type { Hex, Ledger } from './ledger.js';

export interface SetMember {
  /** Hex node ID; '' stands for NodeID-111111111111111111116DBWJs (an L1's inactive weight). */
  nodeID: Hex;
  publicKey?: Hex;
  weight: bigint;
}

export type ValidatorSets = Record<Hex, SetMember[]>;

export function validatorSets(ledger: Ledger): ValidatorSets {
  const sets = new Map<Hex, Map<Hex, SetMember>>();
  const add = (subnet: Hex, m: SetMember) => {
    const set = sets.get(subnet) ?? new Map<Hex, SetMember>();
    sets.set(subnet, set);
    const prev = set.get(m.nodeID);
    set.set(m.nodeID, prev ? { ...prev, weight: prev.weight + m.weight, publicKey: prev.publicKey ?? m.publicKey } : m);
  };
  for (const s of ledger.stakers.values()) {
    if (s.kind === 'primaryValidator') add(s.subnetID, { nodeID: s.nodeID, publicKey: s.publicKey, weight: s.weight });
  }
  for (const s of ledger.stakers.values()) {
    if (s.kind === 'primaryDelegator') add(s.subnetID, { nodeID: s.nodeID, weight: s.weight });
    if (s.kind === 'subnetValidator') add(s.subnetID, { nodeID: s.nodeID, publicKey: ledger.primaryValidator(s.nodeID)?.publicKey, weight: s.weight });
  }
  for (const v of ledger.l1Validators.values()) {
    if (v.endAccumulatedFee === 0n) add(v.subnetID, { nodeID: '', weight: v.weight });
    else add(v.subnetID, { nodeID: v.nodeID, publicKey: v.publicKey, weight: v.weight });
  }
  const out: ValidatorSets = {};
  for (const [subnet, set] of sets) out[subnet] = [...set.values()];
  return out;
}
