// Well-known IDs of the primary network. VM and fx IDs are their ASCII names zero-padded to 32
// bytes (avalanchego utils/constants), so they are derived here, not pasted.
import { encodeCB58, EMPTY_ID } from '../encoding/cb58.js';

export function idFromName(name: string): string {
  const bytes = new Uint8Array(32);
  bytes.set(Buffer.from(name, 'ascii'));
  return encodeCB58(bytes);
}

export const PRIMARY_NETWORK_ID = EMPTY_ID;
export const P_CHAIN_ID = EMPTY_ID;

export const VM_IDS = {
  platform: idFromName('platformvm'),
  avm: idFromName('avm'),
  evm: idFromName('evm'),
  subnetEvm: idFromName('subnetevm'),
} as const;

export const FX_IDS = {
  secp256k1fx: idFromName('secp256k1fx'),
  nftfx: idFromName('nftfx'),
  propertyfx: idFromName('propertyfx'),
} as const;

/** Local staker 1 of the local genesis: the node the emulator stands for. */
export const LOCAL_NODE = {
  nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
  publicKey: '0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d',
  proofOfPossession:
    '0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2',
} as const;

/**
 * constants.GetHRP: the bech32 prefix of a network's addresses, for VMs that format them without
 * the node's config (the C-Chain's avax API). src/config/network.ts holds the same table for the
 * node's flags; the layers keep them apart.
 */
export function hrpOf(networkID: number): string {
  const known: Record<number, string> = { 1: 'avax', 2: 'cascade', 3: 'denali', 4: 'everest', 5: 'fuji', 10: 'testing', 12345: 'local' };
  return known[networkID] ?? 'custom';
}
