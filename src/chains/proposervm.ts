// The proposervm layer that wraps a chain's blocks on a real node (avalanchego vms/proposervm), as it
// behaves on a single node with sybil protection off (empty validator set): every block is unsigned;
// the first after the inner genesis is a statelessBlock (type 0) with no epoch, every later one a
// statelessGraniteBlock (type 2) carrying its ACP-181 epoch. The outer bytes and IDs are what the
// Index API serves. Notes: docs/research/index-and-proposervm.md.
import { sha256 } from '../crypto/sha256.js';
import { type Database, readAfter, type WriteBatch } from '../storage/db.js';
import type { Changes } from '../storage/undo.js';
import { asBuffer, i64, u32, u64 } from '../encoding/bytes.js';

const GRANITE_EPOCH_DURATION = 30n;
const STATELESS_BLOCK = 0;
const STATELESS_GRANITE_BLOCK = 2;

export interface Epoch {
  pChainHeight: bigint;
  number: bigint;
  startTime: bigint;
}

export interface OuterBlock {
  id: Uint8Array;
  parentID: Uint8Array;
  bytes: Uint8Array;
  timestamp: bigint;
  pChainHeight: bigint;
  epoch: Epoch | undefined;
}

/** Unsigned proposervm block: the ID hashes everything but the trailing (empty) signature field. */
export function encodeOuterBlock(
  parentID: Uint8Array,
  timestamp: bigint,
  pChainHeight: bigint,
  inner: Uint8Array,
  epoch: Epoch | undefined,
): { id: Uint8Array; bytes: Uint8Array } {
  const unsigned = Buffer.concat([
    Uint8Array.of(0, 0),
    u32(epoch ? STATELESS_GRANITE_BLOCK : STATELESS_BLOCK),
    parentID,
    i64(timestamp),
    u64(pChainHeight),
    u32(0),
    u32(inner.length),
    inner,
    ...(epoch ? [u64(epoch.pChainHeight), u64(epoch.number), i64(epoch.startTime)] : []),
  ]);
  return { id: sha256(unsigned), bytes: Buffer.concat([unsigned, u32(0)]) };
}

/** The header of an outer block's bytes (what the Data API reports as proposer details), or undefined if they are not one. */
export function parseOuterHeader(bytes: Uint8Array): { parentID: Uint8Array; timestamp: bigint; pChainHeight: bigint; inner: Uint8Array } | undefined {
  if (bytes.length < 62 || bytes[0] !== 0 || bytes[1] !== 0) return undefined;
  const b = asBuffer(bytes);
  const type = b.readUInt32BE(2);
  if (type !== STATELESS_BLOCK && type !== STATELESS_GRANITE_BLOCK) return undefined;
  // parent, timestamp, P-Chain height, then the certificate (empty: unsigned) and the inner block.
  const certLength = b.readUInt32BE(54);
  const at = 58 + certLength;
  if (at + 4 > b.length) return undefined;
  const innerLength = b.readUInt32BE(at);
  if (at + 4 + innerLength > b.length) return undefined;
  return {
    parentID: bytes.subarray(6, 38),
    timestamp: b.readBigInt64BE(38),
    pChainHeight: b.readBigUInt64BE(46),
    inner: bytes.subarray(at + 4, at + 4 + innerLength),
  };
}

/** acp181.NewEpoch: the child's epoch from its parent's. */
export function nextEpoch(parent: { pChainHeight: bigint; epoch: Epoch | undefined; timestamp: bigint }): Epoch {
  if (!parent.epoch) return { pChainHeight: parent.pChainHeight, number: 1n, startTime: parent.timestamp };
  if (parent.timestamp < parent.epoch.startTime + GRANITE_EPOCH_DURATION) return parent.epoch;
  return { pChainHeight: parent.pChainHeight, number: parent.epoch.number + 1n, startTime: parent.timestamp };
}

const LAST_KEY = new TextEncoder().encode('last');

/** The last outer block of a chain, persisted with the chain's state (it cannot be re-derived). */
export class ProposerVM {
  private last: OuterBlock | undefined;

  /** `db` is the chain's proposervm database. */
  /**
   * `pChainHeight`: the P-Chain's last accepted height. A real node proposes the lowest height of the
   * P blocks accepted in the last 30 s (GetMinimumHeight); here every block carries the current one
   * (avalanchego's --proposervm-use-current-height), so an L1 created or converted on the P-Chain is
   * usable by warp at once instead of 30 s later.
   */
  constructor(
    private readonly db: Database,
    private readonly innerGenesisID: Uint8Array,
    private readonly pChainHeight: () => bigint = () => 0n,
    private readonly innerGenesisTimestamp = 0n,
  ) {}

  /** The last outer block, if the chain has forked. */
  lastBlock(): OuterBlock | undefined {
    return this.last;
  }

  /** selectChildPChainHeight: never below the parent's. */
  proposedHeight(): bigint {
    const current = this.pChainHeight();
    const parent = this.last?.pChainHeight ?? 0n;
    return current > parent ? current : parent;
  }

  /** getCurrentEpoch: acp181.NewEpoch from the preferred (last accepted) block to a child built now. */
  currentEpoch(): Epoch {
    const parent = this.last;
    if (!parent) return { pChainHeight: 0n, number: 1n, startTime: this.innerGenesisTimestamp };
    if (!parent.epoch) return { pChainHeight: parent.pChainHeight, number: 1n, startTime: parent.timestamp };
    return nextEpoch(parent);
  }

  /** Reads the last block (after a revert, `changes` may hold it). */
  async load(changes?: Changes): Promise<void> {
    const raw = await readAfter(this.db, LAST_KEY, changes);
    // Read again after a revert: a chain that had not forked at the snapshot has no last block.
    this.last = undefined;
    if (!raw) return;
    const b = Buffer.from(raw);
    const hasEpoch = b.length > 56;
    this.last = {
      id: b.subarray(0, 32),
      parentID: new Uint8Array(32),
      bytes: new Uint8Array(),
      timestamp: b.readBigInt64BE(32),
      pChainHeight: b.readBigUInt64BE(40),
      epoch: hasEpoch ? { pChainHeight: b.readBigUInt64BE(48), number: b.readBigUInt64BE(56), startTime: b.readBigInt64BE(64) } : undefined,
    };
  }

  /**
   * Wraps the next accepted inner block, adding its record to `batch`. Timestamps are whole seconds,
   * never before the parent, and at least --proposervm-min-block-delay (1 s) after a post-fork
   * parent; under instant mining of several blocks a second they therefore run ahead of the clock.
   */
  wrap(inner: Uint8Array, nowSeconds: bigint, batch: WriteBatch): OuterBlock {
    const parent = this.last;
    const pChainHeight = this.proposedHeight();
    const timestamp = parent ? (nowSeconds > parent.timestamp + 1n ? nowSeconds : parent.timestamp + 1n) : nowSeconds;
    const epoch = parent ? nextEpoch(parent) : undefined;
    const parentID = parent ? parent.id : this.innerGenesisID;
    const { id, bytes } = encodeOuterBlock(parentID, timestamp, pChainHeight, inner, epoch);
    const state = Buffer.concat([id, i64(timestamp), u64(pChainHeight), ...(epoch ? [u64(epoch.pChainHeight), u64(epoch.number), i64(epoch.startTime)] : [])]);
    batch.put(this.db, LAST_KEY, state);
    return { id, parentID, bytes, timestamp, pChainHeight, epoch };
  }

  /**
   * An option of the last (proposal) block: `u16 0 ‖ u32 1 ‖ proposal ID ‖ inner`, its ID the sha256
   * of all its bytes (vms/proposervm/block/option.go). It has no timestamp or P-Chain height of its
   * own: the chain goes on from the proposal's.
   */
  wrapOption(inner: Uint8Array, batch: WriteBatch): OuterBlock {
    const parent = this.last;
    if (!parent) throw new Error('an option needs a proposal block before it');
    const bytes = new Uint8Array(Buffer.concat([Uint8Array.of(0, 0), u32(1), parent.id, u32(inner.length), inner]));
    const id = sha256(bytes);
    const { timestamp, pChainHeight, epoch } = parent;
    const state = Buffer.concat([id, i64(timestamp), u64(pChainHeight), ...(epoch ? [u64(epoch.pChainHeight), u64(epoch.number), i64(epoch.startTime)] : [])]);
    batch.put(this.db, LAST_KEY, state);
    return { id, parentID: parent.id, bytes, timestamp, pChainHeight, epoch };
  }

  /** Called once the batch holding `wrap`'s record is committed. */
  accepted(block: OuterBlock): void {
    this.last = block;
  }
}
