// Index API over HTTP: routes under --index-enabled, every method and error row, the proposervm
// containers the real node stores (outer IDs and bytes), and the vectors of the research notes.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCB58 } from '../src/encoding/cb58.js';
import { encodeOuterBlock, nextEpoch } from '../src/chains/proposervm.js';
import { call, callError, post, rpc, startTestNode, type TestNode } from './helpers.js';

const GENESIS_ID_HEX = 'ba3faf181d75021d08da25af88a7f992dce0fc1b636deae36db0b7ebf11be722';
const INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";
const RFC3339_NANO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

describe('proposervm containers (vectors from docs/research/index-and-proposervm.md)', () => {
  it('encodes block 1 as an unsigned statelessBlock over the inner genesis', () => {
    const { id, bytes } = encodeOuterBlock(Buffer.from(GENESIS_ID_HEX, 'hex'), 1700000000n, 0n, Buffer.from('deadbeef', 'hex'), undefined);
    expect(encodeCB58(id)).toBe('8DEXSVQpkYUTHKNpzMVmbFxK3R27dFXN5jNdS7SKaz61fjKP2');
    expect(Buffer.from(bytes).toString('hex')).toBe(`00000000000${'0'}${GENESIS_ID_HEX}000000006553f10000000000000000000000000000000004deadbeef00000000`);
  });

  it('encodes block 2 as an unsigned statelessGraniteBlock with epoch {0, 1, block 1 time}', () => {
    const parent = Buffer.from('105f8e92099a06f57853dee755ee4a8cf8c38537b4c5a329ceddcfa204320d2e', 'hex');
    const epoch = nextEpoch({ pChainHeight: 0n, epoch: undefined, timestamp: 1700000000n });
    expect(epoch).toEqual({ pChainHeight: 0n, number: 1n, startTime: 1700000000n });
    const { id } = encodeOuterBlock(parent, 1700000005n, 0n, Buffer.from('deadbeef', 'hex'), epoch);
    expect(encodeCB58(id)).toBe('2o1cN45y9Ni12a96iiwvv8sRrbbeBdDXMtWGDKDZBdfHVxK2VN');
  });

  it('follows the ACP-181 epoch rules of the worked timeline', () => {
    const e1 = { pChainHeight: 0n, number: 1n, startTime: 1700000000n };
    expect(nextEpoch({ pChainHeight: 0n, epoch: e1, timestamp: 1700000029n })).toBe(e1);
    expect(nextEpoch({ pChainHeight: 0n, epoch: e1, timestamp: 1700000031n })).toEqual({ pChainHeight: 0n, number: 2n, startTime: 1700000031n });
    const e2 = { pChainHeight: 0n, number: 2n, startTime: 1700000031n };
    expect(nextEpoch({ pChainHeight: 3n, epoch: e2, timestamp: 1700000100n })).toEqual({ pChainHeight: 3n, number: 3n, startTime: 1700000100n });
  });
});

describe('with --index-enabled=true', () => {
  let node: TestNode;
  let block: string;
  beforeAll(async () => {
    // Three test accounts: block 1 funds them, so the X block index holds one container at start.
    node = await startTestNode({ dbType: 'memdb', indexEnabled: true, testAccounts: 3 });
    block = `${node.uri}/ext/index/X/block`;
  });
  afterAll(() => node.stop());

  it('indexes X block 1 as container 0: a type-0 wrapper of the inner block, parent = inner genesis', async () => {
    const c = await call(block, 'index.getContainerByIndex', { index: 0, encoding: 'hexnc' });
    expect(Object.keys(c)).toEqual(['id', 'bytes', 'timestamp', 'encoding', 'index']);
    expect(c.index).toBe('0');
    expect(c.encoding).toBe('hexnc');
    expect(c.timestamp).toMatch(RFC3339_NANO);
    const bytes = Buffer.from(c.bytes.slice(2), 'hex');
    expect(bytes.readUInt32BE(2)).toBe(0);
    expect(bytes.subarray(6, 38).toString('hex')).toBe(GENESIS_ID_HEX);
    expect(encodeCB58(sha256(bytes.subarray(0, bytes.length - 4)))).toBe(c.id);
    // The wrapped bytes are X block 1 as avm.getBlockByHeight serves it (inner ID, inner bytes).
    const innerLength = bytes.readUInt32BE(58);
    const inner = bytes.subarray(62, 62 + innerLength);
    const avm = await call(`${node.uri}/ext/bc/X`, 'avm.getBlockByHeight', { height: 1, encoding: 'hexnc' });
    expect(`0x${inner.toString('hex')}`).toBe(avm.block);
  });

  it('serves hex and hexc with the checksum, refuses json once the container is found', async () => {
    const nc = await call(block, 'index.getLastAccepted', { encoding: 'hexnc' });
    const hex = await call(block, 'index.getLastAccepted', {});
    expect(hex.encoding).toBe('hex');
    const raw = Buffer.from(nc.bytes.slice(2), 'hex');
    expect(hex.bytes).toBe(nc.bytes + sha256(raw).subarray(28).toString('hex'));
    expect((await call(block, 'index.getLastAccepted', { encoding: 'HEXC' })).bytes).toBe(hex.bytes);
    expect((await callError(block, 'index.getLastAccepted', { encoding: 'json' })).message).toBe('unsupported encoding in method');
    expect((await callError(block, 'index.getLastAccepted', { encoding: 'base64' })).message).toBe(INVALID_ARG);
  });

  it('getIndex, getContainerByID and isAccepted by outer ID', async () => {
    const c = await call(block, 'index.getLastAccepted', {});
    expect(await call(block, 'index.getIndex', { id: c.id })).toEqual({ index: c.index });
    expect(await call(block, 'index.getContainerByID', { id: c.id })).toEqual(c);
    expect(await call(block, 'index.isAccepted', { id: c.id })).toEqual({ isAccepted: true });
    const genesis = '2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst';
    expect(await call(block, 'index.isAccepted', { id: genesis })).toEqual({ isAccepted: false });
    expect((await callError(block, 'index.getIndex', { id: genesis })).message).toBe('not found');
    expect((await callError(block, 'index.getContainerByID', { id: genesis })).message).toBe('not found');
    expect((await callError(block, 'index.getIndex', {})).message).toBe('not found');
  });

  it('getContainerRange: {containers}, bounds on numToFetch, short range at the tail', async () => {
    const r = await call(block, 'index.getContainerRange', { startIndex: 0, numToFetch: 1024 });
    expect(Object.keys(r)).toEqual(['containers']);
    expect(r.containers.map((c: { index: string }) => c.index)).toEqual(['0']);
    expect((await callError(block, 'index.getContainerRange', { startIndex: 0, numToFetch: 0 })).message).toBe('numToFetch must be in [1,1024] but is 0');
    expect((await callError(block, 'index.getContainerRange', { startIndex: 0, numToFetch: '1025' })).message).toBe(
      'numToFetch must be in [1,1024] but is 1025',
    );
    const far = await rpc(block, 'index.getContainerRange', { startIndex: 5, numToFetch: 1 });
    expect(far.text).toContain('"message":"start index (5) \\u003e last accepted index (0)"');
    expect((await callError(block, 'index.getContainerByIndex', { index: '7' })).message).toBe('no container at index 7');
    expect((await callError(block, 'index.getContainerByIndex', { index: -1 })).message).toBe(INVALID_ARG);
  });

  it('chains containers: each outer parent is the previous outer ID, with type-2 blocks and epochs', async () => {
    // Two more blocks through the issue path: spend ewoq's change output twice.
    const before = await call(block, 'index.getLastAccepted', {});
    const { buildTx, parseUTXO } = await import('../src/vms/avm/codec/index.js');
    const { signHash, txHash } = await import('../src/vms/avm/verify/index.js');
    const { idFromString } = await import('../src/encoding/cb58.js');
    const { encodeHex } = await import('../src/encoding/hex.js');
    const key = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
    const ewoq = Buffer.from('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c', 'hex');
    const x = `${node.uri}/ext/bc/X`;
    for (let i = 0; i < 2; i++) {
      const { utxos } = await call(x, 'avm.getUTXOs', { addresses: ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'], encoding: 'hex' });
      const utxo = parseUTXO(Buffer.from(utxos[0].slice(2, -8), 'hex'));
      const amount = (utxo.output as { amount: bigint }).amount;
      const unsigned = {
        type: 0 as const,
        base: {
          networkID: 12345,
          blockchainID: idFromString('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed'),
          outputs: [
            { assetID: utxo.assetID, out: { type: 7 as const, amount: amount - 1_000_000n, owners: { locktime: 0n, threshold: 1, addresses: [ewoq] } } },
          ],
          inputs: [{ utxoID: utxo.utxoID, assetID: utxo.assetID, input: { type: 5 as const, amount, sigIndices: [0] } }],
          memo: new Uint8Array(),
        },
      };
      const sig = signHash(txHash(buildTx(unsigned, []).unsignedBytes), key);
      await call(x, 'avm.issueTx', { tx: encodeHex(buildTx(unsigned, [{ type: 9, signatures: [sig] }]).bytes, 'hex') });
    }
    const { containers } = await call(block, 'index.getContainerRange', { startIndex: before.index, numToFetch: 3, encoding: 'hexnc' });
    expect(containers).toHaveLength(3);
    const raw = containers.map((c: { bytes: string }) => Buffer.from(c.bytes.slice(2), 'hex'));
    for (let i = 1; i < raw.length; i++) {
      expect(raw[i].readUInt32BE(2)).toBe(2);
      expect(encodeCB58(raw[i].subarray(6, 38))).toBe(containers[i - 1].id);
      expect(raw[i].readBigInt64BE(38)).toBeGreaterThan(raw[i - 1].readBigInt64BE(38));
      const n = raw[i].length;
      expect(raw[i].readBigUInt64BE(n - 20)).toBe(1n); // epoch number: block 1's epoch is zero, so epoch 1 starts
      expect(raw[i].readBigInt64BE(n - 12)).toBe(raw[0].readBigInt64BE(38)); // epoch start = block 1's time
    }
    expect((await call(`${node.uri}/ext/bc/X`, 'avm.getHeight')).height).toBe(String(Number(before.index) + 3));
  });

  it('indexes the C-Chain block that funds the test accounts, proposervm-wrapped, all funding txs in it', async () => {
    const url = `${node.uri}/ext/index/C/block`;
    const last = await call(url, 'index.getLastAccepted', { encoding: 'hex' });
    expect(last.index).toBe('0');
    const first = await call(url, 'index.getContainerByIndex', { index: 0, encoding: 'hex' });
    // A proposervm block (codec version 0, then its parent ID) whose inner block is coreth's RLP.
    expect(first.bytes.startsWith('0x0000')).toBe(true);
    const funding = await call(`${node.uri}/ext/bc/C/rpc`, 'eth_getBlockByNumber', ['0x1', false]);
    expect(funding.transactions).toHaveLength(3);
  });

  it('keeps /ext/index/X/tx and /vtx empty after linearization, and P empty', async () => {
    for (const path of ['/ext/index/X/tx', '/ext/index/X/vtx', '/ext/index/P/block']) {
      const url = `${node.uri}${path}`;
      expect((await callError(url, 'index.getLastAccepted', {})).message).toBe('no containers have been accepted');
      expect((await callError(url, 'index.getContainerRange', { startIndex: 0, numToFetch: 1 })).message).toBe('no containers have been accepted');
      expect((await callError(url, 'index.getContainerByIndex', { index: 0 })).message).toBe('no container at index 0');
      expect(await call(url, 'index.isAccepted', { id: '2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst' })).toEqual({ isAccepted: false });
    }
  });
});

describe('without --index-enabled', () => {
  it('has no /ext/index routes', async () => {
    const node = await startTestNode({ dbType: 'memdb' });
    try {
      for (const path of ['/ext/index/X/block', '/ext/index/X/tx', '/ext/index/P/block']) {
        const r = await post(`${node.uri}${path}`, '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted"}');
        expect(r.status).toBe(404);
      }
    } finally {
      await node.stop();
    }
  });
});
