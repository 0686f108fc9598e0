// What the whole-node state tests share: an L1 fixture, viem clients for an EVM chain, what the
// node's state looks like from outside (heights, balances, shared memory, the index), and activity
// on every chain (EVM transfers on C and the L1, an X→C export waiting in shared memory).
import {
  type Account,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  parseEther,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call } from '../helpers.js';
import { ajs, type AVMApi, type SignedTx } from './avalanchejs.js';

export const FIXTURE = new URL('../../fixtures/myl1.json', import.meta.url).pathname;
export const EWOQ = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_C = 'C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const C_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
export const OPTIONS = { dbType: 'memdb', dev: true, testAccounts: 1, l1: [FIXTURE], indexEnabled: true };

export const evmClients = (
  url: string,
  id: number,
): { test: TestClient<'anvil', Transport, Chain>; client: PublicClient<Transport, Chain>; wallet: WalletClient<Transport, Chain, Account> } => {
  const chain = defineChain({ id, name: 'evm', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  return {
    test: createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 }),
    client: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
    wallet: createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(EWOQ) }),
  };
};

/** What the node's state looks like from outside: heights, balances, shared memory, the index. */
export async function view(uri: string) {
  const c = evmClients(`${uri}/ext/bc/C/rpc`, 43112).client;
  const l1 = evmClients(`${uri}/ext/bc/myl1/rpc`, 99999).client;
  const xIndex = await call(`${uri}/ext/index/X/block`, 'index.getLastAccepted', { encoding: 'hex' }).catch(() => null);
  return {
    cHeight: await c.getBlockNumber(),
    cBalance: await c.getBalance({ address: '0x4444444444444444444444444444444444444444' }),
    l1Height: await l1.getBlockNumber(),
    l1Balance: await l1.getBalance({ address: '0x4444444444444444444444444444444444444444' }),
    xBalance: (await call(`${uri}/ext/bc/X`, 'avm.getBalance', { address: EWOQ_X, assetID: 'AVAX' })).balance as string,
    atomic: (await call(`${uri}/ext/bc/C/avax`, 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X' })).utxos.length as number,
    xIndexed: xIndex?.index as string | undefined,
    pHeight: (await call(`${uri}/ext/bc/P`, 'platform.getHeight', {})).height as string,
  };
}

/** Some activity on every chain: EVM transfers on C and the L1, an X→C export waiting in shared memory. */
export async function activity(uri: string) {
  for (const [path, id] of [
    ['C', 43112],
    ['myl1', 99999],
  ] as const) {
    const { wallet, client } = evmClients(`${uri}/ext/bc/${path}/rpc`, id);
    const hash = await wallet.sendTransaction({ to: '0x4444444444444444444444444444444444444444', value: parseEther('2') });
    await client.waitForTransactionReceipt({ hash });
  }
  const ctx = await ajs.Context.getContextFromURI(uri);
  const xApi = new ajs.avm.AVMApi(uri) as AVMApi;
  const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_X] });
  const from = ajs.utils.bech32ToBytes(EWOQ_X);
  const tx = ajs.avm.newExportTx(ctx, C_ID, [from], utxos, [ajs.TransferableOutput.fromNative(AVAX, 5_000_000n, [from])]);
  await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [ajs.utils.hexToBuffer(EWOQ)] });
  const { txID } = await xApi.issueSignedTx(tx.getSignedTx() as SignedTx);
  for (let i = 0; i < 50 && (await call(`${uri}/ext/bc/X`, 'avm.getTxStatus', { txID })).status !== 'Accepted'; i++)
    await new Promise((r) => setTimeout(r, 20));
}
