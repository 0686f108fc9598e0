// The C-Chain's atomic side (coreth's atomic/vm VM and AtomicBackend): issuing a tx (parse, the
// mempool's checks and verification at the tip), putting the mempool's best txs into each block
// after its EVM txs (postBatchOnFinalizeAndAssemble: 40 KiB of txs at most, within the capacity
// the EVM txs left, no two spending the same input), and the block's writes: exports into the
// destination's shared memory, imports out of it, the accepted txs in the chain's store, all in the
// block's one batch.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { type Clock, unixMillis } from '../../../chains/clock.js';
import type { SharedMemory } from '../../../chains/sharedmemory.js';
import type { Database, WriteBatch } from '../../../storage/db.js';
import type { EvmChain } from '../chain.js';
import type { BlockExtension, ExtensionBlock, ExtensionContent } from '../chaintypes.js';
import type { StoredBlock } from '../store.js';
import { type AtomicTx, exportedUTXOs, inputUTXOs, marshalBatch, marshalUTXO, parseAtomicTx, utxoInputID } from './codec.js';
import { AtomicError, atomicErrors } from './errors.js';
import { checkBurned, effectiveGasPrice, gasUsed, MAX_MEMPOOL_GAS } from './fees.js';
import { AlreadyKnownError, AtomicMempool } from './mempool.js';
import { AtomicRepository } from './repository.js';
import { type AtomicParams, transferState, verifySemantics } from './verify.js';
import { toHex } from '../../../encoding/bytes.js';

/** targetAtomicTxsSize: the most tx bytes a block carries, and the most one tx may have in the mempool. */
export const TARGET_ATOMIC_TXS_SIZE = 40 * 1024;

export type AtomicStatus = 'Accepted' | 'Processing' | 'Dropped' | 'Unknown';

export class AtomicBackend implements BlockExtension {
  readonly mempool = new AtomicMempool();
  readonly repository: AtomicRepository;

  constructor(
    private readonly chain: EvmChain,
    private readonly shared: SharedMemory,
    db: Database,
    readonly params: AtomicParams,
    private readonly clock: Clock,
  ) {
    this.repository = new AtomicRepository(db);
  }

  /** Reads an imported UTXO from this chain's inbound shared memory. */
  private readonly read = (source: Uint8Array, utxoID: Uint8Array) => this.shared.get(this.params.chainID, source, utxoID);

  /**
   * avax.issueTx after decoding: the tx's ID once it is in the mempool (already there counts), and
   * once the build round it started has run, so a status read right after sees its block.
   */
  async issue(bytes: Uint8Array): Promise<Uint8Array> {
    const tx = parseAtomicTx(bytes);
    try {
      this.mempool.checkKnown(tx);
      await this.verifyAtTip(tx);
      this.mempool.add(tx, effectiveGasPrice(tx, this.params.avaxAssetID));
    } catch (err) {
      if (err instanceof AlreadyKnownError) return tx.id;
      throw err;
    }
    await this.chain.extensionPending();
    return tx.id;
  }

  /** verifyTxAtTip: the mempool's limits, then verification on the head's state at the next block's base fee. */
  private async verifyAtTip(tx: AtomicTx): Promise<void> {
    if (tx.bytes.length > TARGET_ATOMIC_TXS_SIZE) throw new AtomicError(atomicErrors.txTooLarge(tx.bytes.length, TARGET_ATOMIC_TXS_SIZE));
    const gas = gasUsed(tx);
    if (gas > MAX_MEMPOOL_GAS) throw new AtomicError(atomicErrors.txGasTooHigh(gas, MAX_MEMPOOL_GAS));
    const head = this.chain.head;
    const baseFee = this.chain.flavor.nextFees(head.header, BigInt(unixMillis(this.clock)), this.chain.headRules).baseFee;
    await verifySemantics(tx, this.params, baseFee, this.read);
    await this.chain.withState(this.chain.stateRootOf(head), (vm) => transferState(tx, vm.stateManager as MerkleStateManager));
  }

  /** getAtomicTx's lookup: accepted (with its height), in the mempool, or unknown. */
  async lookup(id: Uint8Array): Promise<{ tx: AtomicTx; status: AtomicStatus; height?: bigint } | undefined> {
    const accepted = await this.repository.get(id);
    if (accepted) return { tx: accepted.tx, status: 'Accepted', height: accepted.height };
    const pooled = this.mempool.get(id);
    return pooled && { tx: pooled.tx, status: pooled.dropped ? 'Dropped' : 'Processing' };
  }

  hasPending(): boolean {
    return this.mempool.hasPending();
  }

  async assemble(block: ExtensionBlock, retry: (gas?: bigint) => void): Promise<ExtensionContent | undefined> {
    const candidates = this.mempool.takePending();
    const included: AtomicTx[] = [];
    const spent = new Set<string>();
    let size = 0;
    let gas = 0n;
    try {
      for (const [i, tx] of candidates.entries()) {
        const later = () => {
          for (const t of candidates.slice(i)) this.mempool.cancel(t);
        };
        if (size + tx.bytes.length > TARGET_ATOMIC_TXS_SIZE) {
          later();
          retry(0n);
          break;
        }
        let txGas: bigint;
        try {
          txGas = checkBurned(tx, this.params.avaxAssetID, block.baseFee);
        } catch (err) {
          if (!(err instanceof AtomicError)) throw err;
          // It burns too little at this block's base fee: it waits for the fee to fall.
          this.mempool.cancel(tx);
          retry();
          continue;
        }
        if (gas + txGas > block.room) {
          later();
          retry(gas + txGas - block.room);
          break;
        }
        const inputs = inputUTXOs(tx.unsigned).map(toHex);
        if (inputs.some((k) => spent.has(k)) || !(await this.applies(tx, block))) {
          this.mempool.discard(tx);
          continue;
        }
        for (const k of inputs) spent.add(k);
        included.push(tx);
        gas += txGas;
        size += tx.bytes.length;
      }
    } catch (err) {
      for (const tx of candidates) this.mempool.cancel(tx);
      throw err;
    }
    if (included.length === 0) return undefined;
    return {
      extData: marshalBatch(included),
      gasUsed: gas,
      write: (batch, stored) => this.write(batch, stored, included),
      accepted: () => {
        for (const tx of included) this.mempool.accepted(tx);
      },
      abandoned: () => {
        for (const tx of included) this.mempool.cancel(tx);
      },
    };
  }

  /** verifyTx on the block's state: the semantic checks at its base fee, then the state transfer (undone on failure). */
  private async applies(tx: AtomicTx, block: ExtensionBlock): Promise<boolean> {
    block.sm.checkpoint();
    try {
      await verifySemantics(tx, this.params, block.baseFee, this.read);
      await transferState(tx, block.sm);
      await block.sm.commit();
      return true;
    } catch (err) {
      await block.sm.revert();
      if (err instanceof AtomicError) return false;
      throw err;
    }
  }

  /** The block's atomic requests (avalanchego's shared memory Apply) and its accepted txs, into its batch. */
  private async write(batch: WriteBatch, block: StoredBlock, txs: readonly AtomicTx[]): Promise<void> {
    const chainID = this.params.chainID;
    // Shared memory orders UTXOs by this sequence (newest first in its index): height, then position.
    let seq = block.header.number << 20n;
    for (const tx of txs) {
      const u = tx.unsigned;
      if (u.type === 0) {
        await this.shared.remove(batch, chainID, u.sourceChain, inputUTXOs(u));
        continue;
      }
      const elements = exportedUTXOs(tx).map((utxo) => ({
        utxoID: utxoInputID(utxo.utxoID),
        utxoBytes: marshalUTXO(utxo),
        traits: utxo.output.owners.addresses,
      }));
      this.shared.put(batch, u.destinationChain, chainID, elements, seq);
      seq += BigInt(elements.length);
    }
    this.repository.put(batch, block.header.number, txs);
  }
}
