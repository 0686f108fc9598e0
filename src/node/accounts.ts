// --test-accounts: funded on a fresh network from ewoq's genesis funds, on the X-Chain, the C-Chain
// and each L1 whose genesis gave ewoq enough.
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, fundingTx, type TestAccount, testAccounts, type XChain } from '../vms/avm/index.js';
import { canFundTestAccounts, type EvmChain, fundTestAccounts, untouched } from '../vms/evm/index.js';
import { StartError } from './shell.js';

export async function fundAccounts(count: number, xChain: XChain, cChain: EvmChain, l1s: EvmChain[]): Promise<TestAccount[]> {
  const accounts = testAccounts(count);
  if (accounts.length > 0 && xChain.freshGenesis) {
    const [source] = await xChain.state.utxoIDs(EWOQ_ADDRESS, undefined, 1);
    const utxo = source && (await xChain.state.getUTXO(source));
    if (!utxo) throw new StartError('the ewoq genesis UTXO is not available to fund the test accounts');
    await xChain.issueTx(fundingTx(xChain.params, utxo, accounts).bytes);
    await xChain.buildAll();
  }
  const keys = accounts.map((a) => a.privateKey);
  // The C-Chain's genesis always funds ewoq: a funding that fails there stops the start.
  if (accounts.length > 0 && untouched(cChain)) await fundTestAccounts(cChain, EWOQ_PRIVATE_KEY, keys);
  // Hardhat's and Foundry's signers (eth_accounts) on an L1 need its native token as much.
  for (const l1 of l1s) if (await canFundTestAccounts(l1, EWOQ_PRIVATE_KEY, keys.length)) await fundL1(l1, keys);
  return accounts;
}

/** Funds the keys on an L1; one whose tx allow list refuses ewoq (its first transfer, before any is pooled) is left as it is. */
async function fundL1(l1: EvmChain, keys: Uint8Array[]): Promise<void> {
  try {
    await fundTestAccounts(l1, EWOQ_PRIVATE_KEY, keys);
  } catch (err) {
    const refused = /^cannot issue transaction from non-allow listed address/.test((err as Error).message);
    if (!refused || !untouched(l1)) throw err;
  }
}
