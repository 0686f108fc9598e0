// The P-Chain genesis of the local network, byte for byte: the IDs avalanchego's genesis_test.go
// gives for the unmodified local config, and the IDs for a rolled start time.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { encodeCB58 } from '../src/encoding/cb58.js';
import { primaryNetworkChains, primaryPlatformGenesis } from '../src/genesis/primary.js';
import { buildGenesisBlock, marshalGenesis, parseGenesis } from '../src/vms/platform/codec/index.js';

describe('P-Chain genesis', () => {
  it('matches genesis_test.go for the local config at its own start time (1721016000)', () => {
    const g = primaryPlatformGenesis(12345, 1721016000n);
    const bytes = marshalGenesis(g);
    expect(bytes.length).toBe(4141);
    const id = sha256(bytes);
    expect(encodeCB58(id)).toBe('2nRRoR76HuEk1JjDpRdN8FKvZFvUXWxY3b9C5rZRPFjcgEh7S7');
    expect(encodeCB58(buildGenesisBlock(id).id)).toBe('2EMQkbjh1YYPsgsMtjWveeQcKvtttNKwVhuR1kcjhBmrRgPcpk');
  });

  it('rolls with the start time; the chain IDs do not', () => {
    const g = primaryPlatformGenesis(12345, 1791000000n);
    const bytes = marshalGenesis(g);
    expect(encodeCB58(sha256(bytes))).toBe('u1NtdJoguoeGEz5ZHqAECaCPvfnqijuwfBdjpomnGge4Je8Lq');
    expect(encodeCB58(buildGenesisBlock(sha256(bytes)).id)).toBe('2kdALCW3F7vR7MkpYLC4m7yhyByiSTT3g5AzYcZGWhiRnq7YYr');
    expect(g.validators.map((t) => encodeCB58(t.id)).sort()).toEqual(
      [
        '2P6ke9Z1MnX3b4zEpGWYapykioqq8bRGSEY6sDewGpRq6NunRe',
        'ppZMP4uusjq8g8JzELTe3njdeKcsKGXTETpEufimwDT5FR26D',
        '4CzBc7RnsFB6NHaosL7jNe98PbXiEakjjA3XnFqAt53vUzsyd',
        '2bVAoFmgAz1jLZSVL1wbwPWx4LaTUVkjchBhSL6Zqj9XcakYQb',
        'LDV9xafRo1d8ENJnxgTuA1BV2z27a4bwDs8sxgQejW8eBwHtR',
      ].sort(),
    );
    const [, x, c] = primaryNetworkChains(12345, g);
    expect(encodeCB58(x!.chainID)).toBe('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
    expect(encodeCB58(c!.chainID)).toBe('2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC');
    // The genesis parses back to the same bytes.
    expect(Buffer.from(marshalGenesis(parseGenesis(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });
});
