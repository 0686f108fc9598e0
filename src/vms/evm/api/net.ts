// net_* and web3_* (coreth: NetworkId = the chain ID, no peers, always listening).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { method, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { bytes } from './fields.js';
import { hex } from './format.js';

/** What web3_clientVersion reports: the avalanchego release whose coreth the emulator follows. */
export const CLIENT_VERSION = 'v1.14.2';

export function netService(chainId: bigint): ServiceDef {
  return {
    name: 'net',
    methods: {
      version: method(positional([]), () => chainId.toString()),
      listening: method(positional([]), () => true),
      peerCount: method(positional([]), () => '0x0'),
    },
  };
}

export function web3Service(): ServiceDef {
  return {
    name: 'web3',
    methods: {
      clientVersion: method(positional([]), () => CLIENT_VERSION),
      sha3: method(positional([bytes]), ([data]) => hex(keccak_256(data as Uint8Array))),
    },
  };
}
