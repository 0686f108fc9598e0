// Building and issuing X-Chain txs as a wallet does, for tests that talk to a node over HTTP: the
// local network's constants and keys, BaseTxs signed with sha256 of the unsigned bytes, and ewoq's
// change UTXO tracked from payment to payment.
import { expect } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { buildTx, compareBytes, outputSortKey, txOutputs } from '../../src/vms/avm/codec/index.js';
import { addressOfPrivateKey, signHash, txHash } from '../../src/vms/avm/verify/index.js';
import type {
  BaseTxFields,
  CredentialBody,
  Output,
  OutputOwners,
  SignedTx,
  TransferableInput,
  TransferableOutput,
  UnsignedTx,
  UTXO,
  UTXOID,
} from '../../src/vms/avm/types.js';
import { encodeCB58, idFromString } from '../../src/encoding/cb58.js';
import { encodeHex } from '../../src/encoding/hex.js';
import { formatAddress } from '../../src/vms/components/avax/address.js';
import { call, callError } from '../helpers.js';

// ---------------------------------------------------------------------------------------------
// Local network constants (avalanchego-node.md §7) and keys.

export const X_ID = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
export const C_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
export const AVAX_ID = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
export const EMPTY_ID = '11111111111111111111111111111111LpoYY';
export const X = idFromString(X_ID);
export const C = idFromString(C_ID);
export const AVAX = idFromString(AVAX_ID);

export const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
export const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
export const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const EWOQ_KEY = fromHex('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
export const EWOQ = fromHex('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c');
export const EWOQ_SHORT_ID = '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV';
export const EWOQ_ADDR = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
export const keyOf = (label: string): Uint8Array => sha256(utf8(`x-issue test key ${label}`));
export const OTHER_KEY = keyOf('other');
export const OTHER = addressOfPrivateKey(OTHER_KEY);
export const addr = (a: Uint8Array): string => formatAddress('X', 'local', a);

export const FEE = 1_000_000n;
export const GENESIS_AMOUNT = 300_000_000_000_000_000n;
export const N = secp256k1.Point.CURVE().n;
export const GENESIS_UTXO: UTXO = {
  utxoID: { txID: AVAX, outputIndex: 1 },
  assetID: AVAX,
  output: { type: 7, amount: GENESIS_AMOUNT, owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } },
};

// ---------------------------------------------------------------------------------------------
// Building txs as a wallet does.

/** UTXOID.InputID: sha256(u64 outputIndex ‖ txID), computed here independently of the codec. */
export function inputID(u: UTXOID): Uint8Array {
  const b = Buffer.alloc(40);
  b.writeBigUInt64BE(BigInt(u.outputIndex));
  Buffer.from(u.txID).copy(b, 8);
  return sha256(b);
}
export const utxoIDString = (u: UTXO): string => encodeCB58(inputID(u.utxoID));

export const owners = (addresses: Uint8Array[] = [EWOQ], threshold = 1, locktime = 0n): OutputOwners => ({
  locktime,
  threshold,
  addresses: [...addresses].sort(compareBytes),
});
export const out = (amount: bigint, o: OutputOwners = owners(), assetID: Uint8Array = AVAX): TransferableOutput => ({
  assetID,
  out: { type: 7, amount, owners: o },
});
export const amt = (o: Output): bigint => (o.type === 7 ? o.amount : 0n);
export const outKey = (o: TransferableOutput): Buffer => Buffer.concat([o.assetID, outputSortKey(o.out)]);
export const sortOuts = (outs: TransferableOutput[]): TransferableOutput[] => [...outs].sort((a, b) => Buffer.compare(outKey(a), outKey(b)));
export const inp = (u: UTXO, sigIndices = [0], amount = amt(u.output), assetID = u.assetID): TransferableInput => ({
  utxoID: u.utxoID,
  assetID,
  input: { type: 5, amount, sigIndices },
});
export const cmpUTXOID = (a: UTXOID, b: UTXOID): number => Buffer.compare(a.txID, b.txID) || a.outputIndex - b.outputIndex;
export const base = (over: Partial<BaseTxFields> = {}): BaseTxFields => ({
  networkID: 12345,
  blockchainID: X,
  outputs: [],
  inputs: [],
  memo: new Uint8Array(),
  ...over,
});

/** Signs every credential with sha256 of the unsigned bytes, one signature per key. */
export function sign(unsigned: UnsignedTx, signers: Uint8Array[][]): SignedTx {
  const hash = txHash(buildTx(unsigned, []).unsignedBytes);
  return buildTx(
    unsigned,
    signers.map((keys): CredentialBody => ({ type: 9, signatures: keys.map((k) => signHash(hash, k)) })),
  );
}

export interface Spend {
  utxo: UTXO;
  keys: Uint8Array[];
  sigIndices?: number[];
}

/** A BaseTx: inputs sorted by UTXO ID, outputs by asset and codec bytes, one credential per input. */
export function baseTx(spends: Spend[], outputs: TransferableOutput[], over: Partial<BaseTxFields> = {}): SignedTx {
  const sorted = [...spends].sort((a, b) => cmpUTXOID(a.utxo.utxoID, b.utxo.utxoID));
  const indices = (s: Spend) =>
    s.sigIndices ??
    s.keys.map((k, i) => {
      const j = s.utxo.output.owners.addresses.findIndex((a) => eq(a, addressOfPrivateKey(k)));
      return j >= 0 ? j : i;
    });
  const unsigned: UnsignedTx = { type: 0, base: base({ inputs: sorted.map((s) => inp(s.utxo, indices(s))), outputs: sortOuts(outputs), ...over }) };
  return sign(
    unsigned,
    sorted.map((s) => s.keys),
  );
}

export const utxosOf = (tx: SignedTx): UTXO[] => txOutputs(tx).utxos;

/** Tracks ewoq's big change UTXO on one node: every payment spends it and returns the change. */
export class Ewoq {
  coin: UTXO = GENESIS_UTXO;
  constructor(readonly url: string) {}

  build(outs: TransferableOutput[], fee = FEE, over: Partial<BaseTxFields> = {}): { tx: SignedTx; change: UTXO } {
    const paid = outs.filter((o) => eq(o.assetID, AVAX)).reduce((s, o) => s + amt(o.out), 0n);
    const changeAmount = amt(this.coin.output) - paid - fee;
    const tx = baseTx([{ utxo: this.coin, keys: [EWOQ_KEY] }], [...outs, out(changeAmount)], over);
    const change = utxosOf(tx).find(
      (u) =>
        u.output.type === 7 &&
        u.output.amount === changeAmount &&
        u.output.owners.addresses.length === 1 &&
        eq(u.output.owners.addresses[0]!, EWOQ) &&
        u.output.owners.locktime === 0n &&
        eq(u.assetID, AVAX),
    )!;
    return { tx, change };
  }

  /** Issues a payment and, once it is admitted, moves to its change. */
  async pay(outs: TransferableOutput[], over: Partial<BaseTxFields> = {}): Promise<{ tx: SignedTx; utxos: UTXO[] }> {
    const { tx, change } = this.build(outs, FEE, over);
    await issue(this.url, tx);
    this.coin = change;
    return { tx, utxos: utxosOf(tx) };
  }
}

export const txHex = (bytes: Uint8Array): string => encodeHex(bytes, 'hex');

export async function issue(url: string, tx: SignedTx): Promise<string> {
  const { txID } = await call(url, 'avm.issueTx', { tx: txHex(tx.bytes) });
  expect(txID).toBe(encodeCB58(tx.id));
  return txID;
}

export async function issueError(url: string, tx: SignedTx | Uint8Array): Promise<string> {
  const bytes = tx instanceof Uint8Array ? tx : tx.bytes;
  return (await callError(url, 'avm.issueTx', { tx: txHex(bytes) })).message;
}

export const height = async (url: string): Promise<bigint> => BigInt((await call(url, 'avm.getHeight')).height);
export const status = async (url: string, id: string): Promise<string> => (await call(url, 'avm.getTxStatus', { txID: id })).status;

/** Polls until `ok` holds or the time is up, returning the last value for the assertion. */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await sleep(20);
  }
}
