// coreth's header encoding, block hash and state accounts, held to coreth's own golden vector and
// to the local network's C-Chain genesis (docs/research/cchain.md §1-2): the first bricks of the
// EVM chains, whose block hashes clients re-derive from eth_getBlockByHash.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { LOCAL_C_CHAIN_GENESIS } from '../src/genesis/cchain.js';
import { genesisBlock } from '../src/vms/evm/genesis.js';
import { EMPTY_ROOT, EMPTY_UNCLES, encodeBlock, encodeHeader, headerHash } from '../src/vms/evm/header.js';
import { encodeAccount, stateRoot } from '../src/vms/evm/state.js';

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
    const g = await genesisBlock(LOCAL_C_CHAIN_GENESIS);
    expect(g.chainId).toBe(43112);
    expect(hex(g.header.stateRoot)).toBe('0x3283022557b0e7ad755ac1739dbff2937186a2ed160772ba6c6009cb327a638f');
    expect(hex(g.hash)).toBe('0x608ddbd611241719b64642d8e152537e2a5bdf46b6ddb9e8f15340c5e007b8b1');
    expect(encodeBlock(g.header, []).length).toBe(0x256);
    expect(g.header.baseFee).toBe(225_000_000_000n);
    expect(g.accounts.get('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')?.balance).toBe(50_000_000n * 10n ** 18n);
  });
});
