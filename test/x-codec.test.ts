// The X-Chain codec against avalanchego's own byte vectors (genesis, its serialization tests, the
// docs' index example, an avalanchejs-built tx), every parse error the codec can report, and the
// exact JSON text of avm.getTx / avm.getBlock.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import {
  blockJson,
  buildBlock,
  buildTx,
  CodecError,
  compareBytes,
  goJsonString,
  marshalUnsignedTx,
  marshalUTXO,
  operationOutputs,
  operationSortKey,
  outputAddresses,
  outputSortKey,
  parseBlock,
  parseTx,
  parseUTXO,
  txInputIDs,
  txJson,
  txOutputs,
  utxoInputID,
} from '../src/vms/avm/codec/index.js';
import type { FxValue, Operation, OperationBody, Output, OutputOwners, SignedTx, UnsignedTx } from '../src/vms/avm/types.js';
import { encodeCB58 } from '../src/encoding/cb58.js';
import { decodeHex } from '../src/encoding/hex.js';

const h = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const cb58 = (bytes: Uint8Array) => encodeCB58(bytes);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return new Uint8Array(b);
};
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Bytes with a u32 replaced at `offset`, after checking what was there (guards the offsets). */
function patchU32(bytes: Uint8Array, offset: number, expected: number, value: number): Uint8Array {
  expect(Buffer.from(bytes).readUInt32BE(offset)).toBe(expected);
  const out = bytes.slice();
  Buffer.from(out.buffer, out.byteOffset).writeUInt32BE(value >>> 0, offset);
  return out;
}

function expectCodecError(fn: () => unknown, message: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(CodecError);
  expect((caught as Error).message).toBe(message);
}

// --- Reference vectors -------------------------------------------------------------------------

const AVAX = h('dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db');
const X_CHAIN = h('d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf');
const EWOQ = h('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c');
const OTHER = h('e0cfe8cae22827d032805ded484e393ce51cbedb'); // X-local1ur873…
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const OTHER_X = 'X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu';
const SECP = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ';
const NFT = 'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT';
const PROPERTY = 'rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy';
const EMPTY_ID = '11111111111111111111111111111111LpoYY';

/** The local AVAX CreateAssetTx as avm.getTx returns it with hex (checksummed). */
const GENESIS_TX = decodeHex(
  '0x000000000001000030390000000000000000000000000000000000000000000000000000000000000000000000000000000000000028' +
    'b3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d00094176616c616e63686500044156' +
    '41580900000001000000000000000200000007002386f26fc1000000000000000000000000000100000001e0cfe8cae22827d032805d' +
    'ed484e393ce51cbedb000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861' +
    'e1b29c00000000ba53f2db',
  'hex',
);

/** ewoq's genesis UTXO as avm.getUTXOs returns it with hex (checksummed). */
const EWOQ_UTXO = decodeHex(
  '0x0000dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000001dbcf890f77f49b96857648b72b77f9f8' +
    '2937f28a68704af05da0dc12ba53f2db000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09' +
    'f1fe884f6861e1b29cf57b8be2',
  'hex',
);

/** The ExportTx of avalanchego's indexer docs example (index.getContainerByID, checksummed hex). */
const DOCS_EXPORT_TX = decodeHex(
  '0x00000000000400003039d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf00000001dbcf890f77f49b96' +
    '857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000070429ccc5c5eb3b8000000000000000000000000100000001' +
    '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba' +
    '53f2db00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000050429d069189e000000000001' +
    '0000000000000000c85fc1980a77c5da78fe5486233fc09a769bb812bcb2cc548cf9495d046b3f1b00000001dbcf890f77f49b96857648' +
    'b72b77f9f82937f28a68704af05da0dc12ba53f2db00000007000003a352a38240000000000000000000000001000000013cb7d384' +
    '2e8cee6a0ebd09f1fe884f6861e1b29c0000000100000009000000011cdb75d4e0b0aeaba2ebc1ef208373fedc1ebbb498f8385ad6' +
    'fb537211d1523a70d903b884da77d963d56f163191295589329b5710113234934d0fd59c01676b00b63d2108',
  'hex',
);

/** A BaseTx built and signed offline by @avalabs/avalanchejs 5.2.0 (baselines §2e). */
const AVALANCHEJS_TX = h(
  '00000000000000000001ed5f38341e436e5d46e2bb00b45d62ae97d1b050c64bc634ae10626739e35c4b0000000221e67317cbc4be2aeb' +
    '00677ad6462778a8f52274b9d605df2591b23027a87dff00000007000000003b9aca000000000000000000000000010000000111111111' +
    '1111111111111111111111111111111121e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff00000007000000' +
    '021861d7c0000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000001abababababababababab' +
    'abababababababababababababababababababababab0000000021e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027' +
    'a87dff0000000500000002540be400000000010000000000000008626173656c696e6500000001000000090000000134cdfd274cd7622e' +
    '806c03edd166a777edfb48c33c0c1e4b68afc09b2b4549945de5023b6c05456e9c86b94a3aac04200cc304de0b3449681b249fee4cf51b' +
    '9200',
);

/**
 * avalanchego vms/avm/txs/*_test.go serialization vectors: the unsigned form (no credentials), and
 * the signed form the tests derive from it (2 credentials of 2 identical signatures each).
 */
const GO_VECTORS = [
  {
    name: 'BaseTx',
    unsignedID: 'zeqT8FTnRAxes7QQQYkaWhNkHavd9d6aCdH8TQu2Mx5KEydEz',
    signedID: 'QnTUuie2qe6BKyYrC2jqd73bJ828QNhYnZbdA2HWsnVRPjBfV',
    sig: '7d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d74300',
    hex:
      '0000000000000000000a050403020100000000000000000000000000000000000000000000000000000000000001010203000000000000' +
      '000000000000000000000000000000000000000000000000000007000000000000303900000000000000000000000100000001fceda8f9' +
      '0fcb5d30614b99d79fc4baa29307762600000001fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0000000' +
      '01010203000000000000000000000000000000000000000000000000000000000000000005000000000000d43100000001000000020000' +
      '00040001020300000000',
  },
  {
    name: 'ImportTx',
    unsignedID: '9wdPb5rsThXYLX4WxkNeyYrNMfDE5cuWLgifSjxKiA2dCmgCZ',
    signedID: 'pCW7sVBytzdZ1WrqzGY1DvA2S9UaMr72xpUMxVyx1QHBARNYx',
    sig: '8cc7dc8c11d3759e16a59fd29c64d71f9bad1a623398c7af6702c5e0758e62cf156d99f54e71b8f48b5bbf0c59627934971a1f499b0a4fbf95fc3139464ea1af00',
    hex:
      '00000000000300000002ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa999999998888888800000000000000000000000400' +
      '0102031f8f9f0f1e8e9e0e2d7dadfd2c7cacfc3b6bbbeb3a6abaea4959c9d94858c8d8000000010f2f4f6f8eaeceee0d2d4d6d8cacccec' +
      '0b2b4b6b8aaacaea0929496988a8c8e8000000001f3f5f7f9ebedefe1d3d5d7d9cbcdcfc1b3b5b7b9abadafa1939597998b8d8f8000000' +
      '0500000000000003e8000000010000000000000000',
  },
  {
    name: 'ExportTx',
    unsignedID: '2PKJE4TrKYpgynBFCpNPpV3GHK7d9QTgrL5mpYG6abHKDvNBG3',
    signedID: '2oG52e7Cb7XF1yUzv3pRFndAypgbpswWRcSAKD5SH5VgaiTm5D',
    sig: '61dd9bffc049956ed7f8cd92ecda036eacb8169e5383c03a2e885b5fc6ef2ebe5059728d0fa65966932888b4563b777c59a58fe02af3cc3132effe7d3d9f149401',
    hex:
      '00000000000400000002ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa999999998888888800000000000000010f2f4f6f8e' +
      'aeceee0d2d4d6d8cacccec0b2b4b6b8aaacaea0929496988a8c8e8000000001f3f5f7f9ebedefe1d3d5d7d9cbcdcfc1b3b5b7b9abadafa' +
      '1939597998b8d8f80000000500000000000003e8000000010000000000000004000102031f8f9f0f1e8e9e0e2d7dadfd2c7cacfc3b6bbb' +
      'eb3a6abaea4959c9d94858c8d80000000000000000',
  },
];

/** The two CreateAssetTx vectors of create_asset_tx_test.go (no ID asserted there). */
const GO_CREATE_ASSET_VECTORS = [
  '00000000000100000002ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa999999998888888800000001000102030405060708' +
    '090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f000000070000000000003039000000000000d431000000010000000251025c61' +
    'fbcfc078f69334f834be6dd26d55a955c3344128e060128ede3523a24a461c8943ab085900000001f1e1d1c1b1a1918171615141312111' +
    '01f0e0d0c0b0a09080706050403020100000000005000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0000' +
    '000500000000075bcd1500000002000000030000000700000004000102030010566f6c6174696c69747920496e64657800035649580200' +
    '0000010000000000000001000000070000000000003039000000000000d431000000010000000251025c61fbcfc078f69334f834be6dd2' +
    '6d55a955c3344128e060128ede3523a24a461c8943ab085900000000',
  '0000000000010000000a050403020100000000000000000000000000000000000000000000000000000000000003010203000000000000' +
    '000000000000000000000000000000000000000000000000000007000012309ce5400000000000000000000000000100000001fceda8f9' +
    '0fcb5d30614b99d79fc4baa293077626010203000000000000000000000000000000000000000000000000000000000000000007000012' +
    '309ce54000000000000000000000000001000000016ead693c17abb1be422bb50b30b9711ff98d667e0102030000000000000000000000' +
    '00000000000000000000000000000000000000000007000012309ce5400000000000000000000000000100000001f2420846876e69f473' +
    'dda256172967e992f0ee3100000000000000040001020300046e616d65000473796d620000000001000000000000000100000006000000' +
    '00000000000000000100000001fceda8f90fcb5d30614b99d79fc4baa29307762600000000',
].map(h);

/** The local X genesis block (reference §6.7, checksummed hex), derived from the stop vertex and CortinaTime. */
const GENESIS_BLOCK = decodeHex(
  '0x000000000014054f478489b451cecef53155c24f04f441912cc34487db87f16b13a2f4fec8990000000000000000000000005fcb13d000' +
    '0000000000000000000000000000000000000000000000000000000000000000000000f11be722',
  'hex',
);

describe('reference vectors', () => {
  it('parses the local AVAX genesis CreateAssetTx and rebuilds it byte for byte', () => {
    const tx = parseTx(GENESIS_TX);
    expect(cb58(tx.id)).toBe('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe');
    expect(tx.bytes.length).toBe(224);
    expect(hexOf(tx.unsignedBytes)).toBe(hexOf(GENESIS_TX.subarray(0, 220))); // all but the u32 0 credentials
    expect(tx.credentials).toEqual([]);
    const u = tx.unsigned;
    if (u.type !== 1) throw new Error('not a CreateAssetTx');
    expect(u.base.networkID).toBe(12345);
    expect(Buffer.from(u.name).toString()).toBe('Avalanche');
    expect(Buffer.from(u.symbol).toString()).toBe('AVAX');
    expect(u.denomination).toBe(9);
    expect(u.initialStates).toEqual([
      {
        fxIndex: 0,
        outputs: [
          { type: 7, amount: 10_000_000_000_000_000n, owners: { locktime: 0n, threshold: 1, addresses: [OTHER] } },
          { type: 7, amount: 300_000_000_000_000_000n, owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } },
        ],
      },
    ]);
    const rebuilt = buildTx(tx.unsigned, tx.credentials);
    expect(hexOf(rebuilt.bytes)).toBe(hexOf(GENESIS_TX));
    expect(hexOf(rebuilt.unsignedBytes)).toBe(hexOf(tx.unsignedBytes));
    expect(hexOf(marshalUnsignedTx(tx.unsigned))).toBe(hexOf(tx.unsignedBytes));
    expect(cb58(rebuilt.id)).toBe(cb58(tx.id));
  });

  it('round-trips the ewoq genesis UTXO and names it by its UTXO ID', () => {
    const utxo = parseUTXO(EWOQ_UTXO);
    expect(utxo.utxoID.outputIndex).toBe(1);
    expect(hexOf(utxo.utxoID.txID)).toBe(hexOf(AVAX));
    expect(hexOf(utxo.assetID)).toBe(hexOf(AVAX));
    expect(utxo.output).toEqual({ type: 7, amount: 300_000_000_000_000_000n, owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } });
    expect(hexOf(marshalUTXO(utxo))).toBe(hexOf(EWOQ_UTXO));
    expect(cb58(utxoInputID(utxo.utxoID))).toBe('Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc');
  });

  it('derives the genesis UTXOs from the genesis tx', () => {
    const { utxos, exported } = txOutputs(parseTx(GENESIS_TX));
    expect(exported).toEqual([]);
    expect(utxos.map((u) => cb58(utxoInputID(u.utxoID)))).toEqual([
      'poAkNdHbbY1vtHWvs9TYKLzuLMMkVFDe6ERXRE6VtVZdDLiGZ',
      'Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc',
    ]);
    expect(hexOf(marshalUTXO(utxos[1]!))).toBe(hexOf(EWOQ_UTXO));
  });

  for (const v of GO_VECTORS) {
    it(`matches avalanchego's ${v.name} serialization test, unsigned and signed`, () => {
      const unsignedForm = h(v.hex);
      const tx = parseTx(unsignedForm);
      expect(cb58(tx.id)).toBe(v.unsignedID);
      expect(hexOf(buildTx(tx.unsigned, []).bytes)).toBe(v.hex);

      const cred = concat(u32(9), u32(2), h(v.sig), h(v.sig));
      const signedForm = concat(unsignedForm.subarray(0, unsignedForm.length - 4), u32(2), cred, cred);
      const signed = parseTx(signedForm);
      expect(cb58(signed.id)).toBe(v.signedID);
      expect(hexOf(signed.unsignedBytes)).toBe(hexOf(unsignedForm.subarray(0, unsignedForm.length - 4)));
      expect(signed.credentials).toEqual([
        { type: 9, signatures: [h(v.sig), h(v.sig)] },
        { type: 9, signatures: [h(v.sig), h(v.sig)] },
      ]);
      expect(hexOf(buildTx(signed.unsigned, signed.credentials).bytes)).toBe(hexOf(signedForm));
    });
  }

  it("round-trips avalanchego's CreateAssetTx serialization vectors", () => {
    for (const bytes of GO_CREATE_ASSET_VECTORS) {
      const tx = parseTx(bytes);
      expect(tx.unsigned.type).toBe(1);
      expect(hexOf(buildTx(tx.unsigned, tx.credentials).bytes)).toBe(hexOf(bytes));
    }
    const again = parseTx(GO_CREATE_ASSET_VECTORS[1]!).unsigned;
    if (again.type !== 1) throw new Error('not a CreateAssetTx');
    expect(Buffer.from(again.name).toString()).toBe('name');
    expect(Buffer.from(again.symbol).toString()).toBe('symb');
    expect(again.initialStates[0]!.outputs[0]!.type).toBe(6);
  });

  it('parses the avalanchejs-built BaseTx and keeps its signed prefix', () => {
    expect(AVALANCHEJS_TX.length).toBe(387);
    const tx = parseTx(AVALANCHEJS_TX);
    expect(cb58(tx.id)).toBe('2BHJcLpRRUn9iHZ8vCPTXYVzFpTtiLTJkANnZRexWXA8Jzr4Y1');
    expect(tx.unsignedBytes.length).toBe(310);
    expect(Buffer.from(tx.unsigned.base.memo).toString()).toBe('baseline');
    expect(tx.unsigned.base.outputs.map((o) => (o.out.type === 7 ? o.out.amount : 0n))).toEqual([1_000_000_000n, 8_999_000_000n]);
    expect(hexOf(buildTx(tx.unsigned, tx.credentials).bytes)).toBe(hexOf(AVALANCHEJS_TX));
  });

  it('copies what it parses: values never alias a Buffer the caller reuses', () => {
    const input = Buffer.from(DOCS_EXPORT_TX);
    const tx = parseTx(input);
    const utxoInput = Buffer.from(EWOQ_UTXO);
    const utxo = parseUTXO(utxoInput);
    const blockInput = Buffer.from(buildBlock({ parentID: AVAX, height: 1n, time: 2n, txs: [tx] }).bytes);
    const block = parseBlock(blockInput);
    input.fill(0);
    utxoInput.fill(0);
    blockInput.fill(0);
    expect(cb58(sha256(tx.bytes))).toBe('6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY');
    expect(hexOf(tx.unsigned.base.blockchainID)).toBe(hexOf(X_CHAIN));
    expect(hexOf(utxo.assetID)).toBe(hexOf(AVAX));
    expect(hexOf(block.parentID)).toBe(hexOf(AVAX));
    expect(hexOf(sha256(block.bytes))).toBe(hexOf(block.id));
    expect(Buffer.isBuffer(tx.unsigned.base.blockchainID)).toBe(false);
  });

  it("parses the docs' index example ExportTx, which spends ewoq's genesis UTXO", () => {
    const tx = parseTx(DOCS_EXPORT_TX);
    expect(cb58(tx.id)).toBe('6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY');
    expect(tx.unsigned.type).toBe(4);
    expect(hexOf(buildTx(tx.unsigned, tx.credentials).bytes)).toBe(hexOf(DOCS_EXPORT_TX));
    const { spent, imported } = txInputIDs(tx);
    expect(spent.map(cb58)).toEqual(['Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc']);
    expect(imported).toEqual([]);
    const { utxos, exported } = txOutputs(tx);
    expect(utxos.map((u) => u.utxoID.outputIndex)).toEqual([0]);
    expect(exported.map((u) => u.utxoID.outputIndex)).toEqual([1]); // numbered after the base outputs
    expect(exported[0]!.output).toEqual({ type: 7, amount: 4_000_001_000_000n, owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } });
  });
});

// --- Blocks ------------------------------------------------------------------------------------

describe('blocks', () => {
  const parentID = GENESIS_BLOCK.subarray(6, 38);

  it('builds the local X genesis block (stop vertex parent, CortinaTime, no txs)', () => {
    expect(cb58(parentID)).toBe('3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY');
    const block = buildBlock({ parentID, height: 0n, time: 1607144400n, txs: [] });
    expect(hexOf(block.bytes)).toBe(hexOf(GENESIS_BLOCK));
    expect(cb58(block.id)).toBe('2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst');
    const parsed = parseBlock(GENESIS_BLOCK);
    expect(cb58(parsed.id)).toBe(cb58(block.id));
    expect(parsed.height).toBe(0n);
    expect(parsed.time).toBe(1607144400n);
    expect(parsed.txs).toEqual([]);
  });

  it('round-trips a block of txs, each keeping the bytes and ID it was issued with', () => {
    const txs = [parseTx(DOCS_EXPORT_TX), parseTx(AVALANCHEJS_TX)];
    const block = buildBlock({ parentID, height: 1n, time: 1_700_000_000n, txs });
    // The txs sit in the block without their own u16 codec version.
    expect(block.bytes.length).toBe(2 + 4 + 32 + 8 + 8 + 32 + 4 + (DOCS_EXPORT_TX.length - 2) + (AVALANCHEJS_TX.length - 2));
    expect(hexOf(block.bytes.subarray(90, 90 + DOCS_EXPORT_TX.length - 2))).toBe(hexOf(DOCS_EXPORT_TX.subarray(2)));
    expect(hexOf(block.merkleRoot)).toBe('00'.repeat(32));
    const parsed = parseBlock(block.bytes);
    expect(cb58(parsed.id)).toBe(cb58(block.id));
    expect(hexOf(parsed.bytes)).toBe(hexOf(block.bytes));
    expect(parsed.height).toBe(1n);
    expect(parsed.time).toBe(1_700_000_000n);
    expect(parsed.txs.map((t) => cb58(t.id))).toEqual([
      '6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY',
      '2BHJcLpRRUn9iHZ8vCPTXYVzFpTtiLTJkANnZRexWXA8Jzr4Y1',
    ]);
    expect(hexOf(parsed.txs[0]!.bytes)).toBe(hexOf(DOCS_EXPORT_TX));
    expect(hexOf(parsed.txs[1]!.unsignedBytes)).toBe(hexOf(txs[1]!.unsignedBytes));
    expect(parsed.txs[0]!.unsigned).toEqual(txs[0]!.unsigned);
  });
});

// --- Parse errors ------------------------------------------------------------------------------

const INSUFFICIENT = 'packer has insufficient length for input';

describe('parse errors', () => {
  it('checks the size limit, then the codec version', () => {
    expectCodecError(() => parseTx(new Uint8Array(256 * 1024 + 1)), 'byte array exceeds maximum length: 262145 > 262144');
    // At the limit the bytes are read: all zeros is an empty BaseTx with no credentials, then padding.
    expectCodecError(() => parseTx(new Uint8Array(256 * 1024)), 'trailing buffer space: read 58 provided 262144');
    expectCodecError(() => parseTx(new Uint8Array()), "couldn't unpack codec version");
    expectCodecError(() => parseTx(h('00')), "couldn't unpack codec version");
    expectCodecError(() => parseTx(concat(h('0001'), GENESIS_TX.subarray(2))), 'unknown codec version');
    expectCodecError(() => parseTx(concat(h('ffff'), GENESIS_TX.subarray(2))), 'unknown codec version');
    expectCodecError(() => parseBlock(new Uint8Array()), "couldn't unpack codec version");
    expectCodecError(() => parseUTXO(h('0100')), 'unknown codec version');
  });

  it('reports trailing bytes', () => {
    expectCodecError(() => parseTx(concat(GENESIS_TX, h('00'))), 'trailing buffer space: read 224 provided 225');
    expectCodecError(() => parseUTXO(concat(EWOQ_UTXO, h('0000'))), 'trailing buffer space: read 118 provided 120');
    expectCodecError(() => parseBlock(concat(GENESIS_BLOCK, h('ff'))), 'trailing buffer space: read 90 provided 91');
  });

  it('reports truncation with the wrapper of the field being read', () => {
    const rows: [number, string][] = [
      [2, `couldn't unmarshal interface: ${INSUFFICIENT}`], // tx type ID
      [5, `couldn't unmarshal interface: ${INSUFFICIENT}`],
      [8, `couldn't unmarshal uint32: ${INSUFFICIENT}`], // networkID
      [20, INSUFFICIENT], // blockchainID: a fixed array is not wrapped
      [44, `couldn't unmarshal slice: ${INSUFFICIENT}`], // output count
      [60, INSUFFICIENT], // memo bytes
      [95, `couldn't unmarshal string: ${INSUFFICIENT}`], // name length
      [100, `couldn't unmarshal string: ${INSUFFICIENT}`], // name bytes
      [111, `couldn't unmarshal uint8: ${INSUFFICIENT}`], // denomination
      [126, `couldn't unmarshal interface: ${INSUFFICIENT}`], // initial-state output type ID
      [130, `couldn't unmarshal uint64: ${INSUFFICIENT}`], // amount
      [150, `couldn't unmarshal slice: ${INSUFFICIENT}`], // address count
      [160, INSUFFICIENT], // address bytes
      [222, `couldn't unmarshal slice: ${INSUFFICIENT}`], // credential count
    ];
    for (const [length, message] of rows) expectCodecError(() => parseTx(GENESIS_TX.subarray(0, length)), message);
    for (let length = 0; length < GENESIS_TX.length; length++) {
      expect(() => parseTx(GENESIS_TX.subarray(0, length))).toThrow(CodecError);
    }
    for (let length = 0; length < DOCS_EXPORT_TX.length; length++) {
      expect(() => parseTx(DOCS_EXPORT_TX.subarray(0, length))).toThrow(CodecError);
    }
    // Signature bytes are a fixed array: unwrapped.
    expectCodecError(() => parseTx(DOCS_EXPORT_TX.subarray(0, DOCS_EXPORT_TX.length - 1)), INSUFFICIENT);
    expectCodecError(() => parseBlock(GENESIS_BLOCK.subarray(0, 50)), `couldn't unmarshal uint64: ${INSUFFICIENT}`);
    expectCodecError(() => parseBlock(concat(GENESIS_BLOCK.subarray(0, 86), u32(1))), `couldn't unmarshal interface: ${INSUFFICIENT}`);
    expectCodecError(() => parseUTXO(EWOQ_UTXO.subarray(0, 36)), `couldn't unmarshal uint32: ${INSUFFICIENT}`); // output index
    expectCodecError(() => parseUTXO(EWOQ_UTXO.subarray(0, 40)), INSUFFICIENT); // asset ID
  });

  it('reads a count larger than the data element by element, and refuses counts above MaxInt32', () => {
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 50, 40, 1000)), INSUFFICIENT); // memo length
    // A third initial-state output reads the credential count (0) as its type ID: a BaseTx.
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 120, 2, 3)), "couldn't unmarshal interface: *txs.BaseTx does not implement interface verify.State");
    expectCodecError(
      () => parseTx(patchU32(GENESIS_TX, 112, 1, 0x80000000)),
      'max slice length exceeded; array length, 2147483648, exceeds maximum length, 2147483647',
    );
    expectCodecError(
      () => parseTx(patchU32(GENESIS_TX, 50, 40, 0xffffffff)),
      'max slice length exceeded; array length, 4294967295, exceeds maximum length, 2147483647',
    );
  });

  it('reports unknown type IDs', () => {
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 2, 1, 21)), "couldn't unmarshal interface: unknown type ID 21");
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 2, 1, 0xffffffff)), "couldn't unmarshal interface: unknown type ID 4294967295");
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 124, 7, 99)), "couldn't unmarshal interface: unknown type ID 99");
    expectCodecError(() => parseBlock(patchU32(GENESIS_BLOCK, 2, 20, 21)), "couldn't unmarshal interface: unknown type ID 21");
  });

  it('refuses a registered type in a slot whose interface it does not implement', () => {
    const notImpl = (type: string, intf: string) => `couldn't unmarshal interface: ${type} does not implement interface ${intf}`;
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 2, 1, 20)), notImpl('*block.StandardBlock', 'txs.UnsignedTx'));
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 2, 1, 7)), notImpl('*secp256k1fx.TransferOutput', 'txs.UnsignedTx'));
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 124, 7, 5)), notImpl('*secp256k1fx.TransferInput', 'verify.State'));
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 124, 7, 8)), notImpl('*secp256k1fx.MintOperation', 'verify.State'));
    expectCodecError(() => parseTx(patchU32(GENESIS_TX, 124, 7, 19)), notImpl('*propertyfx.Credential', 'verify.State'));
    // Docs ExportTx: outputs[0] type at 78, inputs[0] type at 198, credentials[0] type at 342.
    expectCodecError(() => parseTx(patchU32(DOCS_EXPORT_TX, 78, 7, 6)), notImpl('*secp256k1fx.MintOutput', 'avax.TransferableOut'));
    expectCodecError(() => parseTx(patchU32(DOCS_EXPORT_TX, 78, 7, 11)), notImpl('*nftfx.TransferOutput', 'avax.TransferableOut'));
    expectCodecError(() => parseTx(patchU32(DOCS_EXPORT_TX, 198, 5, 7)), notImpl('*secp256k1fx.TransferOutput', 'avax.TransferableIn'));
    expectCodecError(() => parseTx(patchU32(DOCS_EXPORT_TX, 342, 9, 0)), notImpl('*txs.BaseTx', 'verify.Verifiable'));
    expectCodecError(() => parseTx(patchU32(DOCS_EXPORT_TX, 342, 9, 20)), notImpl('*block.StandardBlock', 'verify.Verifiable'));
    expectCodecError(() => parseUTXO(patchU32(EWOQ_UTXO, 70, 7, 9)), notImpl('*secp256k1fx.Credential', 'verify.State'));
    expectCodecError(() => parseBlock(patchU32(GENESIS_BLOCK, 2, 20, 0)), notImpl('*txs.BaseTx', 'block.Block'));
    const opTx = buildTx(operationTx([{ assetID: AVAX, utxoIDs: [{ txID: AVAX, outputIndex: 0 }], op: { type: 18, input: [0] } }]), []);
    expectCodecError(() => parseTx(patchU32(opTx.bytes, 130, 18, 7)), notImpl('*secp256k1fx.TransferOutput', 'fxs.FxOperation'));
    expectCodecError(() => parseTx(patchU32(opTx.bytes, 130, 18, 9)), notImpl('*secp256k1fx.Credential', 'fxs.FxOperation'));
  });

  it('accepts any fx type in a credential slot (it fails verification later, not parsing)', () => {
    const asNft = parseTx(patchU32(DOCS_EXPORT_TX, 342, 9, 14));
    expect(asNft.credentials.map((c) => c.type)).toEqual([14]);
    const creds: FxValue[] = [
      { type: 5, amount: 1n, sigIndices: [0] },
      { type: 7, amount: 2n, owners: owners() },
      { type: 18, input: [] },
    ];
    const tx = buildTx(parseTx(DOCS_EXPORT_TX).unsigned, creds);
    expect(parseTx(tx.bytes).credentials).toEqual(creds);
  });
});

// --- Every fx type -----------------------------------------------------------------------------

function owners(address = EWOQ, locktime = 0n, threshold = 1): OutputOwners {
  return { locktime, threshold, addresses: [address] };
}

function operationTx(operations: Operation[]): UnsignedTx {
  return { type: 2, base: { networkID: 12345, blockchainID: X_CHAIN, outputs: [], inputs: [], memo: new Uint8Array() }, operations };
}

const SIG = h('1cdb75d4e0b0aeaba2ebc1ef208373fedc1ebbb498f8385ad6fb537211d1523a70d903b884da77d963d56f163191295589329b5710113234934d0fd59c01676b00');
const ALL_OPS: OperationBody[] = [
  {
    type: 8,
    mintInput: [0],
    mintOutput: owners(),
    transferOutput: { amount: 18_446_744_073_709_551_615n, owners: owners(EWOQ, 9_007_199_254_740_993n) },
  },
  { type: 12, mintInput: [0], groupID: 7, payload: h('68656c6c6f'), outputs: [owners(), owners(OTHER)] },
  { type: 13, input: [0], output: { groupID: 1, payload: new Uint8Array(), owners: owners() } },
  { type: 17, mintInput: [0], mintOutput: owners(), ownedOutput: { locktime: 0n, threshold: 0, addresses: [] } },
  { type: 18, input: [0, 1] },
];
const ALL_OPS_TX = operationTx(ALL_OPS.map((op, i) => ({ assetID: AVAX, utxoIDs: [{ txID: AVAX, outputIndex: i + 2 }], op })));
const ALL_OPS_CREDS: FxValue[] = [
  { type: 9, signatures: [SIG] },
  { type: 14, signatures: [] },
  { type: 19, signatures: [SIG, SIG] },
  { type: 7, amount: 5n, owners: owners() },
  { type: 5, amount: 1n, sigIndices: [3] },
];
const ALL_OUTPUTS: Output[] = [
  { type: 6, owners: owners() },
  { type: 7, amount: 1n, owners: owners() },
  { type: 10, groupID: 3, owners: owners() },
  { type: 11, groupID: 4, payload: h('00ff'), owners: owners(OTHER) },
  { type: 15, owners: owners() },
  { type: 16, owners: owners(OTHER, 5n, 1) },
];

function createAssetTx(name: Uint8Array, initialStates: { fxIndex: number; outputs: Output[] }[]): UnsignedTx {
  return {
    type: 1,
    base: {
      networkID: 12345,
      blockchainID: X_CHAIN,
      memo: h('00'),
      outputs: [{ assetID: AVAX, out: { type: 7, amount: 49_000n, owners: owners() } }],
      inputs: [{ utxoID: { txID: AVAX, outputIndex: 1 }, assetID: AVAX, input: { type: 5, amount: 50_000n, sigIndices: [0] } }],
    },
    name,
    symbol: h('54'),
    denomination: 32,
    initialStates,
  };
}

describe('every fx type', () => {
  it('round-trips all operations and credential kinds', () => {
    const tx = buildTx(ALL_OPS_TX, ALL_OPS_CREDS);
    const parsed = parseTx(tx.bytes);
    expect(parsed.unsigned).toEqual(ALL_OPS_TX);
    expect(parsed.credentials).toEqual(ALL_OPS_CREDS);
    expect(hexOf(parsed.id)).toBe(hexOf(tx.id));
    expect(hexOf(parsed.unsignedBytes)).toBe(hexOf(marshalUnsignedTx(ALL_OPS_TX)));
  });

  it('round-trips all output types in initial states and UTXOs', () => {
    const unsigned = createAssetTx(h('4e4654'), [
      { fxIndex: 0, outputs: ALL_OUTPUTS.slice(0, 2) },
      { fxIndex: 1, outputs: ALL_OUTPUTS.slice(2) },
    ]);
    const tx = buildTx(unsigned, [{ type: 9, signatures: [SIG] }]);
    expect(parseTx(tx.bytes).unsigned).toEqual(unsigned);
    for (const output of ALL_OUTPUTS) {
      const utxo = { utxoID: { txID: AVAX, outputIndex: 9 }, assetID: AVAX, output };
      expect(parseUTXO(marshalUTXO(utxo))).toEqual(utxo);
    }
  });

  it('lays out an nft TransferOutput as groupID, payload, owners', () => {
    expect(hexOf(outputSortKey(ALL_OUTPUTS[3]!))).toBe(
      `0000${'0000000b'}${'00000004'}${'00000002'}00ff${'0000000000000000'}${'00000001'}${'00000001'}${hexOf(OTHER)}`,
    );
  });
});

// --- Derived values ----------------------------------------------------------------------------

describe('derived values', () => {
  it('sort keys are the codec bytes of an output interface value and of an operation', () => {
    const out: Output = { type: 7, amount: 1n, owners: owners() };
    expect(hexOf(outputSortKey(out))).toBe(`0000${'00000007'}${'0000000000000001'}${'0000000000000000'}${'00000001'}${'00000001'}${hexOf(EWOQ)}`);
    const op: Operation = { assetID: AVAX, utxoIDs: [{ txID: X_CHAIN, outputIndex: 3 }], op: { type: 18, input: [2] } };
    expect(hexOf(operationSortKey(op))).toBe(`0000${hexOf(AVAX)}${'00000001'}${hexOf(X_CHAIN)}${'00000003'}${'00000012'}${'00000001'}${'00000002'}`);
    // The genesis outputs are stored in codec-byte order: 1e16 to ur873… sorts before 3e17 to ewoq.
    const genesis = parseTx(GENESIS_TX).unsigned;
    if (genesis.type !== 1) throw new Error('not a CreateAssetTx');
    const [a, b] = genesis.initialStates[0]!.outputs;
    expect(compareBytes(outputSortKey(a!), outputSortKey(b!))).toBe(-1);
  });

  it('compares bytes like bytes.Compare', () => {
    expect(compareBytes(h('01'), h('02'))).toBe(-1);
    expect(compareBytes(h('0100'), h('01'))).toBe(1);
    expect(compareBytes(h(''), h(''))).toBe(0);
    expect(compareBytes(h('ff'), h('00ff'))).toBe(1);
  });

  it('lists the outputs each operation creates', () => {
    const [secpMint, nftMint, nftTransfer, propertyMint, burn] = ALL_OPS as [OperationBody, OperationBody, OperationBody, OperationBody, OperationBody];
    expect(operationOutputs(secpMint)).toEqual([
      { type: 6, owners: owners() },
      { type: 7, amount: 18_446_744_073_709_551_615n, owners: owners(EWOQ, 9_007_199_254_740_993n) },
    ]);
    expect(operationOutputs(nftMint)).toEqual([
      { type: 11, groupID: 7, payload: h('68656c6c6f'), owners: owners() },
      { type: 11, groupID: 7, payload: h('68656c6c6f'), owners: owners(OTHER) },
    ]);
    expect(operationOutputs(nftTransfer)).toEqual([{ type: 11, groupID: 1, payload: new Uint8Array(), owners: owners() }]);
    expect(operationOutputs(propertyMint)).toEqual([
      { type: 15, owners: owners() },
      { type: 16, owners: { locktime: 0n, threshold: 0, addresses: [] } },
    ]);
    expect(operationOutputs(burn)).toEqual([]);
  });

  it('numbers created UTXOs after the base outputs, with the right asset', () => {
    const withBaseOut: UnsignedTx = {
      ...ALL_OPS_TX,
      base: { ...ALL_OPS_TX.base, outputs: [{ assetID: X_CHAIN, out: { type: 7, amount: 1n, owners: owners() } }] },
    };
    const opTx = buildTx(withBaseOut, []);
    const { utxos, exported } = txOutputs(opTx);
    expect(exported).toEqual([]);
    expect(utxos.map((u) => [u.utxoID.outputIndex, u.output.type, hexOf(u.assetID)])).toEqual([
      [0, 7, hexOf(X_CHAIN)],
      [1, 6, hexOf(AVAX)],
      [2, 7, hexOf(AVAX)],
      [3, 11, hexOf(AVAX)],
      [4, 11, hexOf(AVAX)],
      [5, 11, hexOf(AVAX)],
      [6, 15, hexOf(AVAX)],
      [7, 16, hexOf(AVAX)],
    ]);
    expect(utxos.every((u) => hexOf(u.utxoID.txID) === hexOf(opTx.id))).toBe(true);
    // Operation inputs are spent from X state after the base inputs.
    expect(txInputIDs(opTx).spent.map(hexOf)).toEqual([2, 3, 4, 5, 6].map((i) => hexOf(utxoInputID({ txID: AVAX, outputIndex: i }))));

    const create = buildTx(
      createAssetTx(h('4e4654'), [
        { fxIndex: 0, outputs: ALL_OUTPUTS.slice(0, 2) },
        { fxIndex: 2, outputs: ALL_OUTPUTS.slice(4) },
      ]),
      [],
    );
    const created = txOutputs(create).utxos;
    expect(created.map((u) => [u.utxoID.outputIndex, u.output.type])).toEqual([
      [0, 7],
      [1, 6],
      [2, 7],
      [3, 15],
      [4, 16],
    ]);
    expect(hexOf(created[0]!.assetID)).toBe(hexOf(AVAX));
    expect(created.slice(1).every((u) => hexOf(u.assetID) === hexOf(create.id))).toBe(true); // the new asset is the tx
  });

  it('separates imported UTXO IDs from spent ones', () => {
    const unsigned: UnsignedTx = {
      type: 3,
      sourceChain: new Uint8Array(32),
      base: {
        networkID: 1,
        blockchainID: X_CHAIN,
        outputs: [],
        memo: new Uint8Array(),
        inputs: [{ utxoID: { txID: AVAX, outputIndex: 1 }, assetID: AVAX, input: { type: 5, amount: 1n, sigIndices: [0] } }],
      },
      importedInputs: [{ utxoID: { txID: X_CHAIN, outputIndex: 0 }, assetID: AVAX, input: { type: 5, amount: 2n, sigIndices: [0] } }],
    };
    const { spent, imported } = txInputIDs(buildTx(unsigned, []));
    expect(spent.map(cb58)).toEqual(['Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc']);
    expect(imported.map(hexOf)).toEqual([hexOf(utxoInputID({ txID: X_CHAIN, outputIndex: 0 }))]);
  });

  it('reads the owners of every output type', () => {
    for (const out of ALL_OUTPUTS) expect(outputAddresses(out)).toEqual(out.owners.addresses);
  });
});

// --- JSON --------------------------------------------------------------------------------------

const GENESIS_TX_JSON =
  '{"unsignedTx":{"networkID":12345,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],' +
  '"memo":"0xb3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d","name":"Avalanche",' +
  '"symbol":"AVAX","denomination":9,"initialStates":[{"fxIndex":0,"fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",' +
  '"outputs":[{"addresses":["X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu"],"amount":10000000000000000,"locktime":0,' +
  '"threshold":1},{"addresses":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],"amount":300000000000000000,' +
  '"locktime":0,"threshold":1}]}]},"credentials":null,"id":"2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"}';

const GENESIS_BLOCK_JSON =
  '{"parentID":"3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY","height":0,"time":1607144400,' +
  '"merkleRoot":"11111111111111111111111111111111LpoYY","txs":null,"id":"2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst"}';

describe('JSON', () => {
  const avax = '"2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"';
  const xChain = '"2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"';
  const ewoqOwners = `{"addresses":["${EWOQ_X}"],"locktime":0,"threshold":1}`;

  it('writes the genesis tx as a fresh node serves it, and as a restarted one', () => {
    const tx = parseTx(GENESIS_TX);
    expect(txJson(tx, { hrp: 'local', credentialsNull: true })).toBe(GENESIS_TX_JSON);
    expect(txJson(tx, { hrp: 'local' })).toBe(GENESIS_TX_JSON.replace('"credentials":null', '"credentials":[]'));
    expect(txJson(tx, { hrp: 'fuji' })).toContain('"addresses":["X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t"]');
  });

  it('writes the genesis block, with null txs on a fresh node', () => {
    const block = parseBlock(GENESIS_BLOCK);
    expect(blockJson(block, { hrp: 'local', txsNull: true })).toBe(GENESIS_BLOCK_JSON);
    expect(blockJson(block, { hrp: 'local' })).toBe(GENESIS_BLOCK_JSON.replace('"txs":null', '"txs":[]'));
  });

  it("writes the docs' ExportTx in Go's field order, uint64s exact", () => {
    const expected =
      `{"unsignedTx":{"networkID":12345,"blockchainID":${xChain},"outputs":[{"assetID":${avax},"fxID":"${SECP}",` +
      `"output":{"addresses":["${EWOQ_X}"],"amount":299995999998000000,"locktime":0,"threshold":1}}],` +
      `"inputs":[{"txID":${avax},"outputIndex":1,"assetID":${avax},"fxID":"${SECP}","input":{"amount":300000000000000000,"signatureIndices":[0]}}],` +
      `"memo":"0x","destinationChain":"${cb58(h('c85fc1980a77c5da78fe5486233fc09a769bb812bcb2cc548cf9495d046b3f1b'))}",` +
      `"exportedOutputs":[{"assetID":${avax},"fxID":"${SECP}","output":{"addresses":["${EWOQ_X}"],"amount":4000001000000,"locktime":0,"threshold":1}}]},` +
      `"credentials":[{"fxID":"${SECP}","credential":{"signatures":["0x${hexOf(SIG)}"]}}],` +
      `"id":"6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY"}`;
    expect(txJson(parseTx(DOCS_EXPORT_TX), { hrp: 'local' })).toBe(expected);
  });

  it('writes every operation and credential kind; values in credential slots get cb58 addresses', () => {
    const tx = buildTx(ALL_OPS_TX, ALL_OPS_CREDS);
    const op = (index: number, fxID: string, body: string) =>
      `{"assetID":${avax},"inputIDs":[{"txID":${avax},"outputIndex":${index}}],"fxID":"${fxID}","operation":${body}}`;
    const expected =
      `{"unsignedTx":{"networkID":12345,"blockchainID":${xChain},"outputs":[],"inputs":[],"memo":"0x","operations":[` +
      op(
        2,
        SECP,
        `{"mintInput":{"signatureIndices":[0]},"mintOutput":${ewoqOwners},"transferOutput":{"addresses":["${EWOQ_X}"],` +
          '"amount":18446744073709551615,"locktime":9007199254740993,"threshold":1}}',
      ) +
      ',' +
      op(
        3,
        NFT,
        `{"mintInput":{"signatureIndices":[0]},"groupID":7,"payload":"0x68656c6c6f","outputs":[${ewoqOwners},` +
          `{"addresses":["${OTHER_X}"],"locktime":0,"threshold":1}]}`,
      ) +
      ',' +
      op(4, NFT, `{"input":{"signatureIndices":[0]},"output":{"addresses":["${EWOQ_X}"],"groupID":1,"locktime":0,"payload":"0x","threshold":1}}`) +
      ',' +
      op(5, PROPERTY, `{"mintInput":{"signatureIndices":[0]},"mintOutput":${ewoqOwners},"ownedOutput":{"addresses":[],"locktime":0,"threshold":0}}`) +
      ',' +
      op(6, PROPERTY, '{"signatureIndices":[0,1]}') +
      ']},"credentials":[' +
      `{"fxID":"${SECP}","credential":{"signatures":["0x${hexOf(SIG)}"]}},` +
      `{"fxID":"${NFT}","credential":{"signatures":[]}},` +
      `{"fxID":"${PROPERTY}","credential":{"signatures":["0x${hexOf(SIG)}","0x${hexOf(SIG)}"]}},` +
      `{"fxID":"${SECP}","credential":{"addresses":["6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV"],"amount":5,"locktime":0,"threshold":1}},` +
      `{"fxID":"${SECP}","credential":{"amount":1,"signatureIndices":[3]}}` +
      `],"id":"${cb58(tx.id)}"}`;
    expect(txJson(tx, { hrp: 'local' })).toBe(expected);
  });

  it("takes an initial state's fxID from its index, and escapes names as Go does", () => {
    const name = concat(Buffer.from('Tëst <a&b>'), h('ff'), Buffer.from('\u2028"\\\n\x01\x7f'));
    const unsigned = createAssetTx(name, [
      { fxIndex: 0, outputs: [ALL_OUTPUTS[2]!] },
      { fxIndex: 2, outputs: ALL_OUTPUTS.slice(3) },
    ]);
    const tx = buildTx(unsigned, [{ type: 9, signatures: [SIG] }]);
    const expected =
      `{"unsignedTx":{"networkID":12345,"blockchainID":${xChain},` +
      `"outputs":[{"assetID":${avax},"fxID":"${SECP}","output":{"addresses":["${EWOQ_X}"],"amount":49000,"locktime":0,"threshold":1}}],` +
      `"inputs":[{"txID":${avax},"outputIndex":1,"assetID":${avax},"fxID":"${SECP}","input":{"amount":50000,"signatureIndices":[0]}}],` +
      '"memo":"0x00","name":"Tëst \\u003ca\\u0026b\\u003e\\ufffd\\u2028\\"\\\\\\n\\u0001\x7f","symbol":"T","denomination":32,"initialStates":[' +
      `{"fxIndex":0,"fxID":"${SECP}","outputs":[{"addresses":["${EWOQ_X}"],"groupID":3,"locktime":0,"threshold":1}]},` +
      `{"fxIndex":2,"fxID":"${PROPERTY}","outputs":[{"addresses":["${OTHER_X}"],"groupID":4,"locktime":0,"payload":"0x00ff","threshold":1},` +
      `${ewoqOwners},{"addresses":["${OTHER_X}"],"locktime":5,"threshold":1}]}]},` +
      `"credentials":[{"fxID":"${SECP}","credential":{"signatures":["0x${hexOf(SIG)}"]}}],"id":"${cb58(tx.id)}"}`;
    expect(txJson(tx, { hrp: 'local' })).toBe(expected);
  });

  it('writes an ImportTx with its source chain and imported inputs', () => {
    const unsigned: UnsignedTx = {
      type: 3,
      sourceChain: new Uint8Array(32),
      base: { networkID: 12345, blockchainID: X_CHAIN, outputs: [], inputs: [], memo: new Uint8Array() },
      importedInputs: [{ utxoID: { txID: X_CHAIN, outputIndex: 4 }, assetID: AVAX, input: { type: 5, amount: 7n, sigIndices: [1, 2] } }],
    };
    const tx = buildTx(unsigned, []);
    expect(txJson(tx, { hrp: 'local' })).toBe(
      `{"unsignedTx":{"networkID":12345,"blockchainID":${xChain},"outputs":[],"inputs":[],"memo":"0x","sourceChain":"${EMPTY_ID}",` +
        `"importedInputs":[{"txID":${xChain},"outputIndex":4,"assetID":${avax},"fxID":"${SECP}","input":{"amount":7,"signatureIndices":[1,2]}}]},` +
        `"credentials":[],"id":"${cb58(tx.id)}"}`,
    );
  });

  it('writes a block with its txs in full', () => {
    const txs: SignedTx[] = [parseTx(DOCS_EXPORT_TX)];
    const block = buildBlock({ parentID: h('ab'.repeat(32)), height: 18_446_744_073_709_551_615n, time: 1_700_000_000n, txs });
    expect(blockJson(block, { hrp: 'local', credentialsNull: true })).toBe(
      `{"parentID":"${cb58(h('ab'.repeat(32)))}","height":18446744073709551615,"time":1700000000,"merkleRoot":"${EMPTY_ID}",` +
        `"txs":[${txJson(txs[0]!, { hrp: 'local' })}],"id":"${cb58(block.id)}"}`,
    );
  });

  it('escapes Go strings like encoding/json, invalid UTF-8 byte by byte', () => {
    expect(goJsonString(Buffer.from('Avalanche'))).toBe('"Avalanche"');
    expect(goJsonString(Buffer.from('\b\f\t\r\n\x00\x1f'))).toBe('"\\b\\f\\t\\r\\n\\u0000\\u001f"');
    expect(goJsonString(Buffer.from('€😀'))).toBe('"€😀"');
    // Truncated sequence, overlong, surrogate, beyond U+10FFFF: each bad byte is one U+FFFD.
    expect(goJsonString(h('e282'))).toBe('"\\ufffd\\ufffd"');
    expect(goJsonString(h('c0af'))).toBe('"\\ufffd\\ufffd"');
    expect(goJsonString(h('eda080'))).toBe('"\\ufffd\\ufffd\\ufffd"');
    expect(goJsonString(h('f4908080'))).toBe('"\\ufffd\\ufffd\\ufffd\\ufffd"');
    expect(goJsonString(h('efbfbd'))).toBe('"\ufffd"'); // a real U+FFFD is kept as is
    expect(goJsonString(Buffer.from('\u2029'))).toBe('"\\u2029"');
  });
});
