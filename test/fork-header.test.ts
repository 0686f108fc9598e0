// headerFromJson (src/vms/evm/fork/headerjson.ts): a fork's starting header rebuilt from the
// eth_getBlockByNumber JSON an upstream serves, and trusted only if it re-hashes. Round trips through
// a real node's HTTP API (the C-Chain's genesis, a tx block with logs, a block with an atomic tx, and
// an L1's Subnet-EVM blocks), then JSON that other nodes wrote: coreth's own RPC test vector (Granite
// fields), three mainnet C-Chain blocks, and a geth (Ethereum) header, which must be refused.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AjsContext, type AVMApi, ajs, type SignedTx, type UnsignedTx, type Utxo } from './support/avalanchejs.js';
import { call, rpc, startTestNode, type TestNode } from './helpers.js';
import { decodeHeader, encodeBlock, encodeHeader } from '../src/vms/evm/header.js';
import { HeaderJsonError, headerFromJson } from '../src/vms/evm/fork/headerjson.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const bytesOf = (h: string) => new Uint8Array(Buffer.from(h.slice(2), 'hex'));

// ---- the slice of avalanchejs' evm module the atomic block needs (as test/c-atomic.test.ts) ----
interface EVMApi {
  getUTXOs(input: { addresses: string[]; sourceChain: string }): Promise<{ utxos: Utxo[] }>;
  issueSignedTx(tx: SignedTx): Promise<{ txID: string }>;
  getAtomicTxStatus(txID: string): Promise<{ status: string; blockHeight?: string }>;
  getBaseFee(): Promise<bigint>;
}
interface EvmModule {
  EVMApi: new (uri: string) => EVMApi;
  newImportTxFromBaseFee(ctx: AjsContext, to: Uint8Array, from: Uint8Array[], utxos: Utxo[], sourceChain: string, baseFee?: bigint): UnsignedTx;
}
const evm = (ajs as unknown as { evm: EvmModule }).evm;
const C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const EWOQ_KEY = ajs.utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_C = 'C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';

async function signed(unsigned: UnsignedTx): Promise<SignedTx> {
  await ajs.addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ_KEY] });
  return unsigned.getSignedTx();
}

/** An X → C transfer to `to` (an EVM address): the C-Chain block height of its import. */
async function atomicBlock(uri: string, to: Uint8Array): Promise<bigint> {
  const ctx = await ajs.Context.getContextFromURI(uri);
  const xApi = new ajs.avm.AVMApi(uri) as AVMApi;
  const cApi = new evm.EVMApi(uri);
  const ewoq = ajs.utils.bech32ToBytes(EWOQ_X);
  const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
  const exportTx = ajs.avm.newExportTx(ctx, C, [ewoq], utxos, [ajs.TransferableOutput.fromNative(AVAX, 5_000_000_000n, [ewoq])]);
  await xApi.issueSignedTx(await signed(exportTx));
  const shared = await cApi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' });
  const importTx = evm.newImportTxFromBaseFee(ctx, to, [ewoq], shared.utxos, X, await cApi.getBaseFee());
  const { txID } = await cApi.issueSignedTx(await signed(importTx));
  const status = await cApi.getAtomicTxStatus(txID);
  expect(status.status).toBe('Accepted');
  return BigInt(status.blockHeight!);
}

describe("headerFromJson on the node's own blocks, through HTTP", () => {
  let node: TestNode;
  let cUrl: string;
  let l1Url: string;
  let rawHeaderServed: boolean;

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE] });
    cUrl = `${node.uri}/ext/bc/C/rpc`;
    l1Url = `${node.uri}/ext/bc/myl1/rpc`;
    // debug_getRawHeader, if the node ever serves it, is the bytes encodeHeader must give.
    rawHeaderServed = (await rpc(cUrl, 'debug_getRawHeader', ['0x0'])).json?.result !== undefined;
  });
  afterAll(() => node.stop());

  /** ewoq (funded on the C-Chain and the L1), sending without its key through --dev's impersonation. */
  async function impersonated(url: string): Promise<string> {
    await call(url, 'anvil_impersonateAccount', [EWOQ]);
    return EWOQ;
  }

  /** Checks block `number` of a chain round-trips; returns its JSON. */
  async function roundTrip(url: string, number: bigint, layout: 'coreth' | 'subnet-evm'): Promise<Record<string, any>> {
    const tag = `0x${number.toString(16)}`;
    const block = await call(url, 'eth_getBlockByNumber', [tag, false]);
    const got = headerFromJson(block);
    expect(got.layout).toBe(layout);
    expect(hex(got.hash)).toBe(block.hash);
    expect(got.header.number).toBe(number);
    // The layout given is the one inferred; eth_getHeaderByNumber's JSON gives the same header.
    expect(hex(headerFromJson(block, layout).hash)).toBe(block.hash);
    const header = await call(url, 'eth_getHeaderByNumber', [tag]);
    expect(headerFromJson(header).header).toEqual(got.header);
    // The bytes: decoding encodeHeader's RLP gives the header back, and a block without EVM txs is
    // exactly as long as the node says (its RLP: header, no txs, no uncles, then coreth's version and
    // atomic txs).
    const encoded = encodeHeader(got.header);
    expect(decodeHeader(RLP.decode(encoded) as Uint8Array[], layout)).toEqual(got.header);
    if (block.transactions.length === 0) {
      const extData = layout === 'coreth' ? bytesOf(block.blockExtraData) : undefined;
      expect(BigInt(encodeBlock(got.header, [], extData).length)).toBe(BigInt(block.size));
    }
    if (rawHeaderServed) expect(hex(encoded)).toBe((await call(url, 'debug_getRawHeader', [tag])) as string);
    return block;
  }

  it('the C-Chain genesis: coreth layout, the hash and the bytes the node has', async () => {
    const block = await roundTrip(cUrl, 0n, 'coreth');
    // coreth's genesis leaves ExtDataHash the zero hash (later blocks without atomic txs have RLP("")'s).
    expect(block.extDataHash).toBe(`0x${'00'.repeat(32)}`);
  });

  it('C-Chain blocks made by txs: a transfer, and a deployment whose log fills the bloom', async () => {
    const from = await impersonated(cUrl);
    const transfer = await call(cUrl, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    // Constructor code: LOG1(offset 0, size 0, topic 0xff), then STOP.
    const deploy = await call(cUrl, 'eth_sendTransaction', [{ from, data: '0x60ff60006000a100' }]);
    for (const tx of [transfer, deploy]) {
      const receipt = await call(cUrl, 'eth_getTransactionReceipt', [tx]);
      const block = await roundTrip(cUrl, BigInt(receipt.blockNumber), 'coreth');
      expect(block.transactions).toContain(tx);
      expect(BigInt(block.gasUsed)).toBeGreaterThan(0n);
      expect(block.baseFeePerGas).toBeDefined();
    }
    const deployed = await call(cUrl, 'eth_getTransactionReceipt', [deploy]);
    const logged = await call(cUrl, 'eth_getBlockByNumber', [deployed.blockNumber, false]);
    expect(logged.logsBloom).not.toMatch(/^0x0+$/);
    // The block's bloom comes from the EVM's run; the receipt's is made again from its logs when asked.
    expect(logged.transactions).toEqual([deploy]);
    expect(deployed.logsBloom).toBe(logged.logsBloom);
  });

  it('a C-Chain block with an atomic tx: non-trivial extDataHash and extDataGasUsed', async () => {
    const to = new Uint8Array(createHash('sha256').update('fork-header: atomic').digest().subarray(0, 20));
    const height = await atomicBlock(node.uri, to);
    const block = await roundTrip(cUrl, height, 'coreth');
    expect(block.extDataHash).not.toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(BigInt(block.extDataGasUsed)).toBeGreaterThan(0n);
    expect(block.blockExtraData.length).toBeGreaterThan(2);
  });

  it("an L1's genesis and a tx block: Subnet-EVM layout (no extDataHash), blockGasCost in the tail", async () => {
    const genesis = await roundTrip(l1Url, 0n, 'subnet-evm');
    expect(genesis.extDataHash).toBeUndefined();
    const from = await impersonated(l1Url);
    const tx = await call(l1Url, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    const receipt = await call(l1Url, 'eth_getTransactionReceipt', [tx]);
    const block = await roundTrip(l1Url, BigInt(receipt.blockNumber), 'subnet-evm');
    expect(block.blockGasCost).toBeDefined();
    expect(block.extDataGasUsed).toBeUndefined();
  });

  it('a C-Chain header is refused as a Subnet-EVM one, and an L1 header as coreth', async () => {
    const c = await call(cUrl, 'eth_getBlockByNumber', ['0x0', false]);
    expect(() => headerFromJson(c, 'subnet-evm')).toThrow("the upstream's block 0 has extDataHash, which a Subnet-EVM header does not have");
    const l1 = await call(l1Url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(() => headerFromJson(l1, 'coreth')).toThrow("the upstream's block 0 has no extDataHash, which every coreth header has");
  });
});

// ---- JSON other nodes wrote ------------------------------------------------------------------------

const ZERO_BLOOM = `0x${'00'.repeat(256)}`;

/**
 * coreth's own eth_getHeaderByNumber answer for block 1 of its RPC test chain (avalanchego
 * graft/coreth/internal/ethapi/testdata/eth_getHeaderByNumber-number-1.json): Cancun's and Granite's
 * tail fields (timestampMilliseconds, minDelayExcess) all present.
 */
const CORETH_TESTDATA = {
  baseFeePerGas: '0x1',
  blobGasUsed: '0x0',
  blockGasCost: '0x0',
  difficulty: '0x1',
  excessBlobGas: '0x0',
  extDataGasUsed: '0x0',
  extDataHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  extraData: '0x000000000098447800000000000052080000000000000000',
  gasLimit: '0x989680',
  gasUsed: '0x5208',
  hash: '0xf81ad58778a090ed344621e354290a8318cfe6d0227d702274799a9f465dc3dd',
  logsBloom: ZERO_BLOOM,
  minDelayExcess: '0x799d4c',
  miner: '0x0000000000000000000000000000000000000000',
  mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
  nonce: '0x0000000000000000',
  number: '0x1',
  parentBeaconBlockRoot: '0x0000000000000000000000000000000000000000000000000000000000000000',
  parentHash: '0x258e78c10ee669d502425096e02e3e01646ec993cd09076f28c5731b1fefa4b1',
  receiptsRoot: '0x056b23fbba480696b65fe5a59b8f2148a1299103c4f57df839233af2cf4ca2d2',
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  stateRoot: '0xd2936a5affc08b2842ded96c61db43e85298ef604c36a07eab095a06130edc40',
  timestamp: '0xa',
  timestampMilliseconds: '0x2710',
  totalDifficulty: '0x1',
  transactionsRoot: '0x2091c9f520d1aee00e5552f3e8da86e1d0668593e8dc189c1c2f429401ab2c23',
};

/**
 * Mainnet C-Chain blocks as public endpoints served them (eth_getBlockByNumber, transactions left
 * out): 5,760,288 (October 2021, Apricot Phase 4 tail: baseFee, extDataGasUsed, blockGasCost),
 * 30,806,864 (June 2023, a non-zero blockGasCost), 42,845,876 (March 2024, Durango).
 */
const MAINNET = [
  {
    baseFeePerGas: '0x5d21dba00',
    blockExtraData: '0x',
    blockGasCost: '0x0',
    difficulty: '0x1',
    extDataGasUsed: '0x0',
    extDataHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    extraData:
      '0x000000000000000000000000000a206f0000000000000000000000000009971e000000000009a8fb00000000000e50a50000000000000000000000000000000000000000000000000000000000000000',
    gasLimit: '0x7a1200',
    gasUsed: '0x7a1b9',
    hash: '0xec8148b1712a372e6ab418358ed0cf2051a1f04f80e6a4f77f352d2ab2f9338a',
    logsBloom:
      '0x00200400001020040002000080000000400000000000000020400100000000000000000000000000004000000080010000000000200000002000000000200000000080000200000000004008410000220040000000400000000000000000000000000000020004000000000100024800010000000000840000000030800004000000000000010000000002008000000000000080100010080004004000000810020000002000000002000000000000008080000000000000000001000000010040100802010020001008000000000000000000000000001420000002000020000010141000000000000000001008000800002008000000200000000000000000',
    miner: '0x0100000000000000000000000000000000000000',
    mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    nonce: '0x0000000000000000',
    number: '0x57e520',
    parentHash: '0x7dc8ef36dbac74134798b78406ccce73f926b35a7d11ca22029672bd9d84cd3d',
    receiptsRoot: '0x8b2a08f91826aa3201bbf866a8588080dde8aaeb448caf9c6035b5c0b8f593b1',
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
    size: '0x8f2',
    stateRoot: '0xfb149ac2f5fc1d9159964d9de2e1ae30b3608273fff78fcc8fb15c1b76a47625',
    timestamp: '0x616c6f77',
    totalDifficulty: '0x57e520',
    transactionsRoot: '0x002cb0567dccea3f36059008cbf1dd5d25a52bbf4abde4eb4b58db9a26cd2ca4',
    uncles: [],
  },
  {
    baseFeePerGas: '0x5e0443893',
    blockExtraData: '0x',
    blockGasCost: '0x61a80',
    difficulty: '0x1',
    extDataGasUsed: '0x0',
    extDataHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    extraData:
      '0x0000000000428007000000000000000000000000001dd4470000000000340e55000000000000000000000000002b55c20000000000322c67000000000000000000000000000000000000000000000000',
    gasLimit: '0xe4e1c0',
    gasUsed: '0x3213ee',
    hash: '0x3fb8949661bb2f6f5eaa5b16318d3c7e7a0990f8c2382d1fe4389e0caac6519d',
    logsBloom:
      '0x0020804440002009100000108211006300064004800124882a00e02a00342110100140444000002100500400001c0000010010000001010010800210283024800041d400080080a00001000c81002028088020008046800880000100480018000004008282800c0110400010000208098200020000ca46000200009002002020440200040420000000000001108000101120081028000a08000020d0000000800284c0104100c28022020004200001000020080200080000200804000201004081001602004238040001080000000800090304420400041080010022500230001054800461e08500080100000000042c12004020001040220100100008081240',
    miner: '0x0100000000000000000000000000000000000000',
    mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    nonce: '0x0000000000000000',
    number: '0x1d61350',
    parentHash: '0x325c49c63b3f894c28ee1ea9513aae8e2194e8819060cd7b888971d23a114040',
    receiptsRoot: '0xc5533e051491f1b3218e8bc51e86c58759847916ae74ee3d4aecb1d43ae9a242',
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
    size: '0x2be0',
    stateRoot: '0xdf5aaa6e78b1fa40bbf002abeeca3bbfb8fa58a50e13dafa89d37afa71c26979',
    timestamp: '0x6479b047',
    totalDifficulty: '0x1d61350',
    transactionsRoot: '0x2aff3102ef3cb883265e9b93421c765714f28a70106e0a5b9d3a994cc6d60b02',
    uncles: [],
  },
  {
    baseFeePerGas: '0x5d21dba00',
    blockGasCost: '0x0',
    difficulty: '0x1',
    extDataGasUsed: '0x0',
    extDataHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    extraData:
      '0x0000000000262e330000000000090658000000000025eec1000000000000000000000000003345ed00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    gasLimit: '0xe4e1c0',
    gasUsed: '0x1fd2c9',
    hash: '0x70c53b82d58e8c70f77c3dc304c194446dc2e739f9e1bf8e11d7d6eba4399e10',
    logsBloom:
      '0x112a000010400808008020008000000000800000000000002200200000100040400000000404004000500000001400000001000200000e8000050800002020000810c000bc0040028080440800000020004004480241000420000004802004008010001082002a00044200000000090000000400001a060100000010040010001002000480000002000000000000240000020111080000090000006040000c00020000804080000041000004000000020020002000000001000000800000012082100002000000100000002001002000010000040100001020010113000070048010800410010000000088000100000000000000011020420000011040001042',
    miner: '0x0100000000000000000000000000000000000000',
    mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    nonce: '0x0000000000000000',
    number: '0x28dc6b4',
    parentHash: '0x7c14dbd6685d6f7d3745f8ef5e09db8b56e001d187ae4ab193954992be6d6b30',
    receiptsRoot: '0x7d194874ddf90a59a8964267bcf84b726e7c34adbecdf066820b681714c0ccf4',
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
    stateRoot: '0xfa51b67bd28e8f1aacca08a4f2c531a6a184196c57503ce9fa5ccc812080ec69',
    timestamp: '0x65f1919b',
    totalDifficulty: '0x28dc6b4',
    transactionsRoot: '0x9dd271555363c817a8a7d3e54ae807dd81d3ac6eb045f2c30ab022be2b5ade92',
  },
];

/** geth's answer for an Ethereum (Cancun) header (libevm cmd/devp2p/internal/ethtest/testdata/headblock.json). */
const ETHEREUM = {
  parentHash: '0x96a73007443980c5e0985dfbb45279aa496dadea16918ad42c65c0bf8122ec39',
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  miner: '0x0000000000000000000000000000000000000000',
  stateRoot: '0xea4c1f4d9fa8664c22574c5b2f948a78c4b1a753cebc1861e7fb5b1aa21c5a94',
  transactionsRoot: '0xecda39025fc4c609ce778d75eed0aa53b65ce1e3d1373b34bad8578cc31e5b48',
  receiptsRoot: '0x056b23fbba480696b65fe5a59b8f2148a1299103c4f57df839233af2cf4ca2d2',
  logsBloom: ZERO_BLOOM,
  difficulty: '0x0',
  number: '0x1f4',
  gasLimit: '0x47e7c40',
  gasUsed: '0x5208',
  timestamp: '0x1388',
  extraData: '0x',
  mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
  nonce: '0x0000000000000000',
  baseFeePerGas: '0x7',
  withdrawalsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  blobGasUsed: '0x0',
  excessBlobGas: '0x0',
  parentBeaconBlockRoot: '0xf653da50cdff4733f13f7a5e338290e883bdf04adf3f112709728063ea965d6c',
  hash: '0x36a166f0dcd160fc5e5c61c9a7c2d7f236d9175bf27f43aaa2150e291f092ef7',
};

/** The HeaderJsonError `json` throws. */
function refusal(json: unknown, layout?: 'coreth' | 'subnet-evm'): HeaderJsonError {
  try {
    headerFromJson(json, layout);
  } catch (e) {
    expect(e).toBeInstanceOf(HeaderJsonError);
    expect((e as Error).message).not.toContain('\n');
    return e as HeaderJsonError;
  }
  throw new Error('headerFromJson accepted it');
}

describe('headerFromJson on JSON other nodes served', () => {
  it("coreth's RPC test vector, with the Granite tail", () => {
    const { header, hash, layout } = headerFromJson(CORETH_TESTDATA);
    expect(layout).toBe('coreth');
    expect(hex(hash)).toBe(CORETH_TESTDATA.hash);
    expect(header.timeMilliseconds).toBe(10_000n);
    expect(header.minDelayExcess).toBe(0x799d4cn);
    expect(header.parentBeaconRoot).toEqual(new Uint8Array(32));
  });

  it('mainnet C-Chain blocks of 2021, 2023 and 2024, each with its hash', () => {
    for (const block of MAINNET) {
      const { header, hash, layout } = headerFromJson(block);
      expect(layout).toBe('coreth');
      expect(hex(hash)).toBe(block.hash);
      expect(header.number).toBe(BigInt(block.number));
      expect(header.blockGasCost).toBe(BigInt(block.blockGasCost));
      expect(header.blobGasUsed).toBeUndefined();
    }
  });

  it('a field present as null is a tail field the header lacks', () => {
    const block = { ...MAINNET[0]!, blobGasUsed: null, parentBeaconBlockRoot: null, withdrawalsRoot: null };
    expect(hex(headerFromJson(block).hash)).toBe(block.hash);
  });

  it('a tampered field: the mismatch is named, with the hash the fields give', () => {
    const block = { ...MAINNET[1]!, stateRoot: `0x${'11'.repeat(32)}` };
    const e = refusal(block);
    expect(e.message).toMatch(
      /^the upstream's block 30806864 does not hash to its hash 0x3fb8949661bb2f6f5eaa5b16318d3c7e7a0990f8c2382d1fe4389e0caac6519d \(its fields hash to 0x[0-9a-f]{64} as a coreth header\): not a coreth or Subnet-EVM header$/,
    );
    // So is a tail field dropped: the header no longer has the upstream's length.
    const { blockGasCost: _, ...shorter } = MAINNET[1]!;
    expect(refusal(shorter).message).toContain('does not hash to its hash 0x3fb8949661bb');
  });

  it('a missing required field is named: absent or null alike, the block named when its number is known', () => {
    const { stateRoot: _, ...noRoot } = MAINNET[0]!;
    expect(refusal(noRoot).message).toBe("the upstream's block 5760288 has no stateRoot");
    expect(refusal({ ...MAINNET[0]!, receiptsRoot: null }).message).toBe("the upstream's block 5760288 has no receiptsRoot");
    const { number: __, ...noNumber } = MAINNET[0]!;
    expect(refusal(noNumber).message).toBe("the upstream's header has no number");
    const { hash: ___, ...noHash } = MAINNET[0]!;
    expect(refusal(noHash).message).toBe("the upstream's block 5760288 has no hash");
    const { extDataHash: ____, ...noExt } = MAINNET[0]!;
    expect(refusal(noExt, 'coreth').message).toBe("the upstream's block 5760288 has no extDataHash, which every coreth header has");
  });

  it("malformed values are named, with what was wanted (Go's hexutil rules)", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ logsBloom: '0x00' }, 'malformed logsBloom "0x00": want 256 bytes of hex after 0x'],
      [{ miner: '0x0100000000000000000000000000000000000000aa' }, 'malformed miner'],
      [{ nonce: '0x00000000000000' }, 'malformed nonce "0x00000000000000": want 8 bytes of hex after 0x'],
      [{ parentHash: MAINNET[0]!.parentHash.slice(2) }, 'malformed parentHash'],
      [{ stateRoot: `0x${'zz'.repeat(32)}` }, 'malformed stateRoot'],
      [{ extraData: '0x123' }, 'malformed extraData "0x123": want whole bytes of hex after 0x'],
      [{ gasLimit: '0x07a1200' }, 'malformed gasLimit "0x07a1200": want a 64-bit hex quantity without leading zeros'],
      [{ gasUsed: '0x' }, 'malformed gasUsed "0x"'],
      [{ timestamp: 1634496375 }, 'malformed timestamp 1634496375: want a hex string'],
      [{ timestamp: '0x10000000000000000' }, 'malformed timestamp'],
      // 257 bits; the value is cut to 24 characters in the message.
      [{ baseFeePerGas: `0x1${'0'.repeat(64)}` }, `malformed baseFeePerGas "0x1${'0'.repeat(19)}…: want a 256-bit hex quantity without leading zeros`],
      [{ hash: '0x1234' }, 'malformed hash "0x1234"'],
    ];
    for (const [change, message] of cases) expect(refusal({ ...MAINNET[0]!, ...change }).message).toContain(`the upstream's block 5760288 has a ${message}`);
    expect(refusal({ ...MAINNET[0]!, number: '5760288' }).message).toBe(
      `the upstream's header has a malformed number "5760288": want a 256-bit hex quantity without leading zeros`,
    );
    // Go's decoder takes 0X and upper-case digits: so does this.
    expect(hex(headerFromJson({ ...MAINNET[0]!, gasLimit: '0X7A1200', hash: MAINNET[0]!.hash.toUpperCase().replace('0X', '0x') }).hash)).toBe(MAINNET[0]!.hash);
  });

  it('not an object: null (no such block), an array, a string', () => {
    expect(refusal(null).message).toBe("the upstream's header is null, not a JSON object (no such block)");
    expect(refusal([]).message).toBe("the upstream's header is [], not a JSON object");
    expect(refusal('0x1').message).toBe(`the upstream's header is "0x1", not a JSON object`);
  });

  it('a Subnet-EVM header with coreth-only fields, and fields of a later avalanchego, are refused by name', () => {
    const { extDataHash: _, ...noExt } = MAINNET[0]!;
    expect(refusal(noExt).message).toBe("the upstream's block 5760288 has extDataGasUsed, which a Subnet-EVM header does not have");
    expect(refusal({ ...CORETH_TESTDATA, targetExponent: '0x0' }).message).toBe(
      "the upstream's block 1 has targetExponent, a header field of a later avalanchego than the coreth layout this emulator encodes (through minDelayExcess)",
    );
  });

  it('an Ethereum header: refused for withdrawalsRoot; without it, read as Subnet-EVM and refused by the hash check', () => {
    expect(refusal(ETHEREUM).message).toBe(
      "the upstream's block 500 has withdrawalsRoot, an Ethereum header field that coreth and Subnet-EVM headers do not have: not a coreth or Subnet-EVM header",
    );
    const { withdrawalsRoot: _, ...bare } = ETHEREUM;
    expect(refusal(bare).message).toMatch(
      /^the upstream's block 500 does not hash to its hash 0x36a166f0dcd160fc5e5c61c9a7c2d7f236d9175bf27f43aaa2150e291f092ef7 \(its fields hash to 0x[0-9a-f]{64} as a subnet-evm header\): not a coreth or Subnet-EVM header$/,
    );
  });
});
