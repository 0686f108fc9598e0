// cb58 (base58 with a 4-byte sha256 checksum) and bech32 addresses, to name the txs and owners of
// the UTXOs and atomic txs the node returns as bytes: @scure/base's codecs and @noble/hashes'
// SHA-256 (bundled into the page; crypto.subtle exists only in secure contexts, and the node may be
// reached over plain http on a LAN address).
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { base58 as scureBase58, bech32, hex } from '@scure/base';

export const sha256 = (data: Uint8Array): Uint8Array => nobleSha256(data);

export const base58 = (bytes: Uint8Array): string => scureBase58.encode(bytes);

export function cb58(bytes: Uint8Array): string {
  const all = new Uint8Array(bytes.length + 4);
  all.set(bytes);
  all.set(sha256(bytes).subarray(28), bytes.length);
  return base58(all);
}

export function hexBytes(text: string): Uint8Array {
  const h = text.startsWith('0x') ? text.slice(2) : text;
  return new Uint8Array(h.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
}

/** The bytes of a cb58 ID as 0x hex (its 4 checksum bytes dropped), to match the bytes32 IDs of ICM events; '' if it is no base58. */
export function cb58ToHex(id: string): string {
  try {
    return `0x${hex.encode(scureBase58.decode(id).subarray(0, -4))}`;
  } catch {
    return '';
  }
}

export interface Utxo {
  txID: string;
  index: number;
  assetID: string;
  /** For a secp256k1 transfer output (type 7); undefined for other outputs. */
  amount?: bigint;
  locktime?: bigint;
}

/** A UTXO from getUTXOs' hex (codec version 0): its tx, index, asset and amount. */
export function parseUtxo(hex: string): Utxo | undefined {
  const b = hexBytes(hex);
  if (b.length < 2 + 32 + 4 + 32 + 4) return undefined;
  const v = new DataView(b.buffer);
  const txID = cb58(b.subarray(2, 34));
  const index = v.getUint32(34);
  const assetID = cb58(b.subarray(38, 70));
  const type = v.getUint32(70);
  if (type === 7 && b.length >= 90) return { txID, index, assetID, amount: v.getBigUint64(74), locktime: v.getBigUint64(82) };
  return { txID, index, assetID };
}

/** A 20-byte short ID as avalanchego formats it: `<chain>-<hrp>1…` (bech32). */
export const formatAddress = (chain: string, hrp: string, bytes: Uint8Array): string => `${chain}-${bech32.encode(hrp, bech32.toWords(bytes))}`;

export interface AtomicTx {
  type: 'ImportTx' | 'ExportTx';
  /** The other chain: the import's source, the export's destination. */
  otherChain: string;
  /** EVM side: the import's outputs (credited) or the export's inputs (debited), in nAVAX. */
  evm: Array<{ address: string; amount: bigint; assetID: string }>;
  /** UTXO side: the import's inputs (consumed) or the export's outputs (created). */
  utxos: Array<{ txID?: string; index?: number; owners?: Uint8Array[]; amount: bigint; assetID: string }>;
}

/** Reads coreth's codec (big-endian, version 0) from `b`, starting at `at`. */
class Reader {
  private readonly v: DataView;
  constructor(
    readonly b: Uint8Array,
    public at = 0,
  ) {
    this.v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  u32(): number {
    const x = this.v.getUint32(this.at);
    this.at += 4;
    return x;
  }
  u64(): bigint {
    const x = this.v.getBigUint64(this.at);
    this.at += 8;
    return x;
  }
  bytes(n: number): Uint8Array {
    if (this.at + n > this.b.length) throw new RangeError('short');
    const x = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return x;
  }
}

/** An unsigned atomic tx (its type ID first) and then its credentials, from `r`'s position. */
function readAtomicTx(r: Reader): AtomicTx {
  const evmAddress = () => `0x${[...r.bytes(20)].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
  const type = r.u32();
  if (type !== 0 && type !== 1) throw new RangeError(`atomic tx type ${type}`);
  r.u32();
  r.bytes(32);
  const otherChain = cb58(r.bytes(32));
  const evm: AtomicTx['evm'] = [];
  const utxos: AtomicTx['utxos'] = [];
  if (type === 0) {
    for (let n = r.u32(); n > 0; n--) {
      const txID = cb58(r.bytes(32));
      const index = r.u32();
      const assetID = cb58(r.bytes(32));
      r.u32();
      const amount = r.u64();
      r.bytes(4 * r.u32());
      utxos.push({ txID, index, assetID, amount });
    }
    for (let n = r.u32(); n > 0; n--) {
      const address = evmAddress();
      const amount = r.u64();
      evm.push({ address, amount, assetID: cb58(r.bytes(32)) });
    }
  } else {
    for (let n = r.u32(); n > 0; n--) {
      const address = evmAddress();
      const amount = r.u64();
      const assetID = cb58(r.bytes(32));
      r.u64();
      evm.push({ address, amount, assetID });
    }
    for (let n = r.u32(); n > 0; n--) {
      const assetID = cb58(r.bytes(32));
      r.u32();
      const amount = r.u64();
      r.u64();
      r.u32();
      const owners = Array.from({ length: r.u32() }, () => r.bytes(20));
      utxos.push({ assetID, amount, owners });
    }
  }
  // The credentials: secp256k1fx credentials of 65-byte signatures.
  for (let n = r.u32(); n > 0; n--) {
    r.u32();
    r.bytes(65 * r.u32());
  }
  return { type: type === 0 ? 'ImportTx' : 'ExportTx', otherChain, evm, utxos };
}

/** A coreth atomic tx (codec version 0) from avax.getAtomicTx's hex. */
export function parseAtomicTx(hex: string): AtomicTx | undefined {
  try {
    return readAtomicTx(new Reader(hexBytes(hex), 2));
  } catch {
    return undefined;
  }
}

/** The atomic txs of a C-Chain block (its blockExtraData: a codec-versioned list), each with its ID. */
export function parseAtomicBatch(hex: string | undefined): Array<AtomicTx & { id: string }> {
  if (!hex || hex === '0x') return [];
  const b = hexBytes(hex);
  const r = new Reader(b, 2);
  const out: Array<AtomicTx & { id: string }> = [];
  try {
    for (let n = r.u32(); n > 0; n--) {
      const start = r.at;
      const tx = readAtomicTx(r);
      // A tx's ID hashes its own signed bytes: the codec version, then the tx.
      const signed = new Uint8Array(2 + r.at - start);
      signed.set(b.subarray(start, r.at), 2);
      out.push({ ...tx, id: cb58(sha256(signed)) });
    }
  } catch {
    // A batch this page cannot read: what was read is shown.
  }
  return out;
}
