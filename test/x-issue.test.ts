// The X-Chain issue pipeline end to end over HTTP: parse errors, the syntactic and semantic error
// rows on hand-built signed txs, the drop cache, mempool conflicts, blocks, wallet.issueTx, the
// getUTXOs pagination contract and the balance rules, each held to avalanchego's behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { buildTx, compareBytes, parseUTXO } from '../src/vms/avm/codec/index.js';
import { addressOfPrivateKey } from '../src/vms/avm/verify/index.js';
import type { BaseTxFields, CredentialBody, InitialState, SignedTx, TransferableInput, TransferableOutput, UnsignedTx, UTXO } from '../src/vms/avm/types.js';
import { encodeCB58, idFromString } from '../src/encoding/cb58.js';
import { decodeHex, encodeHex } from '../src/encoding/hex.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';
import {
  AVAX,
  AVAX_ID,
  addr,
  amt,
  base,
  baseTx,
  C,
  EMPTY_ID,
  eq,
  EWOQ,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_SHORT_ID,
  Ewoq,
  FEE,
  fromHex,
  GENESIS_AMOUNT,
  GENESIS_UTXO,
  height,
  inp,
  inputID,
  issue,
  issueError,
  keyOf,
  N,
  OTHER,
  OTHER_KEY,
  out,
  owners,
  sign,
  sleep,
  sortOuts,
  status,
  txHex,
  until,
  utf8,
  utxoIDString,
  utxosOf,
} from './support/xwallet.js';

const parseUTXOs = (r: { utxos: string[] }): UTXO[] => r.utxos.map((h) => parseUTXO(decodeHex(h, 'hex')));
const ownedUTXOs = async (url: string, a: Uint8Array): Promise<UTXO[]> => parseUTXOs(await call(url, 'avm.getUTXOs', { addresses: [addr(a)] }));
const nowSeconds = (): bigint => BigInt(Math.floor(Date.now() / 1000));

function patch(bytes: Uint8Array, offset: number, value: number[]): Uint8Array {
  const b = new Uint8Array(bytes);
  b.set(value, offset);
  return b;
}
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

// =============================================================================================
// One node that builds a block per tx.

let node: TestNode;
let url: string;
let ewoq: Ewoq;
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  url = `${node.uri}/ext/bc/X`;
  ewoq = new Ewoq(url);
});
afterAll(() => node.stop());

describe('parse errors through avm.issueTx', () => {
  // A correctly signed BaseTx, never issued: the rows below corrupt its bytes.
  let valid: SignedTx;
  beforeAll(() => {
    valid = ewoq.build([out(1_000_000_000n, owners([OTHER]))]).tx;
  });

  it("the fixture is a sane signed BaseTx: its ID is sha256 of its bytes, and the key is ewoq's", () => {
    expect(addressOfPrivateKey(EWOQ_KEY)).toEqual(EWOQ);
    expect(encodeCB58(inputID(GENESIS_UTXO.utxoID))).toBe('Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc');
    expect(valid.id).toEqual(sha256(valid.bytes));
  });

  const rows: Array<[string, (v: Uint8Array) => Uint8Array, (v: Uint8Array) => string]> = [
    ['a trailing byte', (v) => concat(v, Uint8Array.of(0)), (v) => `trailing buffer space: read ${v.length} provided ${v.length + 1}`],
    ['four trailing bytes', (v) => concat(v, new Uint8Array(4)), (v) => `trailing buffer space: read ${v.length} provided ${v.length + 4}`],
    ['an unknown tx type ID', (v) => patch(v, 2, [0, 0, 0, 21]), () => "couldn't unmarshal interface: unknown type ID 21"],
    ['type ID 0xffffffff', (v) => patch(v, 2, [0xff, 0xff, 0xff, 0xff]), () => "couldn't unmarshal interface: unknown type ID 4294967295"],
    [
      'a block type ID where a tx goes',
      (v) => patch(v, 2, [0, 0, 0, 20]),
      () => "couldn't unmarshal interface: *block.StandardBlock does not implement interface txs.UnsignedTx",
    ],
    [
      'an input type ID as an output',
      (v) => patch(v, 2 + 4 + 4 + 32 + 4 + 32, [0, 0, 0, 5]),
      () => "couldn't unmarshal interface: *secp256k1fx.TransferInput does not implement interface avax.TransferableOut",
    ],
    ['truncated in the last signature', (v) => v.subarray(0, v.length - 1), () => 'packer has insufficient length for input'],
    [
      'truncated in the first output amount',
      (v) => v.subarray(0, 2 + 4 + 4 + 32 + 4 + 32 + 4 + 3),
      () => "couldn't unmarshal uint64: packer has insufficient length for input",
    ],
    [
      'truncated in an output type ID',
      (v) => v.subarray(0, 2 + 4 + 4 + 32 + 4 + 32 + 2),
      () => "couldn't unmarshal interface: packer has insufficient length for input",
    ],
    ['truncated in the network ID', (v) => v.subarray(0, 2 + 4 + 1), () => "couldn't unmarshal uint32: packer has insufficient length for input"],
    ['only a codec version', () => new Uint8Array(2), () => "couldn't unmarshal interface: packer has insufficient length for input"],
    ['one byte', () => new Uint8Array(1), () => "couldn't unpack codec version"],
    ['no bytes', () => new Uint8Array(0), () => "couldn't unpack codec version"],
    ['codec version 1', (v) => patch(v, 0, [0, 1]), () => 'unknown codec version'],
    ['codec version 0xffff', (v) => patch(v, 0, [0xff, 0xff]), () => 'unknown codec version'],
    ['256 KiB + 1 bytes', () => new Uint8Array(256 * 1024 + 1), () => 'byte array exceeds maximum length: 262145 > 262144'],
    ['exactly 256 KiB (parsed, then trailing bytes)', () => new Uint8Array(256 * 1024), () => 'trailing buffer space: read 58 provided 262144'],
  ];
  it.each(rows)('%s', async (_name, mutate, message) => {
    expect(await issueError(url, mutate(valid.bytes))).toBe(message(valid.bytes));
  });

  it('leaves the chain untouched, and the untouched tx is still valid afterwards', async () => {
    expect(await height(url)).toBe(0n);
    expect(await issueError(url, concat(valid.bytes, Uint8Array.of(0)))).toMatch(/^trailing buffer space/);
    // The same tx issued hexnc (no checksum) is accepted: the parse failures did not poison its ID.
    const { txID } = await call(url, 'avm.issueTx', { tx: encodeHex(valid.bytes, 'hexnc'), encoding: 'hexnc' });
    expect(txID).toBe(encodeCB58(valid.id));
    expect(await height(url)).toBe(1n);
    ewoq.coin = utxosOf(valid).find((u) => amt(u.output) > 1_000_000_000n)!;
  });
});

describe('syntactic verification through avm.issueTx', () => {
  // Every row spends the (by now spent) genesis UTXO: syntactic checks need no state and come first.
  const G = GENESIS_UTXO;
  const spendG = (outs: TransferableOutput[], over: Partial<BaseTxFields> = {}) => baseTx([{ utxo: G, keys: [EWOQ_KEY] }], outs, over);
  const unsortedBase = (outputs: TransferableOutput[], inputs: TransferableInput[], signers: Uint8Array[][], over: Partial<BaseTxFields> = {}) =>
    sign({ type: 0, base: base({ outputs, inputs, ...over }) }, signers);
  const asset = (p: {
    name?: string;
    symbol?: string;
    denomination?: number;
    states?: InitialState[];
    over?: Partial<BaseTxFields>;
    outs?: TransferableOutput[];
  }) =>
    sign(
      {
        type: 1,
        base: base({ inputs: [inp(G)], outputs: p.outs ?? [out(GENESIS_AMOUNT - FEE)], ...p.over }),
        name: utf8(p.name ?? 'Test Coin'),
        symbol: utf8(p.symbol ?? 'TST'),
        denomination: p.denomination ?? 2,
        initialStates: p.states ?? [{ fxIndex: 0, outputs: [{ type: 7, amount: 100n, owners: owners() }] }],
      },
      [[EWOQ_KEY]],
    );
  const rest = GENESIS_AMOUNT - FEE;
  const twoTo63 = 1n << 63n;

  const rows: Array<[string, () => SignedTx, string]> = [
    ['wrong network ID', () => spendG([out(rest)], { networkID: 1 }), 'tx has wrong network ID'],
    ['wrong chain ID (the C-Chain)', () => spendG([out(rest)], { blockchainID: C }), 'tx has wrong chain ID'],
    ['memo of 257 bytes', () => spendG([out(rest)], { memo: new Uint8Array(257) }), 'memo exceeds maximum length: 257 > 256'],
    ['an output with no value', () => spendG([out(rest), out(0n, owners([OTHER]))]), 'output has no value'],
    ['outputs not sorted', () => unsortedBase([out(rest - 5n), out(5n, owners([OTHER]))], [inp(G)], [[EWOQ_KEY]]), 'outputs not sorted'],
    [
      'output addresses duplicated',
      () => spendG([out(rest - 5n), out(5n, { locktime: 0n, threshold: 1, addresses: [OTHER, OTHER] })]),
      'addresses not sorted and unique',
    ],
    [
      'output addresses descending',
      () => spendG([out(rest - 5n), out(5n, { locktime: 0n, threshold: 1, addresses: [EWOQ, OTHER].sort(compareBytes).reverse() })]),
      'addresses not sorted and unique',
    ],
    ['threshold 0 with an address', () => spendG([out(rest - 5n), out(5n, owners([OTHER], 0))]), 'output representation should be optimized'],
    ['threshold above the address count', () => spendG([out(rest - 5n), out(5n, owners([OTHER], 2))]), 'output is unspendable'],
    ['an empty asset ID', () => spendG([out(rest - 5n), out(5n, owners([OTHER]), new Uint8Array(32))]), 'empty asset ID is not valid'],
    ['an input with no value', () => unsortedBase([out(5n)], [inp(G, [0], 0n)], [[EWOQ_KEY]]), 'input has no value'],
    ['signature indices not unique', () => unsortedBase([out(rest)], [inp(G, [0, 0])], [[EWOQ_KEY, EWOQ_KEY]]), 'address indices not sorted and unique'],
    ['the same input twice', () => unsortedBase([out(rest)], [inp(G), inp(G)], [[EWOQ_KEY], [EWOQ_KEY]]), 'inputs not sorted and unique'],
    ['no fee left', () => spendG([out(GENESIS_AMOUNT)]), 'insufficient funds'],
    ['one nAVAX short of the fee', () => spendG([out(rest + 1n)]), 'insufficient funds'],
    ['produced amounts overflow', () => spendG([out(twoTo63), out(twoTo63, owners([OTHER]))]), 'overflow'],
    ['no credential', () => unsortedBase([out(rest)], [inp(G)], []), 'wrong number of credentials: 0 != 1'],
    ['two credentials for one input', () => unsortedBase([out(rest)], [inp(G)], [[EWOQ_KEY], [EWOQ_KEY]]), 'wrong number of credentials: 2 != 1'],
    ['CreateAssetTx: empty name', () => asset({ name: '' }), 'name is too short, minimum size is 1'],
    ['CreateAssetTx: empty name beats a wrong network ID', () => asset({ name: '', over: { networkID: 1 } }), 'name is too short, minimum size is 1'],
    ['CreateAssetTx: name of 129 bytes', () => asset({ name: 'a'.repeat(129) }), 'name is too long, maximum size is 128'],
    ['CreateAssetTx: empty symbol', () => asset({ symbol: '' }), 'symbol is too short, minimum size is 1'],
    ['CreateAssetTx: symbol of 5 bytes', () => asset({ symbol: 'ABCDE' }), 'symbol is too long, maximum size is 4'],
    ['CreateAssetTx: no initial state', () => asset({ states: [] }), 'assets must support at least one Fx'],
    ['CreateAssetTx: denomination 33', () => asset({ denomination: 33 }), 'denomination is too large'],
    ['CreateAssetTx: leading space', () => asset({ name: ' Coin' }), 'unexpected whitespace provided'],
    ['CreateAssetTx: trailing newline', () => asset({ name: 'Coin\n' }), 'unexpected whitespace provided'],
    ['CreateAssetTx: a dash in the name', () => asset({ name: 'Co-in' }), "asset's name must be made up of only letters and numbers"],
    ['CreateAssetTx: a lower-case symbol', () => asset({ symbol: 'Tst' }), "asset's symbol must be all upper case letters"],
    ['CreateAssetTx: fx index 3', () => asset({ states: [{ fxIndex: 3, outputs: [] }] }), 'unknown feature extension'],
    [
      'CreateAssetTx: initial states out of order',
      () =>
        asset({
          states: [
            { fxIndex: 1, outputs: [] },
            { fxIndex: 0, outputs: [] },
          ],
        }),
      'initial states not sorted and unique',
    ],
    ['CreateAssetTx: the create-asset fee unpaid', () => asset({ outs: [out(GENESIS_AMOUNT)] }), 'insufficient funds'],
  ];
  it.each(rows)('%s', async (_name, build, message) => {
    expect(await issueError(url, build())).toBe(message);
  });
});

describe('semantic verification through avm.issueTx', () => {
  let locked: UTXO;
  let multisig: UTXO;
  let paidTx: SignedTx;
  const multisigOwners = owners([EWOQ, OTHER], 2);
  const ewoqIndex = compareBytes(EWOQ, OTHER) < 0 ? 0 : 1;

  beforeAll(async () => {
    const { tx, utxos } = await ewoq.pay([out(5_000_000_000n, owners([EWOQ], 1, nowSeconds() + 3600n)), out(6_000_000_000n, multisigOwners)]);
    paidTx = tx;
    locked = utxos.find((u) => u.output.owners.locktime > 0n)!;
    multisig = utxos.find((u) => u.output.owners.threshold === 2)!;
  });

  const spendCoin = (keys: Uint8Array[], sigIndices?: number[]) =>
    baseTx([{ utxo: ewoq.coin, keys, ...(sigIndices ? { sigIndices } : {}) }], [out(amt(ewoq.coin.output) - FEE)]);

  it('a UTXO that does not exist', async () => {
    const missing: UTXO = {
      utxoID: { txID: sha256(utf8('no such tx')), outputIndex: 3 },
      assetID: AVAX,
      output: { type: 7, amount: 5_000_000_000n, owners: owners() },
    };
    const tx = baseTx([{ utxo: missing, keys: [EWOQ_KEY] }], [out(5_000_000_000n - FEE)]);
    expect(await issueError(url, tx)).toBe(`failed to verify transfer: failed to get utxo ${utxoIDString(missing)}: not found`);
  });

  it('an input amount that differs from the UTXO', async () => {
    const a = amt(ewoq.coin.output);
    const tx = sign({ type: 0, base: base({ inputs: [inp(ewoq.coin, [0], a - 1n)], outputs: [out(a - 1n - FEE)] }) }, [[EWOQ_KEY]]);
    expect(await issueError(url, tx)).toBe(`failed to verify transfer: utxo amount and input amount are not equal: ${a} != ${a - 1n}`);
  });

  it('signed by another key', async () => {
    expect(await issueError(url, spendCoin([OTHER_KEY], [0]))).toBe(
      `failed to verify transfer: wrong signature: expected signature from ${EWOQ_SHORT_ID} but got from ${encodeCB58(OTHER)}`,
    );
  });

  it('a high-S signature (the malleated twin of a valid one)', async () => {
    const good = spendCoin([EWOQ_KEY]);
    const sig = (good.credentials[0] as CredentialBody).signatures[0]!;
    const s = BigInt(`0x${Buffer.from(sig.subarray(32, 64)).toString('hex')}`);
    const high = new Uint8Array(sig);
    high.set(fromHex((N - s).toString(16).padStart(64, '0')), 32);
    high[64] = sig[64]! ^ 1;
    const tx = buildTx(good.unsigned, [{ type: 9, signatures: [high] }]);
    expect(await issueError(url, tx)).toBe('failed to verify transfer: signature was mutated from its original format');
  });

  it('a credential of another fx (nftfx) for a secp input', async () => {
    const good = spendCoin([EWOQ_KEY]);
    const tx = buildTx(good.unsigned, [{ type: 14, signatures: (good.credentials[0] as CredentialBody).signatures }]);
    expect(await issueError(url, tx)).toBe('failed to verify transfer: incompatible feature extension');
  });

  it('a time-locked UTXO', async () => {
    const tx = baseTx([{ utxo: locked, keys: [EWOQ_KEY] }], [out(5_000_000_000n - FEE)]);
    expect(await issueError(url, tx)).toBe('failed to verify transfer: output is time locked');
  });

  it('more signers than the threshold', async () => {
    expect(await issueError(url, spendCoin([EWOQ_KEY, EWOQ_KEY], [0, 1]))).toBe('failed to verify transfer: input has more signers than expected');
  });

  it('a signature index past the owners', async () => {
    expect(await issueError(url, spendCoin([EWOQ_KEY], [1]))).toBe('failed to verify transfer: input referenced a nonexistent address in the output');
  });

  it('fewer signers than a 2-of-2 threshold', async () => {
    const tx = baseTx([{ utxo: multisig, keys: [EWOQ_KEY], sigIndices: [ewoqIndex] }], [out(6_000_000_000n - FEE)]);
    expect(await issueError(url, tx)).toBe('failed to verify transfer: input has less signers than expected');
  });

  it('two signature indices but one signature', async () => {
    const unsigned: UnsignedTx = { type: 0, base: base({ inputs: [inp(multisig, [0, 1])], outputs: [out(6_000_000_000n - FEE)] }) };
    const tx = sign(unsigned, [[EWOQ_KEY]]);
    expect(await issueError(url, tx)).toBe('failed to verify transfer: input expected a different number of signers than provided in the credential');
  });

  it('the two multisig signatures swapped', async () => {
    const [first, second] = ewoqIndex === 0 ? [EWOQ_KEY, OTHER_KEY] : [OTHER_KEY, EWOQ_KEY];
    const tx = baseTx([{ utxo: multisig, keys: [second, first], sigIndices: [0, 1] }], [out(6_000_000_000n - FEE)]);
    expect(await issueError(url, tx)).toBe(
      `failed to verify transfer: wrong signature: expected signature from ${encodeCB58(addressOfPrivateKey(first))} but got from ${encodeCB58(addressOfPrivateKey(second))}`,
    );
  });

  it('an output of an unknown asset, or of a tx that is not an asset (reached through an ImportTx)', async () => {
    // A BaseTx output of an unknown asset always fails the flow check first; an ImportTx's imported
    // inputs balance the flow and are checked only after the base outputs.
    const importTx = (assetID: Uint8Array) =>
      sign(
        {
          type: 3,
          base: base({ inputs: [inp(ewoq.coin)], outputs: sortOuts([out(amt(ewoq.coin.output) - FEE), out(10n, owners(), assetID)]) }),
          sourceChain: C,
          importedInputs: [{ utxoID: { txID: sha256(utf8('atomic')), outputIndex: 0 }, assetID, input: { type: 5, amount: 10n, sigIndices: [0] } }],
        },
        [[EWOQ_KEY], [EWOQ_KEY]],
      );
    expect(await issueError(url, importTx(sha256(utf8('no such asset'))))).toBe('failed to verify fx usage: not found');
    expect(await issueError(url, importTx(paidTx.id))).toBe('failed to verify fx usage: not an asset');
    // With AVAX imported, the base checks pass and the missing atomic UTXO is reported bare.
    expect(await issueError(url, importTx(AVAX))).toBe('not found');
  });

  it('a valid 2-of-2 spend is accepted', async () => {
    const tx = baseTx([{ utxo: multisig, keys: [EWOQ_KEY, OTHER_KEY] }], [out(6_000_000_000n - FEE, owners([OTHER]))]);
    expect(tx.unsigned.base.inputs[0]!.input.sigIndices).toEqual([0, 1]);
    await issue(url, tx);
    expect(await status(url, encodeCB58(tx.id))).toBe('Accepted');
  });

  it('a tx over 64 KiB is verified, then refused by the mempool', async () => {
    const { tx } = ewoq.build(Array.from({ length: 850 }, () => out(1n, owners([OTHER]))));
    expect(tx.bytes.length).toBeGreaterThan(64 * 1024);
    expect(await issueError(url, tx)).toBe(`tx too large: ${encodeCB58(tx.id)} size (${tx.bytes.length}) > max size (65536)`);
    expect(await status(url, encodeCB58(tx.id))).toBe('Unknown');
  });
});

describe('rejected and re-issued txs', () => {
  const snapshot = async () => ({
    height: await height(url),
    ewoq: await call(url, 'avm.getUTXOs', { addresses: [EWOQ_ADDR] }),
    other: await call(url, 'avm.getUTXOs', { addresses: [addr(OTHER)] }),
    balance: await call(url, 'avm.getBalance', { address: EWOQ_ADDR, assetID: 'AVAX', includePartial: true }),
    all: await call(url, 'avm.getAllBalances', { address: addr(OTHER) }),
  });

  it('a rejected tx changes nothing, and re-issuing it returns the same error', async () => {
    const before = await snapshot();
    const bad = baseTx([{ utxo: ewoq.coin, keys: [OTHER_KEY], sigIndices: [0] }], [out(1_000n, owners([OTHER])), out(amt(ewoq.coin.output) - 1_000n - FEE)]);
    const first = await issueError(url, bad);
    expect(first).toBe(`failed to verify transfer: wrong signature: expected signature from ${EWOQ_SHORT_ID} but got from ${encodeCB58(OTHER)}`);
    expect(await snapshot()).toEqual(before);
    expect(await issueError(url, bad)).toBe(first);
    expect(await status(url, encodeCB58(bad.id))).toBe('Unknown');
    expect((await callError(url, 'avm.getTx', { txID: encodeCB58(bad.id) })).message).toBe('not found');
    expect(await snapshot()).toEqual(before);
  });

  it('the drop cache holds 64 txs and evicts the least recently used (a cache hit refreshes)', async () => {
    const wrongSig = `failed to verify transfer: wrong signature: expected signature from ${EWOQ_SHORT_ID} but got from ${encodeCB58(OTHER)}`;
    const badSpend = (memo: string) =>
      baseTx([{ utxo: ewoq.coin, keys: [OTHER_KEY], sigIndices: [0] }], [out(amt(ewoq.coin.output) - FEE)], { memo: utf8(memo) });
    const filler = (i: number) => baseTx([{ utxo: GENESIS_UTXO, keys: [EWOQ_KEY] }], [out(GENESIS_AMOUNT - FEE)], { networkID: 7, memo: utf8(`filler ${i}`) });
    const l1 = badSpend('L1');
    const l2 = badSpend('L2');
    expect(await issueError(url, l1)).toBe(wrongSig);
    expect(await issueError(url, l2)).toBe(wrongSig);
    for (let i = 0; i < 62; i++) expect(await issueError(url, filler(i))).toBe('tx has wrong network ID');
    // Full: L1, L2 and 62 fillers. A hit on L1 makes it the most recently used…
    expect(await issueError(url, l1)).toBe(wrongSig);
    // …so one more drop evicts L2, not L1.
    expect(await issueError(url, filler(62))).toBe('tx has wrong network ID');
    // Spend the coin both spend: a tx verified afresh now fails on the missing UTXO instead.
    const coinID = utxoIDString(ewoq.coin);
    await ewoq.pay([out(1_000_000n, owners([OTHER]))]);
    expect(await issueError(url, l2)).toBe(`failed to verify transfer: failed to get utxo ${coinID}: not found`);
    expect(await issueError(url, l1)).toBe(wrongSig);
  });

  it('re-issuing an accepted tx fails: its inputs are spent', async () => {
    const { tx } = await ewoq.pay([out(2_000_000n, owners([OTHER]))]);
    const spent = tx.unsigned.base.inputs[0]!.utxoID;
    expect(await issueError(url, tx)).toBe(`failed to verify transfer: failed to get utxo ${encodeCB58(inputID(spent))}: not found`);
    expect(await status(url, encodeCB58(tx.id))).toBe('Accepted');
  });
});

describe('blocks', () => {
  it('one block per tx: heights advance, parents chain, times never go back', async () => {
    const h0 = await height(url);
    const txs: SignedTx[] = [];
    for (const memo of [new Uint8Array(), utf8('hello'), new Uint8Array(256).fill(7)]) {
      txs.push((await ewoq.pay([out(3_000_000n, owners([OTHER]))], { memo })).tx);
    }
    const h = await height(url);
    expect(h).toBe(h0 + 3n);

    let prev: any;
    for (let i = 0n; i <= h; i++) {
      const { block, encoding } = await call(url, 'avm.getBlockByHeight', { height: String(i), encoding: 'json' });
      expect(encoding).toBe('json');
      expect(Object.keys(block)).toEqual(['parentID', 'height', 'time', 'merkleRoot', 'txs', 'id']);
      expect(block.height).toBe(Number(i));
      expect(block.merkleRoot).toBe(EMPTY_ID);
      if (prev) {
        expect(block.parentID).toBe(prev.id);
        expect(block.time).toBeGreaterThanOrEqual(prev.time);
        expect(block.txs).toHaveLength(1);
      }
      const hex = await call(url, 'avm.getBlockByHeight', { height: String(i) });
      expect(await call(url, 'avm.getBlock', { blockID: block.id })).toEqual(hex);
      expect(sha256(decodeHex(hex.block, 'hex'))).toEqual(idFromString(block.id));
      prev = block;
    }
    expect(prev.time).toBeLessThanOrEqual(Number(nowSeconds()) + 1);
    for (const [k, tx] of txs.entries()) {
      const { block } = await call(url, 'avm.getBlockByHeight', { height: String(h0 + 1n + BigInt(k)), encoding: 'json' });
      expect(block.txs.map((t: { id: string }) => t.id)).toEqual([encodeCB58(tx.id)]);
      expect(await call(url, 'avm.getTx', { txID: encodeCB58(tx.id) })).toEqual({ tx: txHex(tx.bytes), encoding: 'hex' });
    }
    const { block } = await call(url, 'avm.getBlockByHeight', { height: String(h0 + 3n), encoding: 'json' });
    expect(block.txs[0].unsignedTx.memo).toBe(`0x${'07'.repeat(256)}`);
    expect(block.txs[0].credentials).toHaveLength(1);
  });
});

describe('wallet.issueTx', () => {
  const walletIssue = async (tx: SignedTx) => (await call(`${url}/wallet`, 'wallet.issueTx', { tx: txHex(tx.bytes) })).txID;

  it('issues a valid tx, which is then accepted', async () => {
    const { tx, change } = ewoq.build([out(4_000_000n, owners([OTHER]))]);
    expect(await walletIssue(tx)).toBe(encodeCB58(tx.id));
    expect(
      await until(
        () => status(url, encodeCB58(tx.id)),
        (s) => s === 'Accepted',
      ),
    ).toBe('Accepted');
    ewoq.coin = change;
  });

  it('returns the ID of an invalid tx without verifying it; the tx is never accepted', async () => {
    const bad = baseTx([{ utxo: ewoq.coin, keys: [OTHER_KEY], sigIndices: [0] }], [out(amt(ewoq.coin.output) - FEE)]);
    expect(await walletIssue(bad)).toBe(encodeCB58(bad.id));
    // A later valid tx gets its block; the invalid one never does.
    const h = await height(url);
    await sleep(100);
    await ewoq.pay([out(5_000_000n, owners([OTHER]))]);
    expect(await height(url)).toBe(h + 1n);
    expect(await status(url, encodeCB58(bad.id))).toBe('Unknown');
    expect((await callError(url, 'avm.getTx', { txID: encodeCB58(bad.id) })).message).toBe('not found');
    // The builder dropped it with its verification error, which avm.issueTx now returns from the cache.
    expect(await issueError(url, bad)).toBe(
      `failed to verify transfer: wrong signature: expected signature from ${EWOQ_SHORT_ID} but got from ${encodeCB58(OTHER)}`,
    );
  });

  it('still refuses bytes that do not parse', async () => {
    expect((await callError(`${url}/wallet`, 'wallet.issueTx', { tx: txHex(new Uint8Array(1)) })).message).toBe("couldn't unpack codec version");
  });
});

// =============================================================================================
// A node that builds a block every second, so that txs wait in the mempool.

describe('mempool (with --x-block-interval=1s)', () => {
  let inode: TestNode;
  let iurl: string;
  let w: Ewoq;
  beforeAll(async () => {
    inode = await startTestNode({ dbType: 'memdb', xBlockInterval: '1s' });
    iurl = `${inode.uri}/ext/bc/X`;
    w = new Ewoq(iurl);
  });
  afterAll(() => inode.stop());

  const accepted = async (id: string) =>
    until(
      () => status(iurl, id),
      (s) => s === 'Accepted',
      4000,
    );
  /** Pays a primer and waits for its block: right after it, a whole interval lies ahead. */
  const freshInterval = async () => {
    const { tx } = await w.pay([out(1_000n, owners([OTHER]))]);
    expect(await accepted(encodeCB58(tx.id))).toBe('Accepted');
  };

  let coins: UTXO[] = [];
  it('a tx is invisible until its block is accepted, and several txs share one block', async () => {
    await freshInterval();
    const { tx: fan } = await w.pay([1, 2, 3, 4].map(() => out(1_000_000_000n)));
    const fanID = encodeCB58(fan.id);
    expect(await status(iurl, fanID)).toBe('Unknown');
    expect((await callError(iurl, 'avm.getTx', { txID: fanID })).message).toBe('not found');
    expect(await accepted(fanID)).toBe('Accepted');
    expect(await call(iurl, 'avm.getTx', { txID: fanID })).toEqual({ tx: txHex(fan.bytes), encoding: 'hex' });
    coins = utxosOf(fan).filter((u) => amt(u.output) === 1_000_000_000n);
    expect(coins).toHaveLength(4);

    const h = await height(iurl);
    const txs = coins.slice(0, 3).map((c) => baseTx([{ utxo: c, keys: [EWOQ_KEY] }], [out(1_000_000_000n - FEE, owners([OTHER]))]));
    for (const tx of txs) await issue(iurl, tx);
    for (const tx of txs) {
      expect(await status(iurl, encodeCB58(tx.id))).toBe('Unknown');
      expect((await callError(iurl, 'avm.getTx', { txID: encodeCB58(tx.id) })).message).toBe('not found');
    }
    expect(await height(iurl)).toBe(h);
    expect(
      await until(
        () => height(iurl),
        (v) => v > h,
      ),
    ).toBe(h + 1n);
    const { block } = await call(iurl, 'avm.getBlockByHeight', { height: String(h + 1n), encoding: 'json' });
    expect(block.txs.map((t: { id: string }) => t.id).sort()).toEqual(txs.map((t) => encodeCB58(t.id)).sort());
    for (const tx of txs) expect(await status(iurl, encodeCB58(tx.id))).toBe('Accepted');
  });

  it('two txs spending one UTXO: one wins, the other conflicts; the drop cache keeps answering', async () => {
    const coin = coins[3]!;
    const a = baseTx([{ utxo: coin, keys: [EWOQ_KEY] }], [out(1_000_000_000n - FEE, owners([OTHER]))]);
    const b = baseTx([{ utxo: coin, keys: [EWOQ_KEY] }], [out(1_000_000_000n - 2n * FEE, owners([OTHER]))]);
    await freshInterval();
    const h = await height(iurl);
    const replies = await Promise.all([a, b].map((tx) => post(iurl, tx)));
    const winner = replies[0]!.ok ? a : b;
    const loser = winner === a ? b : a;
    const loserReply = replies[winner === a ? 1 : 0]!;
    expect(replies.filter((r) => r.ok)).toHaveLength(1);
    expect(loserReply.message).toBe(`tx conflicts with other tx: ${encodeCB58(loser.id)}`);
    // Re-issuing the tx that sits in the mempool is a success; the loser gets its cached error.
    expect(await issue(iurl, winner)).toBe(encodeCB58(winner.id));
    expect(await issueError(iurl, loser)).toBe(`tx conflicts with other tx: ${encodeCB58(loser.id)}`);
    // A child of the pending winner is checked against the last accepted state: its input is missing.
    const pending = utxosOf(winner)[0]!;
    const child = baseTx([{ utxo: pending, keys: [OTHER_KEY] }], [out(amt(pending.output) - FEE, owners([OTHER]))]);
    const childError = `failed to verify transfer: failed to get utxo ${utxoIDString(pending)}: not found`;
    expect(await issueError(iurl, child)).toBe(childError);
    expect(await height(iurl)).toBe(h);

    expect(await accepted(encodeCB58(winner.id))).toBe('Accepted');
    expect(await status(iurl, encodeCB58(loser.id))).toBe('Unknown');
    // Both failures stay cached although the child would now verify.
    expect(await issueError(iurl, loser)).toBe(`tx conflicts with other tx: ${encodeCB58(loser.id)}`);
    expect(await issueError(iurl, child)).toBe(childError);
    expect(await status(iurl, encodeCB58(child.id))).toBe('Unknown');
  });

  async function post(u: string, tx: SignedTx): Promise<{ ok: boolean; message?: string }> {
    const r = await fetch(u, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.issueTx', params: { tx: txHex(tx.bytes) } }),
    });
    const j = (await r.json()) as { result?: unknown; error?: { message: string } };
    return j.error ? { ok: false, message: j.error.message } : { ok: true };
  }
});

// =============================================================================================
// wallet.issueTx keeps a FIFO of pending txs: while its head is undecided, later txs only queue.

describe('wallet.issueTx queue', () => {
  let wnode: TestNode;
  let wurl: string;
  beforeAll(async () => {
    wnode = await startTestNode({ dbType: 'memdb' });
    wurl = `${wnode.uri}/ext/bc/X`;
  });
  afterAll(() => wnode.stop());

  it('an invalid head tx that is never accepted holds back every later wallet tx', async () => {
    const w = new Ewoq(wurl);
    // Invalid: it spends a UTXO that does not exist (and so conflicts with nothing).
    const missing: UTXO = {
      utxoID: { txID: sha256(utf8('never created')), outputIndex: 0 },
      assetID: AVAX,
      output: { type: 7, amount: 5_000_000_000n, owners: owners() },
    };
    const bad = baseTx([{ utxo: missing, keys: [EWOQ_KEY] }], [out(5_000_000_000n - FEE)]);
    const walletIssue = async (tx: SignedTx) => (await call(`${wurl}/wallet`, 'wallet.issueTx', { tx: txHex(tx.bytes) })).txID;
    expect(await walletIssue(bad)).toBe(encodeCB58(bad.id));
    await sleep(200);
    const { tx: good } = w.build([out(1_000_000n, owners([OTHER]))]);
    expect(await walletIssue(good)).toBe(encodeCB58(good.id));
    expect(await walletIssue(good)).toBe(encodeCB58(good.id)); // a duplicate of a pending tx
    await sleep(500);
    expect(await status(wurl, encodeCB58(bad.id))).toBe('Unknown');
    expect(await status(wurl, encodeCB58(good.id))).toBe('Unknown');
    expect(await height(wurl)).toBe(0n);
  });
});

// =============================================================================================
// getUTXOs pagination (avax.GetPaginatedUTXOs over the linked-list address index).

describe('getUTXOs pagination', () => {
  let pnode: TestNode;
  let purl: string;
  let w: Ewoq;
  const PAGER_KEY = keyOf('pager');
  const PAGER = addressOfPrivateKey(PAGER_KEY);
  /** hex UTXO ID → index of the tx (= block) that created it */
  const blockOf = new Map<string, number>();
  // Three addresses by raw byte order: s0 and s2 share one older UTXO.
  const trio = ['p', 'q', 'r'].map((l) => addressOfPrivateKey(keyOf(`trio ${l}`))).sort(compareBytes);
  const [s0, s1, s2] = trio as [Uint8Array, Uint8Array, Uint8Array];
  const TOP = new Uint8Array(20).fill(0xff);
  let shared: UTXO;
  const trioUTXOs = new Map<string, Uint8Array[]>(); // hex ID → owners

  beforeAll(async () => {
    pnode = await startTestNode({ dbType: 'memdb' });
    purl = `${pnode.uri}/ext/bc/X`;
    w = new Ewoq(purl);
    for (let k = 0; k < 5; k++) {
      const { utxos } = await w.pay(Array.from({ length: 500 }, (_, i) => out(2_000_000n + BigInt(k * 500 + i), owners([PAGER]))));
      for (const u of utxos) if (eq(u.output.owners.addresses[0]!, PAGER)) blockOf.set(Buffer.from(inputID(u.utxoID)).toString('hex'), k);
    }
    const first = await w.pay([out(9_000_000n, owners([s0, s2]))]);
    shared = first.utxos.find((u) => u.output.owners.addresses.length === 2)!;
    const second = await w.pay([
      ...Array.from({ length: 7 }, (_, i) => out(3_000_000n + BigInt(i), owners([s0]))),
      ...Array.from({ length: 5 }, (_, i) => out(4_000_000n + BigInt(i), owners([s1]))),
      ...Array.from({ length: 3 }, (_, i) => out(5_000_000n + BigInt(i), owners([s2]))),
    ]);
    for (const u of [shared, ...second.utxos]) {
      if (u.output.owners.addresses.some((a) => trio.some((t) => eq(a, t))))
        trioUTXOs.set(Buffer.from(inputID(u.utxoID)).toString('hex'), u.output.owners.addresses);
    }
  });
  afterAll(() => pnode.stop());

  const page = (params: Record<string, unknown>) => call(purl, 'avm.getUTXOs', params);
  const hexID = (u: UTXO) => Buffer.from(inputID(u.utxoID)).toString('hex');

  it('pages through 2500 UTXOs of one address: each exactly once, newest block first', async () => {
    expect(blockOf.size).toBe(2500);
    const pages: any[] = [];
    let startIndex: { address: string; utxo: string } | undefined;
    for (let i = 0; i < 6; i++) {
      const r = await page({ addresses: [addr(PAGER)], limit: 1024, ...(startIndex ? { startIndex } : {}) });
      pages.push(r);
      if (r.numFetched === '0') break;
      startIndex = r.endIndex;
    }
    expect(pages.map((p) => p.numFetched)).toEqual(['1024', '1024', '452', '0']);
    const all: UTXO[] = [];
    for (const [i, p] of pages.entries()) {
      const us = parseUTXOs(p);
      expect(us).toHaveLength(Number(p.numFetched));
      expect(p.endIndex.address).toBe(addr(PAGER));
      // endIndex.utxo is the last UTXO searched; with nothing searched, the start UTXO.
      expect(p.endIndex.utxo).toBe(us.length > 0 ? utxoIDString(us.at(-1)!) : pages[i - 1].endIndex.utxo);
      all.push(...us);
    }
    const ids = all.map(hexID);
    expect(new Set(ids).size).toBe(2500);
    expect([...ids].sort()).toEqual([...blockOf.keys()].sort());
    const blocks = ids.map((id) => blockOf.get(id)!);
    expect(blocks[0]).toBe(4);
    expect(blocks.at(-1)).toBe(0);
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]!).toBeLessThanOrEqual(blocks[i - 1]!);
  });

  it('caps the limit at 1024 (0, absent and 5000 all mean 1024)', async () => {
    for (const limit of [0, 5000, 1024, undefined]) {
      const r = await page({ addresses: [addr(PAGER)], ...(limit === undefined ? {} : { limit }) });
      expect(r.numFetched).toBe('1024');
      expect(r.utxos).toHaveLength(1024);
    }
    expect((await page({ addresses: [addr(PAGER)], limit: 7 })).numFetched).toBe('7');
  });

  it('several addresses: de-duplicated, in raw byte order, each UTXO once per call', async () => {
    const r = await page({ addresses: [addr(s2), addr(s0), addr(s1), addr(s0)] });
    const us = parseUTXOs(r);
    expect(r.numFetched).toBe('16');
    expect(new Set(us.map(hexID)).size).toBe(16);
    expect(new Set(us.map(hexID))).toEqual(new Set(trioUTXOs.keys()));
    // The first requested address (by bytes) that owns a UTXO is where it is found.
    const rank = (u: UTXO) => Math.min(...u.output.owners.addresses.map((a) => trio.findIndex((t) => eq(t, a))).filter((i) => i >= 0));
    const ranks = us.map(rank);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i]!).toBeGreaterThanOrEqual(ranks[i - 1]!);
    expect(ranks.filter((x) => x === 0)).toHaveLength(8);
    expect(ranks.filter((x) => x === 1)).toHaveLength(5);
    expect(ranks.filter((x) => x === 2)).toHaveLength(3);
    // The last searched UTXO is s2's oldest: the shared one, skipped (already returned for s0).
    expect(r.endIndex).toEqual({ address: addr(s2), utxo: utxoIDString(shared) });
    expect(hexID(us.at(-1)!)).not.toBe(hexID(shared));
  });

  it('several addresses paged by 4: the shared UTXO comes back once more on a later page', async () => {
    const counts: string[] = [];
    const seen: string[] = [];
    let startIndex: { address: string; utxo: string } | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await page({ addresses: [addr(s0), addr(s1), addr(s2)], limit: 4, ...(startIndex ? { startIndex } : {}) });
      counts.push(r.numFetched);
      const ids = parseUTXOs(r).map(hexID);
      expect(new Set(ids).size).toBe(ids.length);
      seen.push(...ids);
      if (r.numFetched === '0') {
        expect(r.endIndex).toEqual(startIndex);
        break;
      }
      startIndex = r.endIndex;
    }
    expect(counts).toEqual(['4', '4', '4', '4', '1', '0']);
    expect(new Set(seen)).toEqual(new Set(trioUTXOs.keys()));
    const dup = seen.filter((id, i) => seen.indexOf(id) !== i);
    expect(dup).toEqual([hexID(shared)]);
  });

  it('starts at startIndex.address, skipping lower addresses', async () => {
    const r = await page({ addresses: [addr(s0), addr(s1), addr(s2)], startIndex: { address: addr(s1), utxo: EMPTY_ID } });
    const us = parseUTXOs(r);
    expect(r.numFetched).toBe('9');
    expect(us.every((u) => !u.output.owners.addresses.every((a) => eq(a, s0)))).toBe(true);
    expect(us.filter((u) => eq(u.output.owners.addresses[0]!, s1) && u.output.owners.addresses.length === 1)).toHaveLength(5);
  });

  it('carries the cursor over an address without UTXOs; with nothing searched it is the empty ID', async () => {
    const r = await page({ addresses: [addr(TOP), addr(s0)] });
    expect(r.numFetched).toBe('8');
    expect(r.endIndex).toEqual({ address: addr(TOP), utxo: utxoIDString(shared) });
    expect(await page({ addresses: [addr(TOP)] })).toEqual({ numFetched: '0', utxos: [], endIndex: { address: addr(TOP), utxo: EMPTY_ID }, encoding: 'hex' });
    const past = await page({ addresses: [addr(s0)], startIndex: { address: addr(TOP), utxo: utxoIDString(shared) } });
    expect(past).toEqual({ numFetched: '0', utxos: [], endIndex: { address: addr(TOP), utxo: utxoIDString(shared) }, encoding: 'hex' });
  });

  it('restarts from the head when the start UTXO no longer exists', async () => {
    const first = parseUTXOs(await page({ addresses: [addr(PAGER)], limit: 10 }));
    const gone = first[9]!;
    await issue(purl, baseTx([{ utxo: gone, keys: [PAGER_KEY] }], [out(amt(gone.output) - FEE)]));
    const r = await page({ addresses: [addr(PAGER)], limit: 10, startIndex: { address: addr(PAGER), utxo: utxoIDString(gone) } });
    const again = parseUTXOs(r);
    expect(again.slice(0, 9).map(hexID)).toEqual(first.slice(0, 9).map(hexID));
    expect(again.map(hexID)).not.toContain(hexID(gone));
    expect(r.endIndex.utxo).toBe(utxoIDString(again.at(-1)!));
  });
});

// =============================================================================================
// getBalance / getAllBalances rules, on a fresh node with known amounts.

describe('balances', () => {
  let bnode: TestNode;
  let burl: string;
  let change: bigint;
  let assetID: string;
  let assetTx: SignedTx;
  let payTx: SignedTx;
  const M = 7_000_000_000n; // 2-of-2 ewoq+other
  const P = 11_000_000_000n; // 1-of-2 ewoq+other
  const T = 13_000_000_000n; // ewoq, time-locked
  const Q = 1_234_567n; // the new asset
  beforeAll(async () => {
    bnode = await startTestNode({ dbType: 'memdb' });
    burl = `${bnode.uri}/ext/bc/X`;
    const w = new Ewoq(burl);
    payTx = (await w.pay([out(M, owners([EWOQ, OTHER], 2)), out(P, owners([EWOQ, OTHER], 1)), out(T, owners([EWOQ], 1, nowSeconds() + 3600n))])).tx;
    const c1 = w.coin;
    change = amt(c1.output) - FEE;
    assetTx = sign(
      {
        type: 1,
        base: base({ inputs: [inp(c1)], outputs: [out(change)] }),
        name: utf8('Test Coin'),
        symbol: utf8('TST'),
        denomination: 2,
        initialStates: [
          {
            fxIndex: 0,
            outputs: [
              { type: 6, owners: owners() },
              { type: 7, amount: Q, owners: owners() },
            ],
          },
        ],
      },
      [[EWOQ_KEY]],
    );
    await issue(burl, assetTx);
    assetID = encodeCB58(assetTx.id);
  });
  afterAll(() => bnode.stop());

  const balance = (address: string, asset: string, includePartial = false) => call(burl, 'avm.getBalance', { address, assetID: asset, includePartial });
  const sortedBalances = async (address: string, includePartial = false) => {
    const r = await call(burl, 'avm.getAllBalances', { address, includePartial });
    return [...r.balances].sort((a: { asset: string }, b: { asset: string }) => a.asset.localeCompare(b.asset));
  };
  const ref = (tx: SignedTx, outputIndex: number) => ({ txID: encodeCB58(tx.id), outputIndex });

  it('getBalance counts only single-address, unlocked TransferOutputs unless includePartial', async () => {
    expect(change).toBe(GENESIS_AMOUNT - M - P - T - 2n * FEE);
    expect(await balance(EWOQ_ADDR, 'AVAX')).toEqual({ balance: String(change), utxoIDs: [ref(assetTx, 0)] });
    const partial = await balance(EWOQ_ADDR, 'AVAX', true);
    expect(partial.balance).toBe(String(change + M + P + T));
    const at = (a: bigint) =>
      ref(
        payTx,
        payTx.unsigned.base.outputs.findIndex((o) => amt(o.out) === a),
      );
    expect(partial.utxoIDs).toHaveLength(4);
    expect(partial.utxoIDs).toEqual(expect.arrayContaining([ref(assetTx, 0), at(M), at(P), at(T)]));
    expect(await balance(addr(OTHER), 'AVAX')).toEqual({ balance: '0', utxoIDs: [] });
    expect((await balance(addr(OTHER), AVAX_ID, true)).balance).toBe(String(M + P));
  });

  it('a new asset is counted by its ID; its mint output never is', async () => {
    // Index 0 is the change; the initial state's outputs follow: 1 the mint output, 2 the transfer.
    expect(await balance(EWOQ_ADDR, assetID)).toEqual({ balance: String(Q), utxoIDs: [ref(assetTx, 2)] });
    expect(await balance(EWOQ_ADDR, assetID, true)).toEqual({ balance: String(Q), utxoIDs: [ref(assetTx, 2)] });
    expect(await call(burl, 'avm.getAssetDescription', { assetID })).toEqual({ assetID, name: 'Test Coin', symbol: 'TST', denomination: '2' });
    const utxos = await ownedUTXOs(burl, EWOQ);
    expect(utxos.some((u) => u.output.type === 6 && eq(u.assetID, assetTx.id))).toBe(true);
  });

  it('getAllBalances shows AVAX as "AVAX" and new assets by cb58 ID', async () => {
    expect(await sortedBalances(EWOQ_ADDR)).toEqual(
      [
        { asset: 'AVAX', balance: String(change) },
        { asset: assetID, balance: String(Q) },
      ].sort((a, b) => a.asset.localeCompare(b.asset)),
    );
    expect(await sortedBalances(EWOQ_ADDR, true)).toEqual(
      [
        { asset: 'AVAX', balance: String(change + M + P + T) },
        { asset: assetID, balance: String(Q) },
      ].sort((a, b) => a.asset.localeCompare(b.asset)),
    );
    expect(await call(burl, 'avm.getAllBalances', { address: addr(OTHER) })).toEqual({ balances: [] });
    expect(await sortedBalances(addr(OTHER), true)).toEqual([{ asset: 'AVAX', balance: String(M + P) }]);
  });

  it('multi-address UTXOs are indexed under every owner', async () => {
    const other = await ownedUTXOs(burl, OTHER);
    expect(other.map((u) => amt(u.output)).sort()).toEqual([M, P].sort());
  });
});
