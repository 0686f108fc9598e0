// Property test of X-Chain accounting: seeded random sequences of accepted txs (BaseTx transfers
// of AVAX and new assets with several outputs and change, CreateAssetTx, ExportTx to P and C) over
// several keys, all built and signed by @avalabs/avalanchejs and sent over HTTP. After each
// sequence every UTXO of every key is walked with paginated avm.getUTXOs and checked against a
// model: the exact UTXO set, no duplicates, per-asset supply = minted − fees − exported, balances.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/rpc/mulberry32.js';
import { call, startTestNode, type TestNode } from './helpers.js';
import { ajs, type Owners, type Utxo, type TransferableOutput, type UnsignedTx, type AjsContext, type AVMApi } from './support/avalanchejs.js';

const { avm, utils } = ajs;

const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const FEE = 1_000_000n;
const AVAX_MINTED = 310_000_000_000_000_000n;
/** The other genesis UTXO, whose key no test holds: it never moves. */
const UR873 = 'X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu';
const UR873_AMOUNT = 10_000_000_000_000_000n;
const SEQUENCES = 8;
const MAX_TXS = 12;

function sha256(b: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(b).digest());
}

class Rand {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  /** Uniform-ish in [1, max]; half of the draws are small (≤ 1000) to exercise tiny amounts. */
  amount(max: bigint): bigint {
    if (max <= 0n) return 0n;
    const cap = this.chance(0.5) && max > 1000n ? 1000n : max;
    const wide = (BigInt(this.int(2 ** 30)) << 30n) | BigInt(this.int(2 ** 30));
    return (wide % cap) + 1n;
  }
}

interface Key {
  name: string;
  key: Uint8Array;
  addr: Uint8Array;
  address: string;
}
function keyOf(name: string, key: Uint8Array): Key {
  const addr = ajs.secp256k1.publicKeyBytesToAddress(ajs.secp256k1.getPublicKey(key));
  return { name, key, addr, address: utils.format('X', 'local', addr) };
}
const EWOQ = keyOf('ewoq', utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'));
const KEYS: Key[] = [EWOQ, ...Array.from({ length: 6 }, (_, i) => keyOf(`k${i}`, sha256(new TextEncoder().encode(`x-property key ${i}`))))];

// ---- the model ----------------------------------------------------------------------------------
interface ModelUtxo {
  owner: string;
  asset: string;
  type: 'secp256k1fx.TransferOutput' | 'secp256k1fx.MintOutput';
  amount: bigint;
}
const model = new Map<string, ModelUtxo>([
  [`${AVAX}:1`, { owner: EWOQ.address, asset: AVAX, type: 'secp256k1fx.TransferOutput', amount: 300_000_000_000_000_000n }],
]);
const minted = new Map<string, bigint>([[AVAX, AVAX_MINTED]]);
const exported = new Map<string, bigint>();
const assets = new Map<string, { name: string; symbol: string; denomination: number }>();
let feesBurned = 0n;
let txCount = 0;
/** What the random sequences exercised; the last test requires each kind at least once. */
const covered = {
  transfer: 0,
  twoSigners: 0,
  multiOutput: 0,
  assetTransfer: 0,
  withChange: 0,
  withoutChange: 0,
  createAsset: 0,
  mintOutput: 0,
  exportToP: 0,
  exportToC: 0,
  exportAsset: 0,
  pages: 0,
};
const countChange = (unsigned: UnsignedTx, requested: number) => {
  if (unsigned.getTx().baseTx.outputs.length > requested) covered.withChange++;
  else covered.withoutChange++;
};

const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
function spendable(owners: readonly Key[], asset: string): bigint {
  let sum = 0n;
  const set = new Set(owners.map((k) => k.address));
  for (const u of model.values()) if (u.type === 'secp256k1fx.TransferOutput' && u.asset === asset && set.has(u.owner)) sum += u.amount;
  return sum;
}
function heldAssets(owners: readonly Key[]): string[] {
  return [...minted.keys()].filter((a) => a !== AVAX && spendable(owners, a) > 0n);
}
function ownerOf(owners: Owners): string {
  expect(owners.addrs).toHaveLength(1);
  expect(owners.threshold.value()).toBe(1);
  expect(owners.locktime.value()).toBe(0n);
  return utils.format('X', 'local', owners.addrs[0]!.toBytes());
}

let node: TestNode;
let xUrl: string;
let ctx: AjsContext;
let api: AVMApi;
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  xUrl = `${node.uri}/ext/bc/X`;
  ctx = await ajs.Context.getContextFromURI(node.uri);
  api = new avm.AVMApi(node.uri);
  expect(ctx.baseTxFee).toBe(FEE);
  expect(ctx.createAssetTxFee).toBe(FEE);
});
afterAll(() => node.stop());

async function utxosOf(keys: readonly Key[]): Promise<Utxo[]> {
  return (await api.getUTXOs({ addresses: keys.map((k) => k.address) })).utxos;
}

/**
 * Signs, issues, waits for acceptance, then applies the tx to the model: base inputs consumed,
 * base outputs created at their index, initial-state outputs after them (asset = the tx ID),
 * exported outputs leave the chain, and the fee is burned.
 */
async function issue(unsignedTx: UnsignedTx, signers: readonly Key[], initial: Array<{ owner: Key; amount?: bigint }> = []): Promise<string> {
  await ajs.addTxSignatures({ unsignedTx, privateKeys: signers.map((k) => k.key) });
  expect(unsignedTx.hasAllSignatures()).toBe(true);
  const signed = unsignedTx.getSignedTx();
  const { txID } = await api.issueSignedTx(signed);
  expect(txID).toBe(utils.base58check.encode(sha256(signed.toBytes())));
  expect(await api.getTxStatus({ txID })).toEqual({ status: 'Accepted' });

  const tx = unsignedTx.getTx();
  for (const input of tx.baseTx.inputs) {
    const id = `${input.utxoID.txID}:${input.utxoID.outputIdx.value()}`;
    const spent = model.get(id);
    expect(spent, `input ${id} of ${txID} is not in the model`).toBeDefined();
    expect([spent!.asset, spent!.amount]).toEqual([input.assetId.toString(), input.amount()]);
    model.delete(id);
  }
  tx.baseTx.outputs.forEach((out, i) => {
    model.set(`${txID}:${i}`, {
      owner: ownerOf(out.output.outputOwners),
      asset: out.assetId.toString(),
      type: 'secp256k1fx.TransferOutput',
      amount: out.output.amount(),
    });
  });
  initial.forEach((o, j) => {
    const type = o.amount === undefined ? 'secp256k1fx.MintOutput' : 'secp256k1fx.TransferOutput';
    model.set(`${txID}:${tx.baseTx.outputs.length + j}`, { owner: o.owner.address, asset: txID, type, amount: o.amount ?? 0n });
    if (o.amount !== undefined) add(minted, txID, o.amount);
  });
  for (const out of tx.outs ?? []) add(exported, out.assetId.toString(), out.output.amount());
  feesBurned += FEE;
  txCount++;
  return txID;
}

/** Outputs for a transfer or an export: 1–3 of AVAX and/or held assets, to random keys. */
function randomOutputs(rand: Rand, senders: readonly Key[]): TransferableOutput[] | undefined {
  const left = new Map<string, bigint>([[AVAX, spendable(senders, AVAX) - FEE]]);
  for (const a of heldAssets(senders)) left.set(a, spendable(senders, a));
  const outputs: TransferableOutput[] = [];
  const n = 1 + rand.int(3);
  for (let i = 0; i < n; i++) {
    const choices = [...left.entries()].filter(([, v]) => v > 0n).map(([a]) => a);
    if (choices.length === 0) break;
    const asset = rand.chance(0.5) && choices.includes(AVAX) ? AVAX : rand.pick(choices);
    const avail = left.get(asset)!;
    // Sometimes everything that is left of the asset (no change), else a random share.
    const amount = rand.chance(0.1) ? avail : rand.amount(avail > 1n ? avail / 2n : avail);
    left.set(asset, avail - amount);
    outputs.push(ajs.TransferableOutput.fromNative(asset, amount, [rand.pick(KEYS).addr]));
  }
  return outputs.length > 0 ? outputs : undefined;
}

/** Senders: one key, sometimes two (signed by both, change to the first), with AVAX for the fee. */
function randomSenders(rand: Rand): Key[] {
  const funded = KEYS.filter((k) => spendable([k], AVAX) > FEE + 1000n);
  const first = rand.pick(funded);
  const others = KEYS.filter((k) => k !== first);
  return rand.chance(0.25) ? [first, rand.pick(others)] : [first];
}

async function transfer(rand: Rand): Promise<void> {
  const senders = randomSenders(rand);
  const outputs = randomOutputs(rand, senders);
  if (!outputs) return;
  const unsigned = avm.newBaseTx(
    ctx,
    senders.map((k) => k.addr),
    await utxosOf(senders),
    outputs,
    { changeAddresses: [senders[0]!.addr] },
  );
  await issue(unsigned, senders);
  covered.transfer++;
  if (senders.length > 1) covered.twoSigners++;
  if (outputs.length > 1) covered.multiOutput++;
  if (outputs.some((o) => o.assetId.toString() !== AVAX)) covered.assetTransfer++;
  countChange(unsigned, outputs.length);
}

async function exportTx(rand: Rand): Promise<void> {
  const senders = randomSenders(rand);
  const outputs = randomOutputs(rand, senders);
  if (!outputs) return;
  const chain = rand.chance(0.5) ? ctx.pBlockchainID : ctx.cBlockchainID;
  const unsigned = avm.newExportTx(
    ctx,
    chain,
    senders.map((k) => k.addr),
    await utxosOf(senders),
    outputs,
    { changeAddresses: [senders[0]!.addr] },
  );
  expect(unsigned.getTx().destination?.toString()).toBe(chain);
  await issue(unsigned, senders);
  if (chain === ctx.pBlockchainID) covered.exportToP++;
  else covered.exportToC++;
  if (outputs.some((o) => o.assetId.toString() !== AVAX)) covered.exportAsset++;
  countChange(unsigned, 0);
}

/**
 * CreateAssetTx: avalanchejs has no X builder for it, so the fee spend comes from avm.newBaseTx with
 * no outputs, wrapped in avmSerial.CreateAssetTx (given the Transaction members UnsignedTx needs).
 */
async function createAsset(rand: Rand, seq: number, i: number): Promise<void> {
  const creator = rand.pick(KEYS.filter((k) => spendable([k], AVAX) > FEE));
  const feeTx = avm.newBaseTx(ctx, [creator.addr], await utxosOf([creator]), []);
  const base = feeTx.getTx().baseTx;
  const initial: Array<{ owner: Key; amount?: bigint }> = [];
  for (let n = 1 + rand.int(3); n > 0; n--) initial.push({ owner: rand.pick(KEYS), amount: 1n + BigInt(rand.int(2 ** 30)) * BigInt(1 + rand.int(1_000_000)) });
  if (rand.chance(0.3)) initial.push({ owner: rand.pick(KEYS) });
  const codec = ajs.avmSerial.getAVMManager().getDefaultCodec();
  const outputs = initial
    .map((o) => {
      const owners = ajs.OutputOwners.fromNative([o.owner.addr]);
      return { o, out: o.amount === undefined ? new ajs.MintOutput(owners) : new ajs.TransferOutput(new ajs.BigIntPr(o.amount), owners) };
    })
    .sort((a, b) => Buffer.compare(codec.PackPrefix(a.out), codec.PackPrefix(b.out)));
  const name = `Asset ${seq} ${i}`;
  const symbol = Array.from({ length: 1 + rand.int(4) }, () => String.fromCharCode(65 + rand.int(26))).join('');
  const denomination = rand.int(33);
  const tx = new ajs.avmSerial.CreateAssetTx(base, new ajs.Stringpr(name), new ajs.Stringpr(symbol), new ajs.Byte(Uint8Array.of(denomination)), [
    new ajs.avmSerial.InitialState(
      new ajs.Int(0),
      outputs.map((x) => x.out),
    ),
  ]);
  Object.assign(tx, {
    vm: 'AVM',
    getVM: () => 'AVM',
    getBlockchainId: () => base.BlockchainId.toString(),
    getSigIndices: () => base.inputs.map((input) => input.sigIndicies()),
  });
  const assetID = await issue(
    new ajs.UnsignedTx(tx, feeTx.getInputUtxos(), feeTx.addressMaps),
    [creator],
    outputs.map((x) => x.o),
  );
  assets.set(assetID, { name, symbol, denomination });
  covered.createAsset++;
  if (initial.some((o) => o.amount === undefined)) covered.mintOutput++;
  if (!minted.has(assetID)) minted.set(assetID, 0n); // an asset with only a mint output
}

/** Every UTXO of every key, through paginated avm.getUTXOs (random page size), until exhausted. */
async function walk(rand: Rand): Promise<Map<string, ModelUtxo>> {
  const limit = 1 + rand.int(8);
  const addresses = KEYS.map((k) => k.address);
  const seen = new Map<string, ModelUtxo>();
  let startIndex: { address: string; utxo: string } | undefined;
  for (let page = 0; ; page++) {
    expect(page, 'pagination does not end').toBeLessThan(10_000);
    const res = await api.getUTXOs(startIndex ? { addresses, limit, startIndex } : { addresses, limit });
    covered.pages++;
    expect(Number(res.numFetched)).toBe(res.utxos.length);
    for (const u of res.utxos) {
      const id = `${u.utxoId.txID}:${u.utxoId.outputIdx.value()}`;
      expect(seen.has(id), `UTXO ${id} returned twice (page size ${limit})`).toBe(false);
      const type = u.output._type as ModelUtxo['type'];
      seen.set(id, {
        owner: ownerOf(u.getOutputOwners()),
        asset: u.assetId.toString(),
        type,
        amount: type === 'secp256k1fx.TransferOutput' ? u.output.amount!() : 0n,
      });
    }
    if (res.utxos.length < limit) break;
    startIndex = res.endIndex;
  }
  return seen;
}

async function checkInvariants(rand: Rand): Promise<void> {
  const walked = await walk(rand);
  const sortById = (m: Map<string, ModelUtxo>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  expect(sortById(walked)).toEqual(sortById(model));

  // Per asset: what the keys hold (+ the untouched genesis UTXO for AVAX) = minted − fees − exported.
  const held = new Map<string, bigint>();
  for (const u of walked.values()) if (u.type === 'secp256k1fx.TransferOutput') add(held, u.asset, u.amount);
  for (const asset of minted.keys()) {
    const supply = minted.get(asset)! - (asset === AVAX ? feesBurned : 0n) - (exported.get(asset) ?? 0n);
    const onChain = (held.get(asset) ?? 0n) + (asset === AVAX ? UR873_AMOUNT : 0n);
    expect(onChain, `supply of ${asset}`).toBe(supply);
  }
  expect(await call(xUrl, 'avm.getBalance', { address: UR873, assetID: 'AVAX' })).toEqual({
    balance: String(UR873_AMOUNT),
    utxoIDs: [{ txID: AVAX, outputIndex: 0 }],
  });

  // avm.getAllBalances of every key agrees with the model (order is unspecified: sorted here).
  for (const key of KEYS) {
    const expected = [...minted.keys()]
      .map((a) => ({ asset: a === AVAX ? 'AVAX' : a, balance: spendable([key], a) }))
      .filter((b) => b.balance > 0n)
      .map((b) => ({ asset: b.asset, balance: String(b.balance) }))
      .sort((a, b) => a.asset.localeCompare(b.asset));
    const { balances } = await call(xUrl, 'avm.getAllBalances', { address: key.address });
    expect(
      [...balances].sort((a: any, b: any) => a.asset.localeCompare(b.asset)),
      `balances of ${key.name}`,
    ).toEqual(expected);
  }

  for (const [assetID, d] of assets) {
    expect(await api.getAssetDescription(assetID)).toEqual({ assetID, name: d.name, symbol: d.symbol, denomination: String(d.denomination) });
  }
}

describe('X-Chain accounting under random tx sequences', () => {
  it('funding: ewoq pays every key in one multi-output BaseTx', async () => {
    const rand = new Rand(mulberry32(0x5eed));
    expect(new Set(KEYS.map((k) => k.address)).size).toBe(KEYS.length);
    const outputs = KEYS.slice(1).map((k) => ajs.TransferableOutput.fromNative(AVAX, 1_000_000_000_000n + rand.amount(10n ** 15n), [k.addr]));
    await issue(avm.newBaseTx(ctx, [EWOQ.addr], await utxosOf([EWOQ]), outputs), [EWOQ]);
    await checkInvariants(rand);
  });

  for (let seq = 1; seq <= SEQUENCES; seq++) {
    const seed = Math.imul(seq, 0x9e3779b9) >>> 0;
    it(`sequence ${seq} (seed ${seed})`, async () => {
      const rand = new Rand(mulberry32(seed));
      const count = 4 + rand.int(MAX_TXS - 3); // 4..12 txs
      const before = txCount;
      for (let i = 0; i < count; i++) {
        const r = rand.next();
        if (r < 0.5) await transfer(rand);
        else if (r < 0.75) await createAsset(rand, seq, i);
        else await exportTx(rand);
      }
      expect(txCount - before).toBeGreaterThan(0);
      await checkInvariants(rand);
    });
  }

  it('the sequences covered every kind of tx', () => {
    for (const [kind, n] of Object.entries(covered)) expect(n, kind).toBeGreaterThan(0);
    expect(txCount).toBeGreaterThanOrEqual(SEQUENCES * 4);
  });
});
