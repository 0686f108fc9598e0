// coreth's header encoding, block hash and state accounts, held to coreth's own golden vector and
// to the local network's C-Chain genesis (docs/research/cchain.md §1-2): the first bricks of the
// EVM chains, whose block hashes clients re-derive from eth_getBlockByHash.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { LOCAL_C_CHAIN_GENESIS } from '../src/genesis/cchain.js';
import { RLP } from '@ethereumjs/rlp';
import { systemClock } from '../src/chains/clock.js';
import { openDatabase } from '../src/storage/db.js';
import { EvmChain } from '../src/vms/evm/chain.js';
import { corethFlavor } from '../src/vms/evm/flavor.js';
import { parseGenesisJson } from '../src/vms/evm/genesis.js';
import { barePrecompile } from '../src/vms/evm/precompiles/config.js';
import { decodeHeader, EMPTY_ROOT, EMPTY_UNCLES, encodeBlock, encodeHeader, headerHash } from '../src/vms/evm/header.js';
import { encodeAccount, stateRoot } from './support/accounts.js';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const addressOf = (key: string) => keccak_256(secp256k1.getPublicKey(Buffer.from(key, 'hex'), false).subarray(1)).subarray(12);

describe('coreth header and state encoding', () => {
  it("reproduces coreth's golden genesis (internal/ethapi TestRPCGetBlockOrHeader): state root, hash and size", async () => {
    const keys = [
      '8a1f9a8f95be41cd7ccb6168179afb4504aefe388d1e14474d32c45c72ce7b7a',
      '49a7b37aa6f6645917e7b807e9d1c00d4fa71f18343b0d4122a4d2df64dd6fee',
      'b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291',
    ];
    const root = await stateRoot(keys.map((k) => [addressOf(k), { balance: 10n ** 18n }]));
    expect(hex(root)).toBe('0xb7b3d2030ccceaa351c051a03a77862e839cf96e5eec451c4697232e703b754b');
    const header = {
      parentHash: new Uint8Array(32),
      uncleHash: EMPTY_UNCLES,
      coinbase: new Uint8Array(20),
      stateRoot: root,
      txHash: EMPTY_ROOT,
      receiptHash: EMPTY_ROOT,
      bloom: new Uint8Array(256),
      difficulty: 0x20000n,
      number: 0n,
      gasLimit: 4_712_388n,
      gasUsed: 0n,
      time: 0n,
      extra: new Uint8Array(),
      mixDigest: new Uint8Array(32),
      nonce: new Uint8Array(8),
      extDataHash: new Uint8Array(32),
      baseFee: 225_000_000_000n,
      extDataGasUsed: 0n,
      blockGasCost: 0n,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconRoot: new Uint8Array(32),
      timeMilliseconds: 0n,
      minDelayExcess: 0x799d4cn,
    };
    expect(hex(headerHash(header))).toBe('0x258e78c10ee669d502425096e02e3e01646ec993cd09076f28c5731b1fefa4b1');
    expect(encodeBlock(header, []).length).toBe(0x24e);
  });

  it('writes isMultiCoin as the fifth account field (false as the empty string), which changes the root', async () => {
    const account = encodeAccount({ nonce: 1n, balance: 2n });
    expect(account.at(-1)).toBe(0x80);
    expect(encodeAccount({ isMultiCoin: true }).at(-1)).toBe(0x01);
    const a = await stateRoot([[new Uint8Array(20).fill(1), { balance: 1n }]]);
    const b = await stateRoot([[new Uint8Array(20).fill(1), { balance: 1n, isMultiCoin: true }]]);
    expect(hex(a)).not.toBe(hex(b));
  });

  it('writes an absent optional field before a present one as the empty string, and drops absent ones at the end', () => {
    const base = {
      parentHash: new Uint8Array(32),
      uncleHash: EMPTY_UNCLES,
      coinbase: new Uint8Array(20),
      stateRoot: EMPTY_ROOT,
      txHash: EMPTY_ROOT,
      receiptHash: EMPTY_ROOT,
      bloom: new Uint8Array(256),
      difficulty: 1n,
      number: 1n,
      gasLimit: 1n,
      gasUsed: 0n,
      time: 1n,
      extra: new Uint8Array(),
      mixDigest: new Uint8Array(32),
      nonce: new Uint8Array(8),
      extDataHash: new Uint8Array(32),
    };
    const short = encodeHeader(base);
    const withFee = encodeHeader({ ...base, baseFee: 7n });
    const withGap = encodeHeader({ ...base, blockGasCost: 0n });
    expect(withFee.length).toBe(short.length + 1);
    expect(withGap.length).toBe(short.length + 3); // baseFee and extDataGasUsed as 0x80, then blockGasCost 0x80
  });
});

describe("the local network's C-Chain genesis", () => {
  it("has coreth's state root (ewoq and the warp precompile stub), block hash and size", async () => {
    const db = await openDatabase('memdb', '');
    const chain = await EvmChain.open(db, {
      clock: systemClock,
      genesis: parseGenesisJson(LOCAL_C_CHAIN_GENESIS),
      flavor: corethFlavor(),
      genesisRules: { etna: true, granite: true },
      precompiles: [barePrecompile('warpConfig', '0200000000000000000000000000000000000005', 1607144400)],
      baseRules: { allowFeeRecipients: false, feeRecipient: new Uint8Array(Buffer.from('0100000000000000000000000000000000000000', 'hex')) },
    });
    try {
      const g = chain.genesis;
      expect(chain.chainId).toBe(43112n);
      expect(hex(g.header.stateRoot)).toBe('0x3283022557b0e7ad755ac1739dbff2937186a2ed160772ba6c6009cb327a638f');
      expect(hex(g.hash)).toBe('0x608ddbd611241719b64642d8e152537e2a5bdf46b6ddb9e8f15340c5e007b8b1');
      expect(g.size).toBe(0x256);
      expect(g.header.baseFee).toBe(225_000_000_000n);
      expect((await chain.account(Buffer.from('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc', 'hex')))?.balance).toBe(50_000_000n * 10n ** 18n);
    } finally {
      await chain.close();
      await db.close();
    }
  });
});

describe('Subnet-EVM header and state encoding (avalanchego 1.14 graft/subnet-evm test vectors)', () => {
  // core/genesis_extra_test.go TestGenesisToBlockDecoding: an empty genesis (gas limit 4,712,388,
  // difficulty 131,072, time 0, DefaultFeeConfig's 25 gwei) at each upgrade level.
  const base = {
    parentHash: new Uint8Array(32),
    uncleHash: EMPTY_UNCLES,
    coinbase: new Uint8Array(20),
    stateRoot: EMPTY_ROOT,
    txHash: EMPTY_ROOT,
    receiptHash: EMPTY_ROOT,
    bloom: new Uint8Array(256),
    difficulty: 131_072n,
    number: 0n,
    gasLimit: 4_712_388n,
    gasUsed: 0n,
    time: 0n,
    extra: new Uint8Array(),
    mixDigest: new Uint8Array(32),
    nonce: new Uint8Array(8),
    baseFee: 25_000_000_000n,
  };
  const cancun = { blockGasCost: 0n, blobGasUsed: 0n, excessBlobGas: 0n, parentBeaconRoot: new Uint8Array(32) };
  const granite = { timeMilliseconds: 0n, minDelayExcess: 7_970_124n };

  it('hashes a header without ExtDataHash, its optional tail up to the last present field', () => {
    expect(hex(headerHash(base))).toBe('0x74dd5d404823f342fb3d372ea289565e5b1ff25d07e48a59db8130c5f61e941a');
    expect(hex(headerHash({ ...base, ...cancun }))).toBe('0xa5de01cb7e5c6d721be62ab4b37878e863d65e0c1fe308e5df1f4c5b148650f9');
    expect(hex(headerHash({ ...base, ...cancun, ...granite }))).toBe('0x4d5ff1b8509d30c6b7842b784a6cf8be78e34c78bc5de8559ea6f15ad18d6a10');
    // A Subnet-EVM block is Ethereum's [header, txs, uncles], and decodes back to the same header.
    const block = encodeBlock({ ...base, ...cancun, ...granite }, []);
    const fields = (RLP.decode(block) as unknown as Uint8Array[][])[0]!;
    expect((RLP.decode(block) as unknown[]).length).toBe(3);
    expect(hex(headerHash(decodeHeader(fields, 'subnet-evm')))).toBe('0x4d5ff1b8509d30c6b7842b784a6cf8be78e34c78bc5de8559ea6f15ad18d6a10');
  });

  it('keeps four-field accounts (core/genesis_test.go TestGenesisBlockForTesting)', async () => {
    const root = await stateRoot([[new Uint8Array(Buffer.from('0100000000000000000000000000000000000000', 'hex')), { balance: 1n }]], false);
    expect(hex(headerHash({ ...base, stateRoot: root, baseFee: 225_000_000_000n, ...cancun, ...granite }))).toBe(
      '0x7d576d17f8083b02cada42b908f66c0f45a9be57a06a4673b89e53b81053a787',
    );
  });
});
