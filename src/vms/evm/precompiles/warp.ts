// The warp precompile (subnet-evm precompile/contracts/warp, coreth's alike): sendWarpMessage builds
// an unsigned message from this chain (network ID, blockchain ID, AddressedCall(caller, payload))
// and logs it, for the node to sign once its block is accepted; getBlockchainID. Receiving
// (getVerifiedWarpMessage, getVerifiedWarpBlockHash) answers from the tx's warp predicates: the
// emulator refuses txs that carry any (chain.ts), so there is never one to verify here.
import { addressedCall, messageID, unsignedMessage } from '../warp/message.js';
import { eventTopic, functionSelector } from './allowlist.js';
import { addressWord, logGas, PrecompileError, type PrecompileFunction, uintArg, word, wordOf } from './contract.js';

const SENT = eventTopic('SendWarpMessage(address,bytes32,bytes)');
/** SendWarpMessageGasCost: the log and its two topics, storing the message, a slot write. */
const SEND_GAS = logGas(3, 0) + 20_000n + 20_000n;
const SEND_GAS_PER_BYTE = 8n;
/** Granite's costs (200 and 750; 2 before it). */
const BLOCKCHAIN_ID_GAS = 200n;
const VERIFIED_BASE_GAS = 750n;

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

export function warpFunctions(ctx: WarpContext): PrecompileFunction[] {
  return [
    {
      selector: functionSelector('sendWarpMessage(bytes)'),
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
        call.log([SENT, addressWord(call.caller), id], abiBytes(unsigned));
        return id;
      },
    },
    {
      selector: functionSelector('getBlockchainID()'),
      gas: BLOCKCHAIN_ID_GAS,
      run: async () => ctx.blockchainID,
    },
    {
      selector: functionSelector('getVerifiedWarpMessage(uint32)'),
      gas: VERIFIED_BASE_GAS,
      async run(call) {
        word(call.input, 0);
        // (WarpMessage{sourceChainID, originSenderAddress, payload}, valid): empty and false.
        return new Uint8Array(Buffer.concat([wordOf(64n), wordOf(0n), wordOf(0n), wordOf(0n), wordOf(96n), wordOf(0n)]));
      },
    },
    {
      selector: functionSelector('getVerifiedWarpBlockHash(uint32)'),
      gas: VERIFIED_BASE_GAS,
      async run(call) {
        word(call.input, 0);
        return new Uint8Array(Buffer.concat([wordOf(0n), wordOf(0n), wordOf(0n)]));
      },
    },
  ];
}
