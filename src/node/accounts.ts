// --test-accounts: funded on a fresh network from ewoq's genesis funds, on the X-Chain and the C-Chain.
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, fundingTx, type TestAccount, testAccounts, type XChain } from '../vms/avm/index.js';
import { type EvmChain, fundTestAccounts } from '../vms/evm/index.js';
import { StartError } from './shell.js';

export async function fundAccounts(count: number, xChain: XChain, cChain: EvmChain): Promise<TestAccount[]> {
  const accounts = testAccounts(count);
  if (accounts.length > 0 && xChain.freshGenesis) {
    const [source] = await xChain.state.utxoIDs(EWOQ_ADDRESS, undefined, 1);
    const utxo = source && (await xChain.state.getUTXO(source));
    if (!utxo) throw new StartError('the ewoq genesis UTXO is not available to fund the test accounts');
    await xChain.issueTx(fundingTx(xChain.params, utxo, accounts).bytes);
    await xChain.buildAll();
  }
  if (accounts.length > 0 && cChain.head.header.number === 0n && cChain.pool.size === 0) {
    await fundTestAccounts(
      cChain,
      EWOQ_PRIVATE_KEY,
      accounts.map((a) => a.privateKey),
    );
  }
  return accounts;
}
