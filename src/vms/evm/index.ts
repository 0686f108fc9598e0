// The EVM's public surface (the C-Chain and every Subnet-EVM chain): what code outside src/vms may
// import of it, and nothing else (test/architecture.test.ts). Inside, the VM's modules import each
// other directly.
export { evmFactory, type EvmChainVM, l1ValidatorsFromConfig, type SubnetMember } from './factory.js';
export type { EvmChain } from './chain.js';
// Forking (--fork-url): the forks of the node's chains, kept across rebuilds of its core.
export { ChainForks } from './fork/forks.js';
export { ForkError } from './fork/open.js';
export { type ForkedL1Rules, forkedL1Rules } from './fork/l1genesis.js';
export type { AcceptedEvmBlock } from './chaintypes.js';
export type { DevSettings } from './devcontrols.js';
// ewoq and the --test-accounts, funded on the EVM chains.
export { canFundTestAccounts, EWOQ_EVM_ADDRESS, evmAddressOf, fundTestAccounts, TEST_ACCOUNT_WEI, untouched } from './testaccounts.js';
// Accepted history and calls, for the node's followers (the Data API): values, not JSON-RPC replies.
export type { StoredBlock } from './store.js';
export type { EvmLog, TxRecord } from './records.js';
export { blockTxs } from './queries.js';
export { txHash } from './txcodec.js';
export { call } from './calls.js';
export { type CallFrameJson, callTraces } from './trace/replay.js';
export type { InternalTx } from './trace/internal.js';
// Warp: the signers of a chain's messages and their aggregation.
export { aggregate, QuorumError, type WarpValidator } from './warp/signers.js';
// ICM: the messenger's placement, its messages and their delivery (for the node's relayer).
export { placeIcm, RELAYER_FUNDS } from './icm/placement.js';
export { CREATE2_DEPLOYER, placeCreate2Deployer } from './create2deployer.js';
export { REGISTRY_ADDRESS } from './icm/registry.js';
export { deliveryTx, messageReceived } from './icm/delivery.js';
export { executionOf, icmSends, MESSENGER_ADDRESS, type TeleporterMessage, teleporterMessageOf } from './icm/teleporter.js';
