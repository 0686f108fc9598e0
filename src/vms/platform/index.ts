// The platform VM's public surface (the P-Chain): what code outside src/vms may import of it, and
// nothing else (test/architecture.test.ts). Inside, the VM's modules import each other directly.
export { platformFactory, type PlatformChainVM } from './factory.js';
export type { PChain } from './vm.js';
export type { CreatedChain } from './execute/index.js';
export { subnetMembers } from './validators.js';
// The node's wallet for --l1: the txs that create its subnets, chains and L1s.
export { PWallet } from './wallet.js';
// Building the P-Chain's genesis (src/genesis).
export { buildTx, marshalGenesis, type PGenesis } from './codec/index.js';
export type { Block, ConvertValidator, SignedTx, UnsignedTx } from './types.js';
// Warp: the P-Chain's own messages, the signature-request rules and the aggregator (the Data API, the node's signing API).
export { conversionID } from './execute/l1.js';
export { marshalPlatformMessage, parsePlatformMessage } from './warp.js';
export { aggregateFor, refusal, SigningError } from './signing.js';
export { signingMethods } from './api/signing.js';
