// net_* and web3_* (coreth: NetworkId = the chain ID, no peers, always listening).
import { keccak256 } from '../../../crypto/keccak.js';
import { method, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { bytes } from './fields.js';
import { toHex0x } from '../../../encoding/bytes.js';

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

/** web3_clientVersion reports the chain's client: coreth's avalanchego release, or subnet-evm's version. */
export function web3Service(clientVersion: string): ServiceDef {
  return {
    name: 'web3',
    methods: {
      clientVersion: method(positional([]), () => clientVersion),
      sha3: method(positional([bytes]), ([data]) => toHex0x(keccak256(data as Uint8Array))),
    },
  };
}
