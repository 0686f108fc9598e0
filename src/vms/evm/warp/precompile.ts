// The warp precompile's address and the event it logs a sent message with, on coreth and
// Subnet-EVM alike (the messages themselves are src/vms/components/warp's).
import { knownKeccak } from '../../../crypto/keccak.js';

/** The warp precompile's address (unprefixed hex). */
export const WARP_ADDRESS_HEX = '0200000000000000000000000000000000000005';
/** SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message). */
export const SEND_WARP_MESSAGE_TOPIC = knownKeccak(
  'SendWarpMessage(address,bytes32,bytes)',
  '56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d',
);
