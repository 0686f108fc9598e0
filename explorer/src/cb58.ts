// cb58 (base58 with a 4-byte sha256 checksum), to name the txs of the UTXOs getUTXOs returns as
// bytes. SHA-256 is written out here: crypto.subtle exists only in secure contexts, and the node may
// be reached over plain http on a LAN address.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(data: Uint8Array): Uint8Array {
  const bitLen = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, bitLen >>> 0);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15]!;
      const w2 = W[i - 2]!;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H as unknown as number[];
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e!, 6) ^ rotr(e!, 11) ^ rotr(e!, 25);
      const ch = (e! & f!) ^ (~e! & g!);
      const t1 = (h! + S1 + ch + K[i]! + W[i]!) >>> 0;
      const S0 = rotr(a!, 2) ^ rotr(a!, 13) ^ rotr(a!, 22);
      const maj = (a! & b!) ^ (a! & c!) ^ (b! & c!);
      const t2 = (S0 + maj) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d! + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    H[0] = (H[0]! + a!) >>> 0;
    H[1] = (H[1]! + b!) >>> 0;
    H[2] = (H[2]! + c!) >>> 0;
    H[3] = (H[3]! + d!) >>> 0;
    H[4] = (H[4]! + e!) >>> 0;
    H[5] = (H[5]! + f!) >>> 0;
    H[6] = (H[6]! + g!) >>> 0;
    H[7] = (H[7]! + h!) >>> 0;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, H[i]!);
  return out;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  while (n > 0n) {
    s = B58[Number(n % 58n)]! + s;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    s = `1${s}`;
  }
  return s;
}

export function cb58(bytes: Uint8Array): string {
  const all = new Uint8Array(bytes.length + 4);
  all.set(bytes);
  all.set(sha256(bytes).subarray(28), bytes.length);
  return base58(all);
}

export function hexBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  return new Uint8Array(h.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
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

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function polymod(values: number[]): number {
  const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= G[i]!;
  }
  return chk;
}

/** A 20-byte short ID as avalanchego formats it: `<chain>-<hrp>1…` (bech32). */
export function formatAddress(chain: string, hrp: string, bytes: Uint8Array): string {
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  const expand = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = polymod([...expand, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${chain}-${hrp}1${[...words, ...checksum].map((w) => BECH32[w]).join('')}`;
}

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
