// The AVM's public surface (the X-Chain): what code outside src/vms may import of it, and nothing
// else (test/architecture.test.ts). Inside, the VM's modules import each other directly.
export { avmFactory, type AvmChain } from './factory.js';
export type { XChain } from './vm.js';
// Building the X-Chain's genesis txs (src/genesis).
export { buildTx, compareBytes, marshalUnsignedTx, outputSortKey } from './codec/index.js';
export type { Output, UnsignedTx } from './types.js';
// ewoq and the --test-accounts, funded on the X-Chain.
export { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, fundingTx, privateKeyString, TEST_ACCOUNT_BALANCE, type TestAccount, testAccounts } from './testaccounts.js';
