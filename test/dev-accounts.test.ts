// eth_accounts and eth_sendTransaction with --dev: the test accounts sign for clients that send
// through the node (viem's JSON-RPC accounts, ethers' JsonRpcSigner) on every EVM chain; without
// --dev, coreth's answers.
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startTestNode, type TestNode } from './helpers.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;

describe('--dev test accounts', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 2, l1: [FIXTURE] });
  });
  afterAll(() => node.stop());

  it('eth_accounts lists them; viem sends through the node with a JSON-RPC account', async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const accounts: `0x${string}`[] = (await rpc(url, 'eth_accounts', [])).json.result;
    expect(accounts).toHaveLength(2);
    expect(accounts.every((a) => /^0x[0-9a-f]{40}$/.test(a))).toBe(true);
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const wallet = createWalletClient({ chain, transport: http(url), account: accounts[0]! });
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const hash = await wallet.sendTransaction({ to: '0x4444444444444444444444444444444444444444', value: parseEther('1.5') });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(accounts[0]);
    expect(await client.getBalance({ address: '0x4444444444444444444444444444444444444444' })).toBe(parseEther('1.5'));
  });

  it("ethers' JsonRpcSigner sends a tx with data; a key the node lacks is refused, on the L1 too", async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const provider = new JsonRpcProvider(url, 43112, { staticNetwork: true });
    const [first] = await provider.listAccounts();
    const signer = await provider.getSigner(first!.address);
    const tx = await signer.sendTransaction({ to: '0x5555555555555555555555555555555555555555', value: 7n, data: '0x1234' });
    const receipt = await tx.wait();
    expect(receipt!.status).toBe(1);
    expect((await provider.getTransaction(tx.hash))!.data).toBe('0x1234');
    const l1 = `${node.uri}/ext/bc/myl1/rpc`;
    expect((await rpc(l1, 'eth_accounts', [])).json.result).toEqual((await rpc(url, 'eth_accounts', [])).json.result);
    const refused = await rpc(l1, 'eth_sendTransaction', [{ from: '0x6666666666666666666666666666666666666666', to: first!.address, value: '0x1' }]);
    expect(refused.json.error).toEqual({ code: -32000, message: 'unknown account' });
  });
});

describe('without --dev', () => {
  it('has no eth_accounts (coreth leaves internal-account out of its default eth-apis) and no key to send with', async () => {
    const node = await startTestNode({ dbType: 'memdb', testAccounts: 1 });
    try {
      const url = `${node.uri}/ext/bc/C/rpc`;
      expect((await rpc(url, 'eth_accounts', [])).json.error.code).toBe(-32601);
      const refused = await rpc(url, 'eth_sendTransaction', [
        { from: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', to: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC' },
      ]);
      expect(refused.json.error.message).toBe('unknown account');
    } finally {
      await node.stop();
    }
  });
});
