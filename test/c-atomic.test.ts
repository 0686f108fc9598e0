// The C-Chain's atomic txs through the real clients: @avalabs/avalanchejs 5.2.0 builds and signs X
// exports, C imports (evm.newImportTxFromBaseFee over avax.getUTXOs), C exports
// (evm.newExportTxFromBaseFee) and X imports (over avm.getUTXOs from C); viem reads the EVM
// balances and nonces; eth_getBlockByNumber shows the atomic txs' block (blockExtraData,
// extDataGasUsed, a header that re-hashes to the block hash). Errors are coreth's texts
// (avalanchego 1.14.2, graft/coreth/plugin/evm/atomic), and a restart keeps everything.
import { createHash } from 'node:crypto';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AjsContext, type AVMApi, ajs, type SignedTx, type UnsignedTx, type Utxo } from './support/avalanchejs.js';
import { call, callError, startTestNode, type TestNode, tempDir } from './helpers.js';
import { marshalBatch, marshalUTXO, parseAtomicTx, parseUTXO } from '../src/vms/evm/atomic/codec.js';
import { AtomicError } from '../src/vms/evm/atomic/errors.js';
import { effectiveGasPrice, gasUsed } from '../src/vms/evm/atomic/fees.js';
import { AtomicMempool } from '../src/vms/evm/atomic/mempool.js';
import { idFromString } from '../src/encoding/cb58.js';

// ---- the slice of avalanchejs' evm module these tests use ---------------------------------------
interface EvmOutput {
  address: { toBytes(): Uint8Array };
  amount: { value(): bigint };
}
interface EvmTx {
  Outs?: EvmOutput[];
  ins?: Array<{ amount: { value(): bigint }; nonce: { value(): bigint } }>;
  exportedOutputs?: Array<{ output: { amount(): bigint } }>;
}
interface EVMApi {
  getUTXOs(input: {
    addresses: string[];
    sourceChain: string;
    limit?: number;
  }): Promise<{ utxos: Utxo[]; numFetched: string; endIndex: { address: string; utxo: string } }>;
  issueSignedTx(tx: SignedTx): Promise<{ txID: string }>;
  getAtomicTx(params: { txID: string }): Promise<{ tx: SignedTx; encoding: string; blockHeight?: bigint }>;
  getAtomicTxStatus(txID: string): Promise<{ status: string; blockHeight?: string }>;
  getBaseFee(): Promise<bigint>;
}
interface EvmModule {
  EVMApi: new (uri: string) => EVMApi;
  newImportTx(ctx: AjsContext, to: Uint8Array, from: Uint8Array[], utxos: Utxo[], sourceChain: string, fee?: bigint): UnsignedTx;
  newImportTxFromBaseFee(ctx: AjsContext, to: Uint8Array, from: Uint8Array[], utxos: Utxo[], sourceChain: string, baseFee?: bigint): UnsignedTx;
  newExportTx(ctx: AjsContext, amount: bigint, destination: string, from: Uint8Array, to: Uint8Array[], fee: bigint, nonce: bigint): UnsignedTx;
  newExportTxFromBaseFee(ctx: AjsContext, baseFee: bigint, amount: bigint, destination: string, from: Uint8Array, to: Uint8Array[], nonce: bigint): UnsignedTx;
}
interface AvmImport {
  newImportTx(ctx: AjsContext, sourceChain: string, utxos: Utxo[], to: Uint8Array[], from: Uint8Array[]): UnsignedTx;
}
const evm = (ajs as unknown as { evm: EvmModule }).evm;
const avmImport = ajs.avm as unknown as AvmImport;
const { avm, utils } = ajs;

// ---- constants ---------------------------------------------------------------------------------
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const X_FEE = 1_000_000n;
const GWEI = 1_000_000_000n;
const EWOQ_KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_C = 'C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_ADDR = utils.bech32ToBytes(EWOQ_X);

const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A key derived from a name: each test's accounts start empty. */
function account(name: string) {
  const key = sha256(new TextEncoder().encode(`c-atomic: ${name}`));
  const eth = privateKeyToAccount(`0x${hexOf(key)}` as Hex);
  const short = ajs.secp256k1.publicKeyBytesToAddress(ajs.secp256k1.getPublicKey(key));
  return { key, eth: eth.address, ethBytes: utils.hexToBuffer(eth.address), short, x: utils.format('X', 'local', short), c: utils.format('C', 'local', short) };
}

/** A node with the clients of both chains. */
async function connect(node: TestNode) {
  const ctx = await ajs.Context.getContextFromURI(node.uri);
  const viem = createPublicClient({ transport: http(`${node.uri}/ext/bc/C/rpc`), cacheTime: 0 }) as PublicClient;
  return {
    node,
    ctx,
    xApi: new avm.AVMApi(node.uri) as AVMApi,
    cApi: new evm.EVMApi(node.uri),
    viem,
    x: `${node.uri}/ext/bc/X`,
    c: `${node.uri}/ext/bc/C/avax`,
  };
}
type Clients = Awaited<ReturnType<typeof connect>>;

async function signed(unsigned: UnsignedTx, keys: Uint8Array[]): Promise<SignedTx> {
  await ajs.addTxSignatures({ unsignedTx: unsigned, privateKeys: keys });
  expect(unsigned.hasAllSignatures()).toBe(true);
  return unsigned.getSignedTx();
}

async function xBalance(n: Clients, address: string): Promise<bigint> {
  return BigInt((await call(n.x, 'avm.getBalance', { address, assetID: 'AVAX' })).balance);
}

/** An X-Chain ExportTx of `amount` to C for `to` (a short address), paid by ewoq. */
async function exportFromX(n: Clients, amount: bigint, to: Uint8Array): Promise<string> {
  const { utxos } = await n.xApi.getUTXOs({ addresses: [EWOQ_X] });
  const tx = avm.newExportTx(n.ctx, C, [EWOQ_ADDR], utxos, [ajs.TransferableOutput.fromNative(AVAX, amount, [to])]);
  return (await n.xApi.issueSignedTx(await signed(tx, [EWOQ_KEY]))).txID;
}

/** An import into `to` (an EVM address) of every UTXO ewoq has from X, at the node's base fee. */
async function importToC(n: Clients, to: Uint8Array): Promise<{ txID: string; bytes: Uint8Array; credited: bigint; burned: bigint; utxos: Utxo[] }> {
  const { utxos } = await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
  const baseFee = await n.cApi.getBaseFee();
  const unsigned = evm.newImportTxFromBaseFee(n.ctx, to, [EWOQ_ADDR], utxos, X, baseFee);
  const tx = await signed(unsigned, [EWOQ_KEY]);
  const bytes = tx.toBytes();
  const { txID } = await n.cApi.issueSignedTx(tx);
  expect(txID).toBe(utils.base58check.encode(sha256(bytes)));
  const imported = utxos.reduce((s, u) => s + u.output.amount!(), 0n);
  const credited = (unsigned.getTx() as unknown as EvmTx).Outs!.reduce((s, o) => s + o.amount.value(), 0n);
  return { txID, bytes, credited, burned: imported - credited, utxos };
}

/** The signature count a tx's gas counts: 1000 each. */
function atomicGas(unsignedBytes: number, signatures: number): bigint {
  return BigInt(unsignedBytes) + 1000n * BigInt(signatures) + 10_000n;
}

async function ethCall(n: Clients, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(`${n.node.uri}/ext/bc/C/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

/** Re-hashes a block's header from its JSON, in coreth's field order. */
function rehash(b: Record<string, string>): string {
  const q = (h: string) =>
    BigInt(h) === 0n
      ? new Uint8Array()
      : Buffer.from(
          BigInt(h)
            .toString(16)
            .padStart(2 * Math.ceil(BigInt(h).toString(16).length / 2), '0'),
          'hex',
        );
  const x = (h: string) => Buffer.from(h.slice(2), 'hex');
  const fields = [
    x(b.parentHash!),
    x(b.sha3Uncles!),
    x(b.miner!),
    x(b.stateRoot!),
    x(b.transactionsRoot!),
    x(b.receiptsRoot!),
    x(b.logsBloom!),
    q(b.difficulty!),
    q(b.number!),
    q(b.gasLimit!),
    q(b.gasUsed!),
    q(b.timestamp!),
    x(b.extraData!),
    x(b.mixHash!),
    x(b.nonce!),
    x(b.extDataHash!),
    q(b.baseFeePerGas!),
    q(b.extDataGasUsed!),
    q(b.blockGasCost!),
    q(b.blobGasUsed!),
    q(b.excessBlobGas!),
    x(b.parentBeaconBlockRoot!),
    q(b.timestampMilliseconds!),
    q(b.minDelayExcess!),
  ];
  return `0x${hexOf(keccak_256(RLP.encode(fields)))}`;
}

describe('X → C → X through avalanchejs and viem', () => {
  let n: Clients;
  const carol = account('carol');
  const dave = account('dave');
  let ewoqStart: bigint;
  let burnedOnC = 0n;
  let xFees = 0n;
  beforeAll(async () => {
    n = await connect(await startTestNode({ dbType: 'memdb' }));
    ewoqStart = await xBalance(n, EWOQ_X);
  });
  afterAll(() => n.node.stop());

  let importID: string;
  let importBytes: Uint8Array;
  let importedUtxos: Utxo[];
  it('imports an X export into an EVM account: its balance grows by the credited amount · 10^9 wei', async () => {
    const amount = 7_000_000_000n;
    await exportFromX(n, amount, EWOQ_ADDR);
    xFees += X_FEE;
    const page = await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
    expect(page.numFetched).toBe('1');
    expect(page.utxos[0]!.output.amount!()).toBe(amount);
    expect(page.utxos[0]!.assetId.toString()).toBe(AVAX);
    expect(page.endIndex.address).toBe(EWOQ_C);

    expect(await n.viem.getBalance({ address: carol.eth })).toBe(0n);
    const { txID, bytes, credited, burned, utxos } = await importToC(n, carol.ethBytes);
    importID = txID;
    importBytes = bytes;
    importedUtxos = utxos;
    burnedOnC += burned;
    expect(credited + burned).toBe(amount);
    expect(await n.viem.getBalance({ address: carol.eth })).toBe(credited * GWEI);
    // The UTXO left shared memory with the block.
    expect((await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' })).numFetched).toBe('0');
  });

  it('serves the import: status Accepted with its height, getAtomicTx the issued bytes', async () => {
    const status = await n.cApi.getAtomicTxStatus(importID);
    expect(status.status).toBe('Accepted');
    const height = BigInt(status.blockHeight!);
    expect(height).toBeGreaterThan(0n);
    const raw = await call(n.c, 'avax.getAtomicTx', { txID: importID });
    expect(raw.encoding).toBe('hex');
    expect(raw.blockHeight).toBe(String(height));
    const withSum = Buffer.from((raw.tx as string).slice(2), 'hex');
    expect(hexOf(withSum.subarray(0, withSum.length - 4))).toBe(hexOf(importBytes));
    const hexnc = await call(n.c, 'avax.getAtomicTx', { txID: importID, encoding: 'hexnc' });
    expect(hexnc.tx).toBe(`0x${hexOf(importBytes)}`);
    // The library parses it back to the same bytes.
    const parsed = await n.cApi.getAtomicTx({ txID: importID });
    expect(parsed.blockHeight).toBe(height);
    expect(hexOf(parsed.tx.toBytes())).toBe(hexOf(importBytes));
  });

  it('puts the import in a block: blockExtraData, extDataGasUsed, extDataHash, and a header that re-hashes', async () => {
    const { blockHeight } = await n.cApi.getAtomicTxStatus(importID);
    const block = await ethCall(n, 'eth_getBlockByNumber', [`0x${BigInt(blockHeight!).toString(16)}`, false]);
    // extData = atomic.Codec of []*Tx: version 0, one tx, the tx without its own version.
    const extData = Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 1]), importBytes.subarray(2)]);
    expect(block.blockExtraData).toBe(`0x${hexOf(extData)}`);
    expect(block.extDataHash).toBe(`0x${hexOf(keccak_256(RLP.encode(extData)))}`);
    // One input signed once: gas = unsigned bytes + 1000 + 10000 (the credential is 4+4+4+65 bytes).
    const unsignedLength = importBytes.length - (4 + 4 + 4 + 65);
    expect(BigInt(block.extDataGasUsed)).toBe(atomicGas(unsignedLength, 1));
    expect(block.transactions).toEqual([]);
    expect(block.gasUsed).toBe('0x0');
    expect(rehash(block)).toBe(block.hash);
    // The header's fee state counts the atomic gas: block 1 starts from the zero state, so its
    // excess (bytes 8..16 of extraData) is exactly extDataGasUsed, and its capacity is 10M less that.
    expect(block.number).toBe('0x1');
    const word = (k: number) => BigInt(`0x${block.extraData.slice(2 + 16 * k, 2 + 16 * (k + 1))}`);
    expect(word(1)).toBe(BigInt(block.extDataGasUsed));
    expect(word(0)).toBe(10_000_000n - BigInt(block.extDataGasUsed));
  });

  let exportID: string;
  let exportBytes: Uint8Array;
  it('exports from C to X: the balance falls by (amount + fee) · 10^9 wei and the nonce moves', async () => {
    const amount = 2_000_000_000n;
    const before = await n.viem.getBalance({ address: carol.eth });
    const nonce = await n.viem.getTransactionCount({ address: carol.eth });
    expect(nonce).toBe(0);
    const baseFee = await n.cApi.getBaseFee();
    const unsigned = evm.newExportTxFromBaseFee(n.ctx, baseFee, amount, X, carol.ethBytes, [dave.short], BigInt(nonce));
    const spent = (unsigned.getTx() as unknown as EvmTx).ins![0]!.amount.value();
    const tx = await signed(unsigned, [carol.key]);
    const { txID } = await n.cApi.issueSignedTx(tx);
    exportID = txID;
    exportBytes = tx.toBytes();
    expect(txID).toBe(utils.base58check.encode(sha256(exportBytes)));
    burnedOnC += spent - amount;
    expect(await n.viem.getBalance({ address: carol.eth })).toBe(before - spent * GWEI);
    expect(await n.viem.getTransactionCount({ address: carol.eth })).toBe(1);
    expect((await n.cApi.getAtomicTxStatus(txID)).status).toBe('Accepted');

    // X sees the UTXO from C (output index 0 of the export), and dave imports it.
    const { utxos } = await n.xApi.getUTXOs({ addresses: [dave.x], sourceChain: 'C' });
    expect(utxos.map((u) => [u.utxoId.txID.toString(), u.utxoId.outputIdx.value(), u.output.amount!()])).toEqual([[txID, 0, amount]]);
    const xImport = avmImport.newImportTx(n.ctx, C, utxos, [dave.short], [dave.short]);
    await n.xApi.issueSignedTx(await signed(xImport, [dave.key]));
    xFees += X_FEE;
    expect(await xBalance(n, dave.x)).toBe(amount - X_FEE);
    expect((await n.xApi.getUTXOs({ addresses: [dave.x], sourceChain: 'C' })).utxos).toEqual([]);
  });

  it('keeps the books: X balances + C balance / 10^9 + fees burned on both sides = what ewoq started with', async () => {
    const cBalance = await n.viem.getBalance({ address: carol.eth });
    expect(cBalance % GWEI).toBe(0n);
    const total = (await xBalance(n, EWOQ_X)) + (await xBalance(n, dave.x)) + cBalance / GWEI + burnedOnC + xFees;
    expect(total).toBe(ewoqStart);
  });

  it("refuses a second import of a spent UTXO with coreth's text, the same tx or another", async () => {
    const spentText = `failed to fetch import UTXOs from ${X} due to: not found`;
    const again = await callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(importBytes)}`, encoding: 'hexnc' });
    expect(again).toMatchObject({ code: -32000, message: spentText });
    const another = await signed(evm.newImportTx(n.ctx, dave.ethBytes, [EWOQ_ADDR], importedUtxos, X, 1_000_000n), [EWOQ_KEY]);
    expect((await callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(another.toBytes())}`, encoding: 'hexnc' })).message).toBe(spentText);
    // The export's nonce is spent too.
    const exported = await call(n.c, 'avax.getAtomicTx', { txID: exportID, encoding: 'hexnc' });
    expect((await callError(n.c, 'avax.issueTx', { tx: exported.tx, encoding: 'hexnc' })).message).toBe('invalid nonce');
  });

  it('refuses a wrong network ID, too little burned, an overdraft and a wrong nonce', async () => {
    await exportFromX(n, 3_000_000_000n, EWOQ_ADDR);
    xFees += X_FEE;
    const { utxos } = await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
    const issue = async (unsigned: UnsignedTx, key: Uint8Array) => {
      const tx = await signed(unsigned, [key]);
      return callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(tx.toBytes())}`, encoding: 'hexnc' });
    };
    const wrongNetwork = evm.newImportTx({ ...n.ctx, networkID: 1 }, carol.ethBytes, [EWOQ_ADDR], utxos, X, 1_000_000n);
    expect((await issue(wrongNetwork, EWOQ_KEY)).message).toBe('tx was issued with a different network ID');
    const unpaid = evm.newImportTx(n.ctx, carol.ethBytes, [EWOQ_ADDR], utxos, X, 0n);
    expect((await issue(unpaid, EWOQ_KEY)).message).toBe('import tx flow check failed due to: insufficient funds');
    // None of that spent anything: the UTXO is still there, and a proper import takes it.
    const { credited, burned } = await importToC(n, carol.ethBytes);
    burnedOnC += burned;
    expect(credited).toBeGreaterThan(0n);

    const nonce = BigInt(await n.viem.getTransactionCount({ address: carol.eth }));
    const balance = (await n.viem.getBalance({ address: carol.eth })) / GWEI;
    const noFee = evm.newExportTx(n.ctx, 1_000_000n, X, carol.ethBytes, [dave.short], 0n, nonce);
    expect((await issue(noFee, carol.key)).message).toBe('export tx flow check failed due to: insufficient funds');
    const overdraft = evm.newExportTx(n.ctx, balance, X, carol.ethBytes, [dave.short], 1_000_000n, nonce);
    expect((await issue(overdraft, carol.key)).message).toBe('insufficient funds');
    const wrongNonce = evm.newExportTx(n.ctx, 1_000_000n, X, carol.ethBytes, [dave.short], 1_000_000n, nonce + 3n);
    expect((await issue(wrongNonce, carol.key)).message).toBe('invalid nonce');
    // Signed by someone else: the signature recovers to another account.
    const forged = (await signed(evm.newExportTx(n.ctx, 1_000_000n, X, carol.ethBytes, [dave.short], 1_000_000n, nonce), [carol.key])).toBytes();
    const other = (await signed(evm.newExportTx(n.ctx, 1_000_000n, X, dave.ethBytes, [dave.short], 1_000_000n, 0n), [dave.key])).toBytes();
    // Carol's tx with dave's signature: a credential is its tx's last 65 bytes.
    const swapped = Buffer.concat([forged.subarray(0, forged.length - 65), other.subarray(-65)]);
    expect((await callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(swapped)}`, encoding: 'hexnc' })).message).toBe("signature doesn't match public key");
    // Nothing of it touched the account.
    expect(BigInt(await n.viem.getTransactionCount({ address: carol.eth }))).toBe(nonce);
  });

  it("parses avalanchejs' import and export, marshals a block's batch and a UTXO byte for byte with coreth's codec", async () => {
    for (const bytes of [importBytes, exportBytes]) {
      const tx = parseAtomicTx(bytes);
      expect(utils.base58check.encode(tx.id)).toBe(utils.base58check.encode(sha256(bytes)));
      // The unsigned bytes are what the credentials sign: the tx without its credentials.
      expect(hexOf(tx.unsignedBytes)).toBe(hexOf(bytes.subarray(0, tx.unsignedBytes.length)));
    }
    const batch = marshalBatch([parseAtomicTx(importBytes), parseAtomicTx(exportBytes)]);
    // codec version 0, the count, then each tx without its own version prefix.
    expect(hexOf(batch)).toBe(`000000000002${hexOf(importBytes.subarray(2))}${hexOf(exportBytes.subarray(2))}`);
    const { utxos } = await call(n.c, 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X', encoding: 'hexnc' });
    for (const u of utxos as string[]) expect(`0x${hexOf(marshalUTXO(parseUTXO(Buffer.from(u.slice(2), 'hex'))))}`).toBe(u);
    // A type ID the codec skipped, and one in the wrong slot, fail as Go's linear codec does.
    const wrongType = Buffer.from(importBytes);
    wrongType.writeUInt32BE(2, 2);
    expect((await callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(wrongType)}`, encoding: 'hexnc' })).message).toBe(
      "problem parsing transaction: couldn't unmarshal interface: unknown type ID 2",
    );
    wrongType.writeUInt32BE(9, 2);
    expect((await callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(wrongType)}`, encoding: 'hexnc' })).message).toBe(
      "problem parsing transaction: couldn't unmarshal interface: *secp256k1fx.Credential does not implement interface atomic.UnsignedAtomicTx",
    );
  });

  it('admits a conflicting tx to the mempool only at a higher gas price, which evicts the other', async () => {
    await exportFromX(n, 1_000_000_000n, EWOQ_ADDR);
    const { utxos } = await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
    const build = async (fee: bigint) =>
      parseAtomicTx((await signed(evm.newImportTx(n.ctx, carol.ethBytes, [EWOQ_ADDR], utxos, X, fee), [EWOQ_KEY])).toBytes());
    const [cheap, dear] = [await build(100_000n), await build(200_000n)];
    const avax = idFromString(AVAX);
    expect(effectiveGasPrice(cheap, avax)).toBe((100_000n * GWEI) / gasUsed(cheap));
    const pool = new AtomicMempool();
    pool.add(dear, effectiveGasPrice(dear, avax));
    const refused = (() => {
      try {
        pool.add(cheap, effectiveGasPrice(cheap, avax));
      } catch (err) {
        return err as AtomicError;
      }
    })();
    expect(refused).toBeInstanceOf(AtomicError);
    const id = (t: typeof cheap) => utils.base58check.encode(t.id);
    expect(refused!.message).toBe(
      `conflict present: issued tx (${id(cheap)}) gas price ${effectiveGasPrice(cheap, avax)} <= conflict tx (${id(dear)}) gas price ${effectiveGasPrice(dear, avax)} (1 total conflicts in mempool)`,
    );
    const pool2 = new AtomicMempool();
    pool2.add(cheap, effectiveGasPrice(cheap, avax));
    pool2.add(dear, effectiveGasPrice(dear, avax));
    expect(pool2.get(cheap.id)).toMatchObject({ dropped: true });
    expect(pool2.get(dear.id)).toMatchObject({ dropped: false });
    expect(pool2.takePending().map(id)).toEqual([id(dear)]);
  });

  it("answers the avax API's argument errors with coreth's texts", async () => {
    expect((await callError(n.c, 'avax.getUTXOs', { addresses: [] })).message).toBe('no addresses provided');
    expect((await callError(n.c, 'avax.getUTXOs', { addresses: [EWOQ_C] })).message).toBe('no source chain provided');
    expect((await callError(n.c, 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'Q' })).message).toBe(
      'problem parsing source chainID "Q": there is no ID with alias: Q',
    );
    expect((await callError(n.c, 'avax.getUTXOs', { addresses: [EWOQ_X], sourceChain: 'X' })).message).toBe(
      `couldn't parse address "${EWOQ_X}": expected chainID to be "${C}" but was "${X}"`,
    );
    // A bare cb58 ShortID is an address too.
    const bare = await call(n.c, 'avax.getUTXOs', { addresses: [utils.base58check.encode(dave.short)], sourceChain: 'X' });
    expect(bare).toEqual({ numFetched: '0', utxos: [], endIndex: { address: dave.c, utxo: '11111111111111111111111111111111LpoYY' }, encoding: 'hex' });
    const unknown = utils.base58check.encode(sha256(new Uint8Array([1])));
    expect((await callError(n.c, 'avax.getAtomicTx', { txID: unknown })).message).toBe(`could not find tx ${unknown}`);
    expect(await call(n.c, 'avax.getAtomicTxStatus', { txID: unknown })).toEqual({ status: 'Unknown' });
    expect((await callError(n.c, 'avax.getAtomicTxStatus', { txID: '11111111111111111111111111111111LpoYY' })).message).toBe('nil transaction ID');
    expect((await callError(n.c, 'avax.issueTx', { tx: '0x0000' })).message).toBe(
      'problem decoding transaction: input string is smaller than the checksum size',
    );
    expect((await callError(n.c, 'avax.issueTx', { tx: '0x00000000000000', encoding: 'hexnc' })).message).toMatch(/^problem parsing transaction: /);
  });
});

describe('atomic txs across a restart', () => {
  it('keeps the accepted txs, their heights, the balances and what waits in shared memory', async () => {
    const dataDir = tempDir();
    const erin = account('erin');
    let n = await connect(await startTestNode({ dataDir }));
    let importID: string;
    let exportID: string;
    let height: string;
    let balance: bigint;
    try {
      await exportFromX(n, 4_000_000_000n, EWOQ_ADDR);
      ({ txID: importID } = await importToC(n, erin.ethBytes));
      height = (await n.cApi.getAtomicTxStatus(importID)).blockHeight!;
      const baseFee = await n.cApi.getBaseFee();
      const exp = evm.newExportTxFromBaseFee(n.ctx, baseFee, 1_000_000_000n, X, erin.ethBytes, [erin.short], 0n);
      ({ txID: exportID } = await n.cApi.issueSignedTx(await signed(exp, [erin.key])));
      balance = await n.viem.getBalance({ address: erin.eth });
    } finally {
      await n.node.stop();
    }
    n = await connect(await startTestNode({ dataDir }));
    try {
      expect(await n.cApi.getAtomicTxStatus(importID)).toEqual({ status: 'Accepted', blockHeight: height });
      expect((await call(n.c, 'avax.getAtomicTx', { txID: importID })).blockHeight).toBe(height);
      expect((await n.cApi.getAtomicTxStatus(exportID)).status).toBe('Accepted');
      expect(await n.viem.getBalance({ address: erin.eth })).toBe(balance);
      expect(await n.viem.getTransactionCount({ address: erin.eth })).toBe(1);
      const block = await ethCall(n, 'eth_getBlockByNumber', [`0x${BigInt(height).toString(16)}`, false]);
      expect(block.blockExtraData.length).toBeGreaterThan(2);
      expect(rehash(block)).toBe(block.hash);
      // The export still waits for X in shared memory.
      const { utxos } = await n.xApi.getUTXOs({ addresses: [erin.x], sourceChain: 'C' });
      expect(utxos.map((u) => u.utxoId.txID.toString())).toEqual([exportID]);
    } finally {
      await n.node.stop();
    }
  });
});

describe("coreth's mempool limits", () => {
  it('refuses an import whose gas is over 100,000, through the API with its gas in the text', async () => {
    const n = await connect(await startTestNode({ dbType: 'memdb' }));
    try {
      // One X export with 90 outputs: 90 UTXOs for C, each an input that needs a signature.
      const { utxos: xUtxos } = await n.xApi.getUTXOs({ addresses: [EWOQ_X] });
      const outputs = Array.from({ length: 90 }, (_, i) => ajs.TransferableOutput.fromNative(AVAX, 1_000_000_000n + BigInt(i), [EWOQ_ADDR]));
      await n.xApi.issueSignedTx(await signed(avm.newExportTx(n.ctx, C, [EWOQ_ADDR], xUtxos, outputs), [EWOQ_KEY]));
      const { utxos } = await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
      expect(utxos).toHaveLength(90);
      const tx = await signed(evm.newImportTx(n.ctx, account('frank').ethBytes, [EWOQ_ADDR], utxos, X, 1_000_000n), [EWOQ_KEY]);
      const bytes = tx.toBytes();
      // Credentials: a count, then per input a type ID, a count and one signature.
      const gas = BigInt(bytes.length - (4 + 90 * (4 + 4 + 65))) + 90_000n + 10_000n;
      expect(gas).toBeGreaterThan(100_000n);
      expect((await callError(n.c, 'avax.issueTx', { tx: `0x${hexOf(bytes)}`, encoding: 'hexnc' })).message).toBe(
        `tx gas usage (${gas}) exceeds maximum allowed mempool gas usage (100000)`,
      );
      // Fewer inputs fit: 60 of them go in one block.
      const some = await signed(evm.newImportTx(n.ctx, account('frank').ethBytes, [EWOQ_ADDR], utxos.slice(0, 60), X, 1_000_000n), [EWOQ_KEY]);
      const { txID } = await n.cApi.issueSignedTx(some);
      expect((await n.cApi.getAtomicTxStatus(txID)).status).toBe('Accepted');
      expect((await n.cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' })).utxos).toHaveLength(30);
    } finally {
      await n.node.stop();
    }
  });
});
