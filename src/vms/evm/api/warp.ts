// The warp API (subnet-evm and coreth warp/service.go, on /rpc and /ws when the chain config has
// warp-api-enabled): the unsigned messages this chain's accepted txs sent or its chain config lists
// (warp-off-chain-messages), this node's BLS signature of one or of an accepted block's hash, and
// aggregate signatures of the signing subnet's validators (all of which run in this process). IDs
// are CB58.
import { decodeCB58, encodeCB58 } from '../../../encoding/cb58.js';
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { type Field, ParamsError } from '../../../rpc/schema.js';
import type { EvmChain } from '../chain.js';
import { sign } from '../../components/warp/bls.js';
import { hashPayload, unsignedMessage } from '../../components/warp/message.js';
import { aggregate, QuorumError, type WarpValidator } from '../warp/signers.js';
import { goUint64 } from './fields.js';
import { toHex0x } from '../../../encoding/bytes.js';

export interface WarpDeps {
  chain: EvmChain;
  networkID: number;
  blockchainID: Uint8Array;
  subnetID: Uint8Array;
  /** This node's signing key. */
  secretKey: Uint8Array;
  /** The validators of a subnet, by its ID (CB58); none for a subnet the node does not know. */
  validatorsOf(subnetID: string): WarpValidator[];
}

/** ids.ID as JSON: a CB58 string. */
const id: Field<Uint8Array> = {
  decode(v) {
    if (typeof v !== 'string') throw new ParamsError('json: cannot unmarshal non-string into Go value of type ids.ID');
    try {
      const b = decodeCB58(v);
      if (b.length !== 32) throw new Error('wrong length');
      return b;
    } catch (err) {
      throw new ParamsError(`couldn't decode ID to bytes: ${(err as Error).message}`);
    }
  },
  zero: () => new Uint8Array(32),
};

const subnet: Field<string> = {
  decode(v) {
    if (typeof v !== 'string') throw new ParamsError('json: cannot unmarshal non-string into Go value of type string');
    return v;
  },
  zero: () => '',
};

export function warpService(d: WarpDeps): ServiceDef {
  const message = async (messageID: Uint8Array, what: string) => {
    const unsigned = await d.chain.warpMessage(messageID);
    if (!unsigned) throw new RpcError(`failed to get ${what} ${encodeCB58(messageID)} with error not found`);
    return unsigned;
  };
  const blockMessage = async (blockID: Uint8Array) => {
    const block = await d.chain.store.block(blockID);
    if (!block) throw new RpcError(`failed to get block ${encodeCB58(blockID)}: not found`);
    return unsignedMessage(d.networkID, d.blockchainID, hashPayload(blockID));
  };
  const aggregated = (unsigned: Uint8Array, quorum: bigint, subnetID: string) => {
    const validators = d.validatorsOf(subnetID === '' ? encodeCB58(d.subnetID) : subnetID);
    try {
      return toHex0x(aggregate(unsigned, validators, quorum));
    } catch (err) {
      if (err instanceof QuorumError) throw new RpcError(err.message);
      throw err;
    }
  };
  return {
    name: 'warp',
    methods: {
      getMessage: method(positional([id]), async ([messageID]) => toHex0x(await message(messageID as Uint8Array, 'message'))),
      getMessageSignature: method(positional([id]), async ([messageID]) =>
        toHex0x(sign(await message(messageID as Uint8Array, 'signature for message'), d.secretKey)),
      ),
      getBlockSignature: method(positional([id]), async ([blockID]) => toHex0x(sign(await blockMessage(blockID as Uint8Array), d.secretKey))),
      getMessageAggregateSignature: method(positional([id, goUint64, subnet]), async ([messageID, quorum, subnetID]) =>
        aggregated(await message(messageID as Uint8Array, 'message'), BigInt(quorum as number), subnetID as string),
      ),
      getBlockAggregateSignature: method(positional([id, goUint64, subnet]), async ([blockID, quorum, subnetID]) =>
        aggregated(await blockMessage(blockID as Uint8Array), BigInt(quorum as number), subnetID as string),
      ),
    },
  };
}
