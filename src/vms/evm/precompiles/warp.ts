// The warp precompile (subnet-evm precompile/contracts/warp, coreth's alike): sendWarpMessage builds
// an unsigned message from this chain (network ID, blockchain ID, AddressedCall(caller, payload))
// and logs it, for the node to sign once its block is accepted; getBlockchainID. Receiving
// (getVerifiedWarpMessage, getVerifiedWarpBlockHash) answers from the running tx's warp predicates,
// verified before it ran (warp/receive.ts): a verified message, or (empty, false).
import { addressedCall, messageID, unsignedMessage } from '../../components/warp/message.js';
import { SEND_WARP_MESSAGE_TOPIC } from '../warp/precompile.js';
import { runningPredicates } from '../warp/receive.js';
import type { Call } from './contract.js';
import { addressWord, logGas, PrecompileError, type PrecompileFunction, uintArg, wordOf } from './contract.js';

/** SendWarpMessageGasCost: the log and its two topics, storing the message, a slot write. */
const SEND_GAS = logGas(3, 0) + 20_000n + 20_000n;
const SEND_GAS_PER_BYTE = 8n;
/** Granite's costs (200 and 750; 2 before it). */
const BLOCKCHAIN_ID_GAS = 200n;
const VERIFIED_BASE_GAS = 750n;
const PER_CHUNK_GAS = 512n;
const MAX_INT32 = 2n ** 31n - 1n;

const INVALID_MESSAGE = () => new Uint8Array(Buffer.concat([wordOf(64n), wordOf(0n), wordOf(0n), wordOf(0n), wordOf(96n), wordOf(0n)]));
const INVALID_HASH = () => new Uint8Array(Buffer.concat([wordOf(0n), wordOf(0n), wordOf(0n)]));

/** handleWarpMessage: the predicate at the index, if it is there and valid, with its gas; else undefined. */
function verifiedPredicate(call: Call): { sourceChainID: Uint8Array; payload: Buffer } | undefined {
  const index = uintArg(call.input, 0) & 0xffffffffn;
  if (index > MAX_INT32) throw new PrecompileError('invalid index to specify warp message: larger than MaxInt32');
  const p = runningPredicates(call.evm);
  const i = Number(index);
  const m = p?.messages[i];
  if (!p || !m || p.invalid.has(i)) return undefined;
  call.deduct(PER_CHUNK_GAS * BigInt(p.chunks[i]!));
  return { sourceChainID: m.sourceChainID, payload: Buffer.from(m.payload) };
}

export interface WarpContext {
  networkID: number;
  blockchainID: Uint8Array;
}

/** ABI `bytes`: offset, length, data padded to 32. */
function abiBytes(data: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(data.length / 32) * 32);
  padded.set(data);
  return new Uint8Array(Buffer.concat([wordOf(32n), wordOf(BigInt(data.length)), padded]));
}

function unpackBytes(input: Uint8Array): Uint8Array {
  const offset = Number(uintArg(input, 0));
  if (offset % 32 !== 0 || offset + 32 > input.length) throw new PrecompileError('abi: cannot marshal in to go type: length insufficient');
  const length = Number(uintArg(input.subarray(offset), 0));
  if (offset + 32 + length > input.length)
    throw new PrecompileError(`abi: cannot marshal in to go type: length insufficient ${input.length} require ${offset + 32 + length}`);
  return input.subarray(offset + 32, offset + 32 + length);
}

/** common.BytesToAddress, left-padded to a word: the last 20 bytes. */
const setAddress = (b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  const tail = b.subarray(Math.max(0, b.length - 20));
  out.set(tail, 32 - tail.length);
  return out;
};

export function warpFunctions(ctx: WarpContext): PrecompileFunction[] {
  return [
    {
      signature: 'sendWarpMessage(bytes)',
      gas: SEND_GAS,
      async run(call) {
        // Charged on the input's size, before unpacking it.
        call.deduct(SEND_GAS_PER_BYTE * BigInt(call.input.length));
        call.writable();
        let payload: Uint8Array;
        try {
          payload = unpackBytes(call.input);
        } catch (err) {
          throw new PrecompileError(`invalid input for send: ${(err as Error).message}`);
        }
        const unsigned = unsignedMessage(ctx.networkID, ctx.blockchainID, addressedCall(call.caller.bytes, payload));
        const id = messageID(unsigned);
        call.log([SEND_WARP_MESSAGE_TOPIC, addressWord(call.caller), id], abiBytes(unsigned));
        return id;
      },
    },
    {
      signature: 'getBlockchainID()',
      gas: BLOCKCHAIN_ID_GAS,
      run: async () => ctx.blockchainID,
    },
    {
      signature: 'getVerifiedWarpMessage(uint32)',
      gas: VERIFIED_BASE_GAS,
      async run(call) {
        const m = verifiedPredicate(call);
        if (!m) return INVALID_MESSAGE();
        // An AddressedCall: its source address and payload.
        if (m.payload.readUInt32BE(2) !== 1) throw new PrecompileError('cannot unpack addressed payload: wrong payload type');
        const sourceLength = m.payload.readUInt32BE(6);
        const source = m.payload.subarray(10, 10 + sourceLength);
        const dataLength = m.payload.readUInt32BE(10 + sourceLength);
        const data = m.payload.subarray(14 + sourceLength, 14 + sourceLength + dataLength);
        const padded = Buffer.alloc(Math.ceil(data.length / 32) * 32);
        data.copy(padded);
        // (WarpMessage{sourceChainID, originSenderAddress, payload}, true)
        return new Uint8Array(Buffer.concat([wordOf(64n), wordOf(1n), m.sourceChainID, setAddress(source), wordOf(96n), wordOf(BigInt(data.length)), padded]));
      },
    },
    {
      signature: 'getVerifiedWarpBlockHash(uint32)',
      gas: VERIFIED_BASE_GAS,
      async run(call) {
        const m = verifiedPredicate(call);
        if (!m) return INVALID_HASH();
        if (m.payload.readUInt32BE(2) !== 0) throw new PrecompileError('cannot unpack block hash payload: wrong payload type');
        return new Uint8Array(Buffer.concat([m.sourceChainID, m.payload.subarray(6, 38), wordOf(1n)]));
      },
    },
  ];
}
