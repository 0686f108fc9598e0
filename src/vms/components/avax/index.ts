// The avax component's public surface: what code outside src/vms may import of it
// (test/architecture.test.ts). The VMs import its modules directly.
export { decodeBech32, formatAddress } from './address.js';
