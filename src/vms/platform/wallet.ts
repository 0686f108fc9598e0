// The node's own P-Chain wallet: how it issues the txs that create the L1s given at start-up
// (CreateSubnetTx, CreateChainTx, ConvertSubnetToL1Tx), paid from one key's unlocked UTXOs with the
// fee the P-Chain will charge, signed as avalanchego's wallet signs (RFC 6979, so the same inputs
// give the same tx IDs).
import { sha256 } from '../../crypto/sha256.js';
import { addressOfPrivateKey, signHash } from '../components/secp256k1fx/secp.js';
import { buildTx } from './codec/index.js';
import { gasPrice, toGas, txComplexity } from './fees.js';
import type { BaseTxFields, ConvertValidator, FxValue, Owners, SignedTx, UnsignedTx } from './types.js';
import type { PChain } from './vm.js';

export class WalletError extends Error {}

const compare = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);

export class PWallet {
  private addr: Uint8Array | undefined;

  constructor(
    private readonly vm: PChain,
    private readonly key: Uint8Array,
  ) {}

  /** Derived on first use: the first secp256k1 key derivation builds the curve's tables (tens of ms). */
  get address(): Uint8Array {
    this.addr ??= addressOfPrivateKey(this.key);
    return this.addr;
  }

  private get owner(): Owners {
    return { locktime: 0n, threshold: 1, addresses: [this.address] };
  }

  /** A tx paying its fee (and `extra`, balances it funds) from the key's largest spendable UTXO. */
  private async pay(build: (base: BaseTxFields) => UnsignedTx, withAuth: boolean, extra = 0n): Promise<SignedTx> {
    const now = this.vm.nextBlockTime();
    let best: { id: Uint8Array; txID: Uint8Array; index: number; amount: bigint; assetID: Uint8Array } | undefined;
    for (const id of await this.vm.state.utxoIDs(this.address, undefined, 1024)) {
      const u = await this.vm.state.getUTXO(id);
      if (u?.output.type !== 7 || u.output.owners.threshold !== 1 || u.output.owners.locktime > now) continue;
      if (compare(u.assetID, this.vm.avaxAssetID) !== 0 || u.output.owners.addresses.length !== 1) continue;
      if (!best || u.output.amount > best.amount) best = { id, txID: u.utxoID.txID, index: u.utxoID.outputIndex, amount: u.output.amount, assetID: u.assetID };
    }
    if (!best) throw new WalletError('no spendable UTXO to pay the fee');
    const draft = this.vm.state.ledger.draft();
    this.vm.advanceTime(draft, now);
    const price = gasPrice({ capacity: draft.c.feeCapacity, excess: draft.c.feeExcess });
    const make = (change: bigint): UnsignedTx =>
      build({
        networkID: this.vm.opts.networkID,
        blockchainID: this.vm.opts.chainID,
        outputs: change > 0n ? [{ assetID: best!.assetID, out: { type: 7, amount: change, owners: this.owner } }] : [],
        inputs: [{ utxoID: { txID: best!.txID, outputIndex: best!.index }, assetID: best!.assetID, input: { type: 5, amount: best!.amount, sigIndices: [0] } }],
        memo: new Uint8Array(),
      });
    // The complexity counts outputs: price the tx with its change output, then drop it if nothing is left.
    const fee = toGas(txComplexity(make(1n))) * price;
    if (best.amount < fee + extra) throw new WalletError(`insufficient funds: ${best.amount} < ${fee + extra}`);
    const unsigned = make(best.amount - fee - extra);
    const probe = buildTx(unsigned, []);
    const sig = signHash(sha256(probe.unsignedBytes), this.key);
    const creds: FxValue[] = [{ type: 9, signatures: [sig] }];
    if (withAuth) creds.push({ type: 9, signatures: [sig] });
    return buildTx(unsigned, creds);
  }

  async createSubnet(): Promise<Uint8Array> {
    const tx = await this.pay((base) => ({ type: 16, base, owner: { type: 11, owners: this.owner } }), false);
    return this.vm.issueTx(tx.bytes);
  }

  /** The CreateChainTx, built (so its ID, the chain's, is known) but not yet issued. */
  async createChainTx(subnetID: Uint8Array, name: string, vmID: Uint8Array, genesis: Uint8Array): Promise<SignedTx> {
    return this.pay(
      (base) => ({ type: 15, base, subnetID, chainName: new Uint8Array(Buffer.from(name)), vmID, fxIDs: [], genesis, auth: { type: 10, sigIndices: [0] } }),
      true,
    );
  }

  async issue(tx: SignedTx): Promise<Uint8Array> {
    return this.vm.issueTx(tx.bytes);
  }

  /** ConvertSubnetToL1Tx; validators are sorted by node ID here, as the tx requires. */
  async convert(subnetID: Uint8Array, chainID: Uint8Array, address: Uint8Array, validators: ConvertValidator[]): Promise<Uint8Array> {
    const sorted = [...validators].sort((a, b) => compare(a.nodeID, b.nodeID));
    const balances = sorted.reduce((s, v) => s + v.balance, 0n);
    const tx = await this.pay(
      (base) => ({ type: 35, base, subnetID, chainID, address, validators: sorted, auth: { type: 10, sigIndices: [0] } }),
      true,
      balances,
    );
    return this.vm.issueTx(tx.bytes);
  }
}
