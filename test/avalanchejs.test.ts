// Interop with the real client: @avalabs/avalanchejs 5.2.0 builds, signs and issues X-Chain txs
// against the emulator over HTTP, and reads them back with its own codec.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajs, type Utxo, type SignedTx, type UnsignedTx, type AjsContext, type AVMApi } from './support/avalanchejs.js';
import { call, rpc, startTestNode, type TestNode } from './helpers.js';

const { avm, utils } = ajs;

// ---- constants -------------------------------------------------------------------------------------
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const P = '11111111111111111111111111111111LpoYY';
const C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const SECP_FX = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ';
const FEE = 1_000_000n;
const EWOQ = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ_ADDR = utils.bech32ToBytes(EWOQ);
// A second key, derived deterministically; it starts with nothing.
const BOB_KEY = sha256(new TextEncoder().encode('avalanchejs interop: bob'));
const BOB_ADDR = ajs.secp256k1.publicKeyBytesToAddress(ajs.secp256k1.getPublicKey(BOB_KEY));
const BOB = utils.format('X', 'local', BOB_ADDR);

function sha256(b: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(b).digest());
}
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

let node: TestNode;
let xUrl: string;
let ctx: AjsContext;
let api: AVMApi;
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  xUrl = `${node.uri}/ext/bc/X`;
  ctx = await ajs.Context.getContextFromURI(node.uri);
  api = new avm.AVMApi(node.uri);
});
afterAll(() => node.stop());

/** avm.getBalance over HTTP (the X form: one address, one asset). */
async function balance(address: string, assetID = 'AVAX'): Promise<bigint> {
  return BigInt((await call(xUrl, 'avm.getBalance', { address, assetID })).balance);
}

async function utxosOf(address: string): Promise<Utxo[]> {
  return (await api.getUTXOs({ addresses: [address] })).utxos;
}

/** Signs with the library, issues through AVMApi and checks that the node accepted exactly these bytes. */
async function signAndIssue(unsignedTx: UnsignedTx, keys: Uint8Array[]): Promise<{ txID: string; bytes: Uint8Array }> {
  await ajs.addTxSignatures({ unsignedTx, privateKeys: keys });
  expect(unsignedTx.hasAllSignatures()).toBe(true);
  const signed = unsignedTx.getSignedTx();
  const bytes = signed.toBytes();
  const { txID } = await api.issueSignedTx(signed);
  expect(txID).toBe(utils.base58check.encode(sha256(bytes)));
  return { txID, bytes };
}

/**
 * Reads a tx back every way a client can: getTx hex (bytes, checksum = last 4 bytes of sha256 =
 * last 4 bytes of the tx ID), AVMApi.getTx (parsed by the library), getTxJson and getTxStatus.
 */
async function readBack(txID: string, bytes: Uint8Array): Promise<{ json: any; parsed: SignedTx }> {
  const { tx: hex, encoding } = await call(xUrl, 'avm.getTx', { txID });
  expect(encoding).toBe('hex');
  const raw = Buffer.from((hex as string).slice(2), 'hex');
  const body = raw.subarray(0, raw.length - 4);
  const checksum = raw.subarray(raw.length - 4);
  expect(hexOf(body)).toBe(hexOf(bytes));
  const idBytes = utils.base58check.decode(txID);
  expect(hexOf(checksum)).toBe(hexOf(sha256(body).subarray(28)));
  expect(hexOf(checksum)).toBe(hexOf(idBytes.subarray(28)));
  expect(hexOf(sha256(body))).toBe(hexOf(idBytes));

  const parsed = await api.getTx({ txID });
  // The library's CreateAssetTx class has no `vm`, which SignedTx.toBytes needs to find its codec.
  parsed.unsignedTx.vm ??= 'AVM';
  expect(hexOf(parsed.toBytes())).toBe(hexOf(bytes));
  const json = await api.getTxJson({ txID });
  expect(json.encoding).toBe('json');
  expect(json.tx.id).toBe(txID);
  expect(await api.getTxStatus({ txID })).toEqual({ status: 'Accepted' });
  return { json: json.tx, parsed };
}

/** The JSON text avalanchego gives for a secp TransferableOutput with one owner. */
function outputJson(assetID: string, amount: bigint, address: string): string {
  return `{"assetID":"${assetID}","fxID":"${SECP_FX}","output":{"addresses":["${address}"],"amount":${amount},"locktime":0,"threshold":1}}`;
}

describe('Context.getContextFromURI', () => {
  it('reads the local network context from the node', async () => {
    expect(ctx.networkID).toBe(12345);
    expect(ctx.hrp).toBe('local');
    expect(ctx.avaxAssetID).toBe(AVAX);
    expect(ctx.xBlockchainID).toBe(X);
    expect(ctx.pBlockchainID).toBe(P);
    expect(ctx.cBlockchainID).toBe(C);
    expect(ctx.baseTxFee).toBe(1_000_000n);
    expect(ctx.createAssetTxFee).toBe(1_000_000n);
    // genesis/genesis_local.go DynamicFeeConfig
    expect(ctx.platformFeeConfig).toEqual({
      weights: { 0: 1, 1: 1000, 2: 1000, 3: 4 },
      maxCapacity: 1_000_000n,
      maxPerSecond: 100_000n,
      targetPerSecond: 50_000n,
      minPrice: 1n,
      excessConversionConstant: 2_164_043n,
    });
  });
});

describe('BaseTx built by avm.newBaseTx', () => {
  it('is accepted; getTx hex/json round-trip; balances move by exactly amount + fee', async () => {
    const amount = 12_345_678_901n;
    const utxos = await utxosOf(EWOQ);
    expect(utxos.map((u) => `${u.utxoId.txID}:${u.utxoId.outputIdx.value()}`)).toEqual([`${AVAX}:1`]);
    const [ewoqBefore, bobBefore] = [await balance(EWOQ), await balance(BOB)];
    expect(ewoqBefore).toBe(300_000_000_000_000_000n);

    const unsigned = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [ajs.TransferableOutput.fromNative(AVAX, amount, [BOB_ADDR])]);
    const { txID, bytes } = await signAndIssue(unsigned, [EWOQ_KEY]);
    const { parsed } = await readBack(txID, bytes);
    expect(parsed.unsignedTx._type).toBe(unsigned.getTx()._type);
    expect(parsed.credentials).toHaveLength(1);

    expect(await balance(EWOQ)).toBe(ewoqBefore - amount - FEE);
    expect(await balance(BOB)).toBe(bobBefore + amount);

    // The exact JSON text (amounts above 2^53 are exact digits). Outputs are sorted by codec bytes:
    // same asset and type, so by amount.
    const change = ewoqBefore - amount - FEE;
    const sig = utils.bufferToHex(utils.hexToBuffer(parsed.getAllSignatures()[0]!));
    const r = await rpc(xUrl, 'avm.getTx', { txID, encoding: 'json' });
    expect(r.text).toBe(
      `{"jsonrpc":"2.0","result":{"tx":{"unsignedTx":{"networkID":12345,"blockchainID":"${X}","outputs":[${outputJson(AVAX, amount, BOB)},${outputJson(AVAX, change, EWOQ)}],"inputs":[{"txID":"${AVAX}","outputIndex":1,"assetID":"${AVAX}","fxID":"${SECP_FX}","input":{"amount":300000000000000000,"signatureIndices":[0]}}],"memo":"0x"},"credentials":[{"fxID":"${SECP_FX}","credential":{"signatures":["${sig}"]}}],"id":"${txID}"},"encoding":"json"},"id":1}\n`,
    );

    // The new UTXOs: bob's output is index 0, ewoq's change index 1.
    expect((await utxosOf(BOB)).map((u) => `${u.utxoId.txID}:${u.utxoId.outputIdx.value()}`)).toEqual([`${txID}:0`]);
    expect((await utxosOf(EWOQ)).map((u) => `${u.utxoId.txID}:${u.utxoId.outputIdx.value()}`)).toEqual([`${txID}:1`]);
  });

  it('bob spends what he received back to ewoq, signed with his own key', async () => {
    const amount = 1_000_000_000n;
    const [ewoqBefore, bobBefore] = [await balance(EWOQ), await balance(BOB)];
    const unsigned = avm.newBaseTx(ctx, [BOB_ADDR], await utxosOf(BOB), [ajs.TransferableOutput.fromNative(AVAX, amount, [EWOQ_ADDR])]);
    const { txID, bytes } = await signAndIssue(unsigned, [BOB_KEY]);
    const { json } = await readBack(txID, bytes);
    expect(json.unsignedTx.inputs).toHaveLength(1);
    expect(json.unsignedTx.outputs.map((o: any) => [o.output.addresses, o.output.amount]).sort()).toEqual(
      [
        [[EWOQ], Number(amount)],
        [[BOB], Number(bobBefore - amount - FEE)],
      ].sort(),
    );
    expect(await balance(EWOQ)).toBe(ewoqBefore + amount);
    expect(await balance(BOB)).toBe(bobBefore - amount - FEE);
  });
});

describe('CreateAssetTx built from the library serialization classes', () => {
  // avalanchejs 5.2.0 has no X builder for CreateAssetTx, and its avmSerial.CreateAssetTx lacks the
  // Transaction members UnsignedTx needs (vm, getSigIndices, getBlockchainId). The fee inputs and
  // change come from avm.newBaseTx with no outputs (it burns baseTxFee, equal to createAssetTxFee
  // on the local network); the class instance gets the three members and is signed through
  // UnsignedTx + addTxSignatures like any other tx.
  function createAssetTx(feeTx: UnsignedTx, name: string, symbol: string, denomination: number, outputs: object[]): UnsignedTx {
    const base = feeTx.getTx().baseTx;
    const codec = ajs.avmSerial.getAVMManager().getDefaultCodec();
    const sorted = [...outputs].sort((a, b) => Buffer.compare(codec.PackPrefix(a), codec.PackPrefix(b)));
    const tx = new ajs.avmSerial.CreateAssetTx(base, new ajs.Stringpr(name), new ajs.Stringpr(symbol), new ajs.Byte(Uint8Array.of(denomination)), [
      new ajs.avmSerial.InitialState(new ajs.Int(0), sorted),
    ]);
    Object.assign(tx, {
      vm: 'AVM',
      getVM: () => 'AVM',
      getBlockchainId: () => base.BlockchainId.toString(),
      getSigIndices: () => base.inputs.map((input) => input.sigIndicies()),
    });
    return new ajs.UnsignedTx(tx, feeTx.getInputUtxos(), feeTx.addressMaps);
  }

  it('is accepted; the asset is described, its initial UTXOs reach their owners, AVAX moves by the fee only', async () => {
    expect(ctx.createAssetTxFee).toBe(ctx.baseTxFee);
    const [ewoqBefore, bobBefore] = [await balance(EWOQ), await balance(BOB)];
    const feeTx = avm.newBaseTx(ctx, [EWOQ_ADDR], await utxosOf(EWOQ), []);
    const owners = (addr: Uint8Array) => ajs.OutputOwners.fromNative([addr]);
    const unsigned = createAssetTx(feeTx, 'Interop Coin', 'ICN', 6, [
      new ajs.TransferOutput(new ajs.BigIntPr(1_000_000n), owners(EWOQ_ADDR)),
      new ajs.TransferOutput(new ajs.BigIntPr(2_500n), owners(BOB_ADDR)),
      new ajs.MintOutput(owners(EWOQ_ADDR)),
    ]);
    const { txID: assetID, bytes } = await signAndIssue(unsigned, [EWOQ_KEY]);
    const { json, parsed } = await readBack(assetID, bytes);
    expect(parsed.unsignedTx).toBeInstanceOf(ajs.avmSerial.CreateAssetTx);

    expect(await api.getAssetDescription(assetID)).toEqual({ assetID, name: 'Interop Coin', symbol: 'ICN', denomination: '6' });

    const u = json.unsignedTx;
    expect([u.name, u.symbol, u.denomination]).toEqual(['Interop Coin', 'ICN', 6]);
    expect(u.outputs).toHaveLength(1); // the change
    expect(u.initialStates).toEqual([
      {
        fxIndex: 0,
        fxID: SECP_FX,
        outputs: [
          { addresses: [EWOQ], locktime: 0, threshold: 1 },
          { addresses: [BOB], amount: 2500, locktime: 0, threshold: 1 },
          { addresses: [EWOQ], amount: 1000000, locktime: 0, threshold: 1 },
        ],
      },
    ]);

    // Initial-state UTXOs are numbered after the base outputs: 1 mint, 2 bob's 2500, 3 ewoq's 1e6.
    const summarize = (list: Utxo[]) =>
      list
        .filter((x) => x.utxoId.txID.toString() === assetID)
        .map((x) => [x.utxoId.outputIdx.value(), x.assetId.toString(), x.output._type])
        .sort();
    const ewoqUtxos = summarize(await utxosOf(EWOQ));
    const bobUtxos = summarize(await utxosOf(BOB));
    expect(ewoqUtxos).toEqual([
      [0, AVAX, 'secp256k1fx.TransferOutput'],
      [1, assetID, 'secp256k1fx.MintOutput'],
      [3, assetID, 'secp256k1fx.TransferOutput'],
    ]);
    expect(bobUtxos).toEqual([[2, assetID, 'secp256k1fx.TransferOutput']]);

    expect(await balance(EWOQ)).toBe(ewoqBefore - FEE);
    expect(await balance(BOB)).toBe(bobBefore);
    expect(await balance(EWOQ, assetID)).toBe(1_000_000n);
    expect(await balance(BOB, assetID)).toBe(2_500n);
    const all = await call(xUrl, 'avm.getAllBalances', { address: BOB });
    expect([...all.balances].sort((a: any, b: any) => a.asset.localeCompare(b.asset))).toEqual(
      [
        { asset: 'AVAX', balance: String(bobBefore) },
        { asset: assetID, balance: '2500' },
      ].sort((a, b) => a.asset.localeCompare(b.asset)),
    );

    // The new asset moves with avm.newBaseTx like AVAX does: bob sends 1000 of it to ewoq.
    const send = avm.newBaseTx(ctx, [BOB_ADDR], await utxosOf(BOB), [ajs.TransferableOutput.fromNative(assetID, 1_000n, [EWOQ_ADDR])]);
    const sent = await signAndIssue(send, [BOB_KEY]);
    await readBack(sent.txID, sent.bytes);
    expect(await balance(BOB, assetID)).toBe(1_500n);
    expect(await balance(EWOQ, assetID)).toBe(1_001_000n);
    expect(await balance(BOB)).toBe(bobBefore - FEE);
  });
});

describe('ExportTx built by avm.newExportTx', () => {
  for (const [name, chain] of [
    ['P', P],
    ['C', C],
  ] as const) {
    it(`exports to the ${name}-Chain: X balance drops by amount + fee; the JSON names the destination and outputs`, async () => {
      const amount = name === 'P' ? 5_000_000_000n : 7_000_000_000n;
      const before = await balance(EWOQ);
      const unsigned = avm.newExportTx(ctx, chain, [EWOQ_ADDR], await utxosOf(EWOQ), [ajs.TransferableOutput.fromNative(AVAX, amount, [EWOQ_ADDR])]);
      const { txID, bytes } = await signAndIssue(unsigned, [EWOQ_KEY]);
      const { json } = await readBack(txID, bytes);
      expect(await balance(EWOQ)).toBe(before - amount - FEE);

      const u = json.unsignedTx;
      expect(u.destinationChain).toBe(chain);
      expect(u.exportedOutputs).toEqual([{ assetID: AVAX, fxID: SECP_FX, output: { addresses: [EWOQ], amount: Number(amount), locktime: 0, threshold: 1 } }]);
      expect(u.outputs).toHaveLength(1); // change only
      expect(u.outputs[0].output.addresses).toEqual([EWOQ]);
      // The change is X state; the exported UTXO (index len(outputs)) is not.
      const fromTx = (await utxosOf(EWOQ)).filter((x) => x.utxoId.txID.toString() === txID).map((x) => x.utxoId.outputIdx.value());
      expect(fromTx).toEqual([0]);
    });
  }

  const failures: Array<[string, () => string, (id: string) => string]> = [
    ['X itself', () => X, () => 'same chainID'],
    [
      'an unknown chain',
      () => utils.base58check.encode(sha256(new TextEncoder().encode('no such chain'))),
      (id) => `failed to get subnet of "${id}": problem retrieving blockchain "${id}": not found`,
    ],
  ];
  for (const [what, chainOf, message] of failures) {
    it(`an export to ${what} is refused and moves nothing`, async () => {
      const chain = chainOf();
      const before = await balance(EWOQ);
      const utxos = await utxosOf(EWOQ);
      const unsigned = avm.newExportTx(ctx, chain, [EWOQ_ADDR], utxos, [ajs.TransferableOutput.fromNative(AVAX, 1_000n, [EWOQ_ADDR])]);
      await ajs.addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ_KEY] });
      const err = await api.issueSignedTx(unsigned.getSignedTx()).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(err).toBe(message(chain));
      expect(await balance(EWOQ)).toBe(before);
      const txID = utils.base58check.encode(sha256(unsigned.getSignedTx().toBytes()));
      expect(await api.getTxStatus({ txID })).toEqual({ status: 'Unknown' });
    });
  }
});
