// The warp component's public surface: what code outside src/vms may import of it
// (test/architecture.test.ts). The VMs import its modules directly.
export { proofOfPossession, publicKeyOf } from './bls.js';
export {
  addressedCall,
  messageID,
  parseAddressedCall,
  parseSignedMessage,
  parseUnsignedMessage,
  type UnsignedMessage,
  unsignedMessage,
} from './message.js';
