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
import { aggregateAny, type WarpValidator } from '../warp/signers.js';
import { goUint64, text } from './fields.js';
import { goQuote } from '../../../encoding/goquote.js';
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
  /** The P-Chain's current height, which the validator sets are read at. */
  pChainHeight(): bigint;
}

/**
 * ids.ID's UnmarshalJSON: a quoted CB58 of 32 bytes (null: the empty ID); a CB58 that does not
 * decode is `couldn't decode ID to bytes: …`, a wrong length ToID's bare text.
 */
const id: Field<Uint8Array> = {
  decode(v) {
    if (typeof v !== 'string') throw new ParamsError('first and last characters should be quotes');
    let b: Uint8Array;
    try {
      b = decodeCB58(v);
    } catch (err) {
      throw new ParamsError(`couldn't decode ID to bytes: ${(err as Error).message}`);
    }
    if (b.length !== 32) throw new ParamsError(`invalid hash length: expected 32 bytes but got ${b.length}`);
    return b;
  },
  decodeNull: () => new Uint8Array(32),
  zero: () => new Uint8Array(32),
};

/** ids.FromString of a subnetID argument: CB58 of 32 bytes, else the service's one text; "" is the chain's own. */
function subnetOf(text: string, own: Uint8Array): Uint8Array {
  if (text === '') return own;
  let b: Uint8Array | undefined;
  try {
    b = decodeCB58(text);
  } catch {}
  if (b?.length !== 32) throw new RpcError(`failed to parse subnetID: ${goQuote(text)}`);
  return b;
}

export function warpService(d: WarpDeps): ServiceDef {
  /** backend.GetMessage: the unsigned message, or its bare `not found`. */
  const message = async (messageID: Uint8Array) => {
    const unsigned = await d.chain.warpMessage(messageID);
    if (!unsigned) throw new RpcError('not found');
    return unsigned;
  };
  const wrapped = async <T>(what: string, id: Uint8Array, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      throw new RpcError(`failed to get ${what} ${encodeCB58(id)} with error ${err.message}`);
    }
  };
  const blockMessage = (blockID: Uint8Array) => unsignedMessage(d.networkID, d.blockchainID, hashPayload(blockID));
  /** The block's hash message, once the block is known to be accepted (the verifier's check, code 2). */
  const acceptedBlockMessage = async (blockID: Uint8Array) => {
    if (!(await d.chain.store.block(blockID))) {
      throw new RpcError(`failed to validate block message: 2: failed to get block ${encodeCB58(blockID)}: not found`);
    }
    return blockMessage(blockID);
  };
  /**
   * aggregateSignatures: the subnet's warp set at the P-Chain's height, signed until the quorum is
   * met (short of it is no error); "0x" when no one signed.
   */
  const aggregated = (unsigned: Uint8Array, quorumNum: bigint, subnet: Uint8Array, willSign = true) => {
    const subnetID = encodeCB58(subnet);
    const validators = d.validatorsOf(subnetID);
    if (validators.length === 0) throw new RpcError(`cannot retrieve validator set: ${subnetID} source subnet not found`);
    const signed = aggregateAny(unsigned, validators, quorumNum, willSign);
    if (!signed) throw new RpcError(`cannot aggregate signatures from subnet with no validators (SubnetID: ${subnetID}, Height: ${d.pChainHeight()})`);
    return toHex0x(signed);
  };
  return {
    name: 'warp',
    methods: {
      getMessage: method(positional([id]), async ([messageID]) =>
        toHex0x(await wrapped('message', messageID as Uint8Array, () => message(messageID as Uint8Array))),
      ),
      getMessageSignature: method(positional([id]), async ([messageID]) =>
        toHex0x(sign(await wrapped('message', messageID as Uint8Array, () => message(messageID as Uint8Array)), d.secretKey)),
      ),
      getBlockSignature: method(positional([id]), async ([blockID]) =>
        toHex0x(sign(await wrapped('signature for block', blockID as Uint8Array, () => acceptedBlockMessage(blockID as Uint8Array)), d.secretKey)),
      ),
      getMessageAggregateSignature: method(positional([id, goUint64, text]), async ([messageID, quorum, subnetID]) => {
        const unsigned = await message(messageID as Uint8Array);
        return aggregated(unsigned, BigInt(quorum as number), subnetOf(subnetID as string, d.subnetID));
      }),
      // The API asks for the block's hash as given: the validators check the block, and sign only
      // one they accepted (none signing, the answer is "0x").
      getBlockAggregateSignature: method(positional([id, goUint64, text]), async ([blockID, quorum, subnetID]) => {
        const subnet = subnetOf(subnetID as string, d.subnetID);
        const accepted = (await d.chain.store.block(blockID as Uint8Array)) !== undefined;
        return aggregated(blockMessage(blockID as Uint8Array), BigInt(quorum as number), subnet, accepted);
      }),
    },
  };
}
