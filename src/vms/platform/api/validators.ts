// Validators: getCurrentValidators (primary, permissioned subnet and L1 shapes), getL1Validator,
// getValidatorsAt (a bare map, as GetValidatorsAtReply marshals it).
import { encodeCB58, idFromString } from '../../../encoding/cb58.js';
import { method } from '../../../rpc/method.js';
import { arrayOf, type Field, nodeID, ParamsError, struct, uint16 } from '../../../rpc/schema.js';
import { validatorSets, warpSet } from '../validators.js';
import { cb58, errors, id, isZero, nodeIDString, ownerJson, type PlatformDeps } from './common.js';
import type { L1ValidatorRecord, StakerRecord } from '../ledger.js';
import { toHex } from '../../../encoding/bytes.js';

const EMPTY_NODE = 'NodeID-111111111111111111116DBWJs';

/** A height: a number, a numeric string, or "proposed". */
const heightField: Field<bigint | 'proposed'> = {
  decode(v) {
    if (v === 'proposed') return 'proposed';
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
    throw new ParamsError('invalid height');
  },
  zero: () => 0n,
};

/** avajson.Float32 of 100·x/10⁶, as Go computes it in float32 and prints with 4 decimals. */
const percent = (x: number) => Math.fround(Math.fround(100 * Math.fround(x)) / Math.fround(1_000_000)).toFixed(4);

export function validatorMethods(d: PlatformDeps) {
  const ledger = () => d.vm.state.ledger;

  const uptime = (s: StakerRecord) => {
    if (s.nodeID === d.nodeID) return '100.0000';
    const now = d.now();
    if (now <= s.start) return '100.0000';
    const up = d.startedAt > s.start ? d.startedAt - s.start : 0n;
    return ((Number(up) / Number(now - s.start)) * 100).toFixed(4);
  };

  const primaryJson = (s: StakerRecord, withDelegators: boolean) => {
    // The delegator iterator's order: end time, then tx ID.
    const delegators = [...ledger().stakers.values()].filter((x) => x.kind === 'primaryDelegator' && x.nodeID === s.nodeID).sort(byEnd);
    const base = {
      txID: cb58(s.txID),
      startTime: String(s.start),
      endTime: String(s.end),
      weight: String(s.weight),
      nodeID: nodeIDString(s.nodeID),
      validationRewardOwner: s.rewardOwner ? ownerJson(d, s.rewardOwner) : null,
      delegationRewardOwner: s.delegationRewardOwner ? ownerJson(d, s.delegationRewardOwner) : null,
      potentialReward: String(s.potentialReward),
      accruedDelegateeReward: String(s.delegateeReward ?? 0n),
      delegationFee: percent(s.delegationShares ?? 0),
      uptime: uptime(s),
      connected: s.nodeID === d.nodeID,
      signer: s.publicKey ? { publicKey: `0x${s.publicKey}`, proofOfPossession: `0x${s.pop ?? ''}` } : null,
      delegatorCount: String(delegators.length),
      delegatorWeight: String(delegators.reduce((sum, x) => sum + x.weight, 0n)),
    };
    if (!withDelegators) return base;
    return {
      ...base,
      delegators: delegators.map((x) => ({
        txID: cb58(x.txID),
        startTime: String(x.start),
        endTime: String(x.end),
        weight: String(x.weight),
        nodeID: nodeIDString(x.nodeID),
        rewardOwner: x.rewardOwner ? ownerJson(d, x.rewardOwner) : null,
        potentialReward: String(x.potentialReward),
      })),
    };
  };

  const l1Json = (v: L1ValidatorRecord) => {
    const accrued = ledger().c.accruedFees;
    return {
      nodeID: nodeIDString(v.nodeID),
      weight: String(v.weight),
      startTime: String(v.startTime),
      validationID: cb58(v.validationID),
      publicKey: `0x${v.publicKey}`,
      remainingBalanceOwner: ownerJson(d, { locktime: 0n, ...v.remainingBalanceOwner }),
      deactivationOwner: ownerJson(d, { locktime: 0n, ...v.deactivationOwner }),
      minNonce: String(v.minNonce),
      balance: String(v.endAccumulatedFee === 0n ? 0n : v.endAccumulatedFee - accrued),
    };
  };

  /** The primary stakers' order: end time, then validators before delegators, then tx ID. */
  const byEnd = (a: StakerRecord, b: StakerRecord) => (a.end !== b.end ? (a.end < b.end ? -1 : 1) : a.txID < b.txID ? -1 : 1);

  return {
    getCurrentValidators: method(struct({ subnetID: id, nodeIDs: arrayOf(nodeID) }), ({ subnetID, nodeIDs }) => {
      const subnet = toHex(subnetID);
      const wanted = new Set(nodeIDs.map(toHex));
      const pick = (nodeID: string) => wanted.size === 0 || wanted.has(nodeID);
      const stakers = [...ledger().stakers.values()].filter((s) => s.subnetID === subnet && s.kind !== 'primaryDelegator' && pick(s.nodeID)).sort(byEnd);
      if (isZero(subnetID)) return { validators: stakers.map((s) => primaryJson(s, wanted.size === 1)) };
      const legacy = stakers.map((s) => ({
        txID: cb58(s.txID),
        startTime: String(s.start),
        endTime: String(s.end),
        weight: String(s.weight),
        nodeID: nodeIDString(s.nodeID),
      }));
      if (!ledger().subnets.get(subnet)?.conversion) return { validators: legacy };
      const l1 = [...ledger().l1Validators.values()]
        .filter((v) => v.subnetID === subnet && pick(v.nodeID))
        .sort((a, b) => (a.nodeID < b.nodeID ? -1 : 1))
        .map(l1Json);
      return { validators: [...legacy, ...l1] };
    }),

    getL1Validator: method(struct({ validationID: id }), ({ validationID }) => {
      const v = ledger().l1Validators.get(toHex(validationID));
      if (!v) throw errors.l1Validator(encodeCB58(validationID));
      return { ...l1Json(v), subnetID: cb58(v.subnetID), height: String(d.vm.state.lastAccepted().height) };
    }),

    sampleValidators: method(struct({ size: uint16, subnetID: id }), ({ size, subnetID }) => {
      if (size === 0n) return { validators: [] };
      const members = validatorSets(ledger())[toHex(subnetID)];
      if (!members || members.length === 0) throw errors.sampling(encodeCB58(subnetID), 'missing validators');
      if (BigInt(members.filter((m) => m.weight > 0n).length) < size) throw errors.sampling(encodeCB58(subnetID), 'insufficient weight');
      // Weighted sampling without replacement, as the validator set's sampler draws.
      const pool = members.filter((m) => m.weight > 0n);
      const picked: string[] = [];
      while (BigInt(picked.length) < size) {
        const total = pool.reduce((s, m) => s + m.weight, 0n);
        const r = BigInt(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER)) % total;
        let acc = 0n;
        const i = pool.findIndex((m) => {
          acc += m.weight;
          return r < acc;
        });
        picked.push(pool[i]!.nodeID === '' ? EMPTY_NODE : nodeIDString(pool[i]!.nodeID));
        pool.splice(i, 1);
      }
      return { validators: picked.sort() };
    }),

    getAllValidatorsAt: method(struct({ height: heightField }), async ({ height }) => {
      const current = d.vm.state.lastAccepted().height;
      const h = height === 'proposed' ? current : height;
      if (h > current) throw errors.validatorSets(h, current);
      const sets = await d.vm.state.validatorSetsAt(h);
      const out: Record<string, unknown> = {};
      for (const subnet of Object.keys(sets)
        .map((k) => cb58(k))
        .sort()) {
        const members = sets[toHex(idFromString(subnet))]!;
        const set = warpSet(members);
        out[subnet] = {
          validators: set.validators.map((v) => ({
            publicKey: `0x${toHex(v.publicKey)}`,
            weight: String(v.weight),
            nodeIDs: v.members.map((m) => nodeIDString(m.nodeID)).sort(),
          })),
          totalWeight: String(set.totalWeight),
        };
      }
      return { validatorSets: out };
    }),

    getValidatorsAt: method(struct({ height: heightField, subnetID: id }), async ({ height, subnetID }) => {
      const current = d.vm.state.lastAccepted().height;
      const h = height === 'proposed' ? current : height;
      if (h > current) throw errors.validatorSet(h, encodeCB58(subnetID), current);
      const sets = await d.vm.state.validatorSetsAt(h);
      const members = (sets[toHex(subnetID)] ?? []).slice().sort((a, b) => {
        const ka = a.nodeID === '' ? EMPTY_NODE : nodeIDString(a.nodeID);
        const kb = b.nodeID === '' ? EMPTY_NODE : nodeIDString(b.nodeID);
        return ka < kb ? -1 : ka > kb ? 1 : 0;
      });
      const out: Record<string, { publicKey: string | null; weight: string }> = {};
      for (const m of members)
        out[m.nodeID === '' ? EMPTY_NODE : nodeIDString(m.nodeID)] = { publicKey: m.publicKey ? `0x${m.publicKey}` : null, weight: String(m.weight) };
      return out;
    }),
  };
}
