// The P-Chain's small state: subnets, chains, stakers, L1 validators and the chain-wide counters.
// Records are immutable values in copy-on-write maps, so verifying a tx or building a block works
// on a cheap draft (new Map over the same records) and committing writes only what changed.
// Large state (UTXOs, txs, blocks) lives in PState's own keys, not here.
import type { Owners } from './types.js';
import { toHex } from '../../encoding/bytes.js';

/** Hex strings stand for IDs, node IDs and keys in records: they are map keys and JSON at once. */
export type Hex = string;

/** secp256k1fx.OutputOwners with hex addresses. */
export interface OwnerRecord {
  locktime: bigint;
  threshold: number;
  addresses: Hex[];
}

export const ownerRecord = (o: Owners): OwnerRecord => ({ locktime: o.locktime, threshold: o.threshold, addresses: o.addresses.map(toHex) });
export const ownersOf = (o: OwnerRecord): Owners => ({
  locktime: o.locktime,
  threshold: o.threshold,
  addresses: o.addresses.map((a) => new Uint8Array(Buffer.from(a, 'hex'))),
});

export interface SubnetRecord {
  owner: OwnerRecord;
  /** Set by ConvertSubnetToL1Tx: the subnet is an L1 from then on. */
  conversion?: { conversionID: Hex; chainID: Hex; address: Hex };
}

export interface ChainRecord {
  subnetID: Hex;
  name: string;
  vmID: Hex;
}

export type StakerKind = 'primaryValidator' | 'primaryDelegator' | 'subnetValidator';

export interface StakerRecord {
  txID: Hex;
  kind: StakerKind;
  nodeID: Hex;
  subnetID: Hex;
  start: bigint;
  end: bigint;
  weight: bigint;
  potentialReward: bigint;
  /** Primary validators: BLS key (48 B compressed), delegation shares, owners. */
  publicKey?: Hex;
  pop?: Hex;
  delegationShares?: number;
  rewardOwner?: OwnerRecord;
  delegationRewardOwner?: OwnerRecord;
  /** A validator's share of its delegators' rewards, paid when its own period ends (Cortina+). */
  delegateeReward?: bigint;
}

export interface PChainOwner {
  threshold: number;
  addresses: Hex[];
}

export interface L1ValidatorRecord {
  validationID: Hex;
  subnetID: Hex;
  nodeID: Hex;
  publicKey: Hex;
  remainingBalanceOwner: PChainOwner;
  deactivationOwner: PChainOwner;
  startTime: bigint;
  weight: bigint;
  minNonce: bigint;
  /** The accrued-fee mark at which the validator runs dry; 0 when inactive. */
  endAccumulatedFee: bigint;
}

export interface Counters {
  /** Chain time (unix s): the last accepted block's timestamp. */
  timestamp: bigint;
  supply: bigint;
  feeCapacity: bigint;
  feeExcess: bigint;
  l1Excess: bigint;
  accruedFees: bigint;
}

/** The kinds of record, each its own map (and key byte in storage). */
export const KINDS = {
  subnets: 1,
  chains: 2,
  stakers: 3,
  l1Validators: 4,
  /** Register-message expiries: `${u64 hex expiry}${validationID}` → expiry (replay protection). */
  expiries: 5,
  counters: 6,
  /** Staker tx ID → the reward UTXOs its RewardValidatorTx created (hex UTXO bytes). */
  rewardUTXOs: 7,
  /** Txs whose status is not Committed: a RewardValidatorTx whose proposal was aborted. */
  aborted: 8,
} as const;

export interface LedgerMaps {
  subnets: Map<Hex, SubnetRecord>;
  chains: Map<Hex, ChainRecord>;
  stakers: Map<Hex, StakerRecord>;
  l1Validators: Map<Hex, L1ValidatorRecord>;
  expiries: Map<Hex, bigint>;
  counters: Map<Hex, Counters>;
  rewardUTXOs: Map<Hex, Hex[]>;
  aborted: Map<Hex, true>;
}

export type Kind = keyof LedgerMaps;

export class Ledger implements LedgerMaps {
  subnets = new Map<Hex, SubnetRecord>();
  chains = new Map<Hex, ChainRecord>();
  stakers = new Map<Hex, StakerRecord>();
  l1Validators = new Map<Hex, L1ValidatorRecord>();
  expiries = new Map<Hex, bigint>();
  counters = new Map<Hex, Counters>();
  rewardUTXOs = new Map<Hex, Hex[]>();
  aborted = new Map<Hex, true>();

  get c(): Counters {
    return this.counters.get('')!;
  }

  set c(value: Counters) {
    this.counters.set('', value);
  }

  /** A draft over the same records: changing it never changes this ledger. */
  draft(): Ledger {
    const d = new Ledger();
    for (const kind of Object.keys(KINDS) as Kind[]) (d as LedgerMaps)[kind] = new Map((this as LedgerMaps)[kind] as Map<Hex, never>) as never;
    return d;
  }

  /** What `draft` changed relative to this ledger, per kind: records to write and keys to delete. */
  changes(draft: Ledger): Array<{ kind: Kind; key: Hex; value: unknown | undefined }> {
    const out: Array<{ kind: Kind; key: Hex; value: unknown | undefined }> = [];
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const before = (this as LedgerMaps)[kind] as Map<Hex, unknown>;
      const after = (draft as LedgerMaps)[kind] as Map<Hex, unknown>;
      for (const [key, value] of after) if (before.get(key) !== value) out.push({ kind, key, value });
      for (const key of before.keys()) if (!after.has(key)) out.push({ kind, key, value: undefined });
    }
    return out;
  }

  /** Takes the draft's maps as its own (after the draft's changes are committed). */
  adopt(draft: Ledger): void {
    for (const kind of Object.keys(KINDS) as Kind[]) (this as LedgerMaps)[kind] = (draft as LedgerMaps)[kind] as never;
  }

  /** The primary-network validator (not delegator) staking on `nodeID`, if any. */
  primaryValidator(nodeID: Hex): StakerRecord | undefined {
    for (const s of this.stakers.values()) if (s.kind === 'primaryValidator' && s.nodeID === nodeID) return s;
    return undefined;
  }

  /** The staker of `nodeID` on `subnetID` (validators only). */
  validatorOn(subnetID: Hex, nodeID: Hex): StakerRecord | undefined {
    for (const s of this.stakers.values()) if (s.kind !== 'primaryDelegator' && s.subnetID === subnetID && s.nodeID === nodeID) return s;
    return undefined;
  }

  l1ValidatorOn(subnetID: Hex, nodeID: Hex): L1ValidatorRecord | undefined {
    for (const v of this.l1Validators.values()) if (v.subnetID === subnetID && v.nodeID === nodeID) return v;
    return undefined;
  }
}

/** JSON with bigints (as {"$n":"…"}) for the stored records. */
export const encodeRecord = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? { $n: v.toString() } : v)));

export const decodeRecord = (bytes: Uint8Array): unknown =>
  JSON.parse(Buffer.from(bytes).toString('utf8'), (_k, v) => (v && typeof v === 'object' && typeof v.$n === 'string' ? BigInt(v.$n) : v));
