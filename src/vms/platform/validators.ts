// Validator sets as the P-Chain's validator manager holds them (state.initValidatorSets): the
// primary network's validators with their delegators' weight added, a permissioned subnet's
// validators (BLS keys taken from their primary-network entries), and an L1's active validators,
// its inactive weight gathered under the empty node ID without a key.
import { type CanonicalSet, canonicalSet } from '../components/warp/validators.js';
import type { Hex, Ledger } from './ledger.js';

export interface SetMember {
  /** Hex node ID; '' stands for NodeID-111111111111111111116DBWJs (an L1's inactive weight). */
  nodeID: Hex;
  publicKey?: Hex;
  weight: bigint;
}

export type ValidatorSets = Record<Hex, SetMember[]>;

/** A validator set in warp's canonical order (GetCanonicalValidatorSet): what warp signatures index. */
export function warpSet(members: SetMember[]): CanonicalSet<SetMember> {
  return canonicalSet(members, (m) => (m.publicKey ? new Uint8Array(Buffer.from(m.publicKey, 'hex')) : undefined));
}

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

export interface Member {
  nodeID: Hex;
  publicKey?: Hex;
  weight: bigint;
  validationID: Hex;
  startTime: bigint;
  active: boolean;
  l1: boolean;
}

/**
 * A subnet's validators one by one, as validator-state queries see them (undefined for a subnet the
 * P-Chain does not know): an L1's validators, inactive ones included; a permissioned subnet's
 * stakers with their primary-network keys; the primary network's validators (delegations added).
 */
export function subnetMembers(ledger: Ledger, subnetID: Hex): Member[] | undefined {
  if (/^0+$/.test(subnetID)) {
    const out: Member[] = [];
    for (const s of ledger.stakers.values()) {
      if (s.kind !== 'primaryValidator') continue;
      let weight = s.weight;
      for (const d of ledger.stakers.values()) if (d.kind === 'primaryDelegator' && d.nodeID === s.nodeID) weight += d.weight;
      out.push({ nodeID: s.nodeID, publicKey: s.publicKey, weight, validationID: s.txID, startTime: s.start, active: true, l1: false });
    }
    return out;
  }
  const subnet = ledger.subnets.get(subnetID);
  if (!subnet) return undefined;
  if (subnet.conversion) {
    return [...ledger.l1Validators.values()]
      .filter((v) => v.subnetID === subnetID)
      .sort((a, b) => (a.nodeID < b.nodeID ? -1 : 1))
      .map((v) => ({
        nodeID: v.nodeID,
        publicKey: v.publicKey,
        weight: v.weight,
        validationID: v.validationID,
        startTime: v.startTime,
        active: v.endAccumulatedFee !== 0n,
        l1: true,
      }));
  }
  return [...ledger.stakers.values()]
    .filter((s) => s.kind === 'subnetValidator' && s.subnetID === subnetID)
    .map((s) => ({
      nodeID: s.nodeID,
      publicKey: ledger.primaryValidator(s.nodeID)?.publicKey,
      weight: s.weight,
      validationID: s.txID,
      startTime: s.start,
      active: true,
      l1: false,
    }));
}
