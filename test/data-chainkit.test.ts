// The Data API through @avalanche-sdk/chainkit unchanged (per-call serverURL, telemetry off,
// retries off), after activity made with ethers on the C-Chain and an L1: every served operation
// returns and passes the SDK's own response validation, pages iterate, errors are the SDK's errors.
import { Avalanche } from '@avalanche-sdk/chainkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './helpers.js';
import { ALICE, type Activity, EWOQ, EWOQ_KEY, makeActivity } from './support/data.js';
import { idFromString } from '../src/encoding/cb58.js';
import { makeIcm } from './support/icm.js';
import { fixture } from './support/solc.js';
import { predicateChunks } from './support/known.js';
import { hashPayload, unsignedMessage } from '../src/vms/components/warp/message.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;

describe('the Data API through chainkit', () => {
  let node: TestNode;
  let c: Activity;
  let l1: Activity;
  const sdk = new Avalanche({ enableTelemetry: false });
  const opts = () => ({ serverURL: node.uri, retries: { strategy: 'none' as const } });
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    c = await makeActivity(`${node.uri}/ext/bc/C/rpc`, 43112);
    l1 = await makeActivity(`${node.uri}/ext/bc/myl1/rpc`, 99999);
  }, 120_000);
  afterAll(() => node.stop());

  it('data.evm.chains.get', async () => {
    const chain = await sdk.data.evm.chains.get({ chainId: '43112' }, opts());
    expect(chain).toMatchObject({
      chainId: '43112',
      status: 'OK',
      vmName: 'EVM',
      isTestnet: true,
      networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    });
    expect((await sdk.data.evm.chains.get({ chainId: '99999' }, opts())).chainName).toBe('myl1');
  });

  it('data.evm.transactions.listLatest pages through every tx with the SDK iterator', async () => {
    const hashes: string[] = [];
    const first = await sdk.data.evm.transactions.listLatest({ chainId: '99999', pageSize: 4 }, opts());
    for await (const page of first) hashes.push(...page.result.transactions.map((t) => t.txHash));
    expect(hashes.slice(0, l1.txs.length)).toEqual([...l1.txs].reverse());
    expect(new Set(hashes).size).toBe(hashes.length);
    const failed = await sdk.data.evm.transactions.listLatest({ chainId: '43112', status: 'failed' }, opts());
    expect(failed.result.transactions.map((t) => t.txHash)).toEqual([c.failedTx]);
  });

  it('data.evm.address.transactions.list reads back the three token kinds and the internal transaction, on C and the L1', async () => {
    for (const [chainId, act] of [
      ['43112', c],
      ['99999', l1],
    ] as const) {
      const page = await sdk.data.evm.address.transactions.list({ chainId, address: ALICE, sortOrder: 'asc' }, opts());
      const txs = page.result.transactions;
      expect(txs.map((t) => t.nativeTransaction.txHash)).toHaveLength(4);
      expect(txs[0]!.erc20Transfers?.[0]).toMatchObject({ value: '100', erc20Token: { address: act.token, symbol: 'TT', decimals: 18, ercType: 'ERC-20' } });
      expect(txs[1]!.erc721Transfers?.[0]?.erc721Token).toMatchObject({ address: act.nft, tokenId: '7', ercType: 'ERC-721' });
      expect(txs[2]!.erc1155Transfers?.map((t) => t.value)).toEqual(['10', '20']);
      expect(txs[3]!.internalTransactions?.[0]).toMatchObject({
        from: { address: act.forwarder },
        to: { address: ALICE },
        internalTxType: 'CALL',
        value: '5',
        isReverted: false,
      });
      expect(txs[3]!.nativeTransaction).toMatchObject({
        txHash: act.forwardTx,
        from: { address: EWOQ },
        to: { address: act.forwarder },
        method: { callType: 'CONTRACT_CALL' },
      });
    }
  });

  it('data.evm.address.balances.getNative, now and at a block', async () => {
    const now = await sdk.data.evm.address.balances.getNative({ chainId: '43112', address: ALICE }, opts());
    expect(now.nativeTokenBalance.balance).toBe('5');
    const then = await sdk.data.evm.address.balances.getNative({ chainId: '43112', address: ALICE, blockNumber: '1' }, opts());
    expect(then.nativeTokenBalance.balance).toBe('0');
  });

  it('data.evm.contracts.getMetadata tells the token kinds apart and names the deployer', async () => {
    const token = await sdk.data.evm.contracts.getMetadata({ chainId: '43112', address: c.token }, opts());
    expect(token).toMatchObject({ ercType: 'ERC-20', name: 'Test Token', symbol: 'TT', deploymentDetails: { deployerAddress: EWOQ } });
    expect((await sdk.data.evm.contracts.getMetadata({ chainId: '43112', address: c.nft }, opts())).ercType).toBe('ERC-721');
    expect((await sdk.data.evm.contracts.getMetadata({ chainId: '43112', address: c.multi }, opts())).ercType).toBe('ERC-1155');
    const child = await sdk.data.evm.contracts.getMetadata({ chainId: '99999', address: l1.child }, opts());
    expect(child).toMatchObject({ ercType: 'UNKNOWN', deploymentDetails: { deployerContractAddress: l1.forwarder } });
  });

  it('data.primaryNetwork: blockchain details, latest blocks of P, X and C by alias, vertices', async () => {
    const info = await sdk.data.evm.chains.get({ chainId: '99999' }, opts());
    const chain = await sdk.data.primaryNetwork.getBlockchainById({ network: 'fuji', blockchainId: info.platformChainId! }, opts());
    expect(chain).toMatchObject({ blockchainName: 'myl1', evmChainId: 99999, subnetId: info.subnetId });
    for (const blockchainId of ['p-chain', 'x-chain', 'c-chain'] as const) {
      const page = await sdk.data.primaryNetwork.blocks.listLatest({ network: 'fuji', blockchainId, pageSize: 3 }, opts());
      expect(page.result.chainInfo).toEqual({ chainName: blockchainId, network: 'fuji' });
      expect(page.result.blocks.length).toBeGreaterThan(0);
      // Genesis blocks are not proposervm's; every later block has its proposer's details.
      for (const b of page.result.blocks)
        expect(b.proposerDetails?.proposerNodeId).toBe(b.blockNumber === '0' ? undefined : 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
    }
    const touched = await sdk.data.primaryNetwork.getChainIdsForAddresses(
      { network: 'fuji', addresses: 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u' },
      opts(),
    );
    expect(touched.addresses[0]!.blockchainIds).toEqual(['11111111111111111111111111111111LpoYY', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm']);
    const vertices = await sdk.data.primaryNetwork.vertices.listLatest({ network: 'fuji', blockchainId: 'x-chain' }, opts());
    expect(vertices.result.vertices).toEqual([]);
  });

  it('data.usageMetrics.getLogs lists the requests the node served, its own user agent among them', async () => {
    const seen: Array<{ requestType: string; requestPath: string; userAgent: string }> = [];
    const first = await sdk.data.usageMetrics.getLogs({ requestType: 'data', pageSize: 50 }, opts());
    for await (const page of first)
      seen.push(...page.result.logs.map((l) => ({ requestType: l.requestType, requestPath: l.requestPath, userAgent: l.metadata.userAgent })));
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((l) => l.requestType === 'data' && l.requestPath.startsWith('/v1/'))).toBe(true);
    expect(seen.some((l) => l.userAgent.includes('@avalanche-sdk/chainkit'))).toBe(true);
  });

  it('data.signatureAggregator: aggregate a message the L1 sent, and get the conversion message of its P-Chain tx', async () => {
    const info = await sdk.data.evm.chains.get({ chainId: '99999' }, opts());
    const res = await fetch(info.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
    });
    const hash = ((await res.json()) as { result: { hash: string } }).result.hash;
    const unsigned = unsignedMessage(12345, idFromString(info.platformChainId!), hashPayload(Buffer.from(hash.slice(2), 'hex')));
    const signed = await sdk.data.signatureAggregator.aggregate(
      { network: 'fuji', signatureAggregatorRequest: { message: `0x${Buffer.from(unsigned).toString('hex')}`, quorumPercentage: 67 } },
      opts(),
    );
    expect(signed.signedMessage.startsWith(Buffer.from(unsigned).toString('hex'))).toBe(true);
    const blocks = await sdk.data.primaryNetwork.blocks.listLatest({ network: 'fuji', blockchainId: 'p-chain', pageSize: 100 }, opts());
    const convert = blocks.result.blocks.find((b) => b.txCount === 1 && b.blockNumber === '3')!.transactions[0]!;
    const conversion = await sdk.data.signatureAggregator.get({ network: 'fuji', txHash: convert }, opts());
    expect(conversion.signedMessage).toMatch(/^0000000030390{64}/);
  });

  it('data.icm.list: an ICM message sent from C to the L1 and delivered, one pending, one from a chain the node does not run', async () => {
    const cInfo = await sdk.data.evm.chains.get({ chainId: '43112' }, opts());
    const l1Info = await sdk.data.evm.chains.get({ chainId: '99999' }, opts());
    const icm = await makeIcm(node.uri, idFromString(cInfo.platformChainId!), idFromString(l1Info.platformChainId!));
    const statuses: Array<[string, string]> = [];
    const first = await sdk.data.icm.list({ pageSize: 1 }, opts());
    for await (const page of first) statuses.push(...page.result.messages.map((m) => [m.messageId, m.status] as [string, string]));
    expect(statuses).toEqual([
      [icm.foreign, 'delivered_source_not_indexed'],
      [icm.pending, 'pending'],
      [icm.delivered, 'delivered'],
    ]);
    const toL1 = await sdk.data.icm.list({ destinationBlockchainId: l1Info.platformChainId! }, opts());
    expect(toL1.result.messages).toHaveLength(3);
  });

  it('a warp message sent on the L1, aggregated through the SDK, is verified on the C-Chain', async () => {
    const { createPublicClient, createWalletClient, decodeEventLog, defineChain, encodeFunctionData, http } = await import('viem');
    const { privateKeyToAccount } = await import('viem/accounts');
    const account = privateKeyToAccount(EWOQ_KEY as `0x${string}`);
    const clients = (url: string, id: number) => {
      const chain = defineChain({ id, name: String(id), nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
      return {
        chain,
        client: createPublicClient({ chain, transport: http(url), cacheTime: 0, pollingInterval: 50 }),
        wallet: createWalletClient({ chain, transport: http(url), account }),
      };
    };
    const l1 = clients(`${node.uri}/ext/bc/myl1/rpc`, 99999);
    const c = clients(`${node.uri}/ext/bc/C/rpc`, 43112);
    const deploy = async (k: typeof l1, name: string) => {
      const f = fixture(name);
      return (await k.client.waitForTransactionReceipt({ hash: await k.wallet.deployContract({ abi: f.abi, bytecode: f.bytecode }) })).contractAddress!;
    };
    const sender = await deploy(l1, 'WarpSender');
    const receiver = await deploy(c, 'WarpReceiver');
    const sent = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.writeContract({ address: sender, abi: fixture('WarpSender').abi, functionName: 'send', args: ['0xcafe'] }),
    });
    // The SendWarpMessage log's data (the ABI-encoded unsigned message), as a relayer hands it over.
    const log = sent.logs.find((l) => l.address.toLowerCase() === '0x0200000000000000000000000000000000000005')!;
    const { signedMessage } = await sdk.data.signatureAggregator.aggregate({ network: 'fuji', signatureAggregatorRequest: { message: log.data } }, opts());
    const signed = Buffer.from(signedMessage, 'hex');
    const accessList = [
      {
        address: '0x0200000000000000000000000000000000000005' as const,
        storageKeys: predicateChunks(signed).map((x) => `0x${Buffer.from(x).toString('hex')}` as `0x${string}`),
      },
    ];
    const abi = fixture('WarpReceiver').abi;
    const data = encodeFunctionData({ abi, functionName: 'receiveMessage' });
    const gas = await c.client.estimateGas({ account: account.address, to: receiver, data, accessList });
    const r = await c.client.waitForTransactionReceipt({ hash: await c.wallet.sendTransaction({ to: receiver, data, accessList, gas }) });
    const event = (decodeEventLog({ abi, data: r.logs[0]!.data, topics: r.logs[0]!.topics }) as { args: unknown }).args as {
      origin: string;
      payload: string;
      valid: boolean;
    };
    expect({ ...event, origin: event.origin.toLowerCase() }).toMatchObject({ origin: sender.toLowerCase(), payload: '0xcafe', valid: true });
  });

  it('an ICM message carried over warp from C to the L1: sent, its signature aggregated through the SDK, delivered, listed as delivered', async () => {
    const { Contract, ContractFactory, JsonRpcProvider, NonceManager, Wallet } = await import('ethers');
    const cInfo = await sdk.data.evm.chains.get({ chainId: '43112' }, opts());
    const l1Info = await sdk.data.evm.chains.get({ chainId: '99999' }, opts());
    const connect = (url: string, id: number) => {
      const provider = new JsonRpcProvider(url, id, { staticNetwork: true, cacheTimeout: -1 });
      return { provider, signer: new NonceManager(new Wallet(EWOQ_KEY, provider)) };
    };
    const cSide = connect(`${node.uri}/ext/bc/C/rpc`, 43112);
    const l1Side = connect(`${node.uri}/ext/bc/myl1/rpc`, 99999);
    const f = fixture('WarpMessenger');
    const deploy = async (side: typeof cSide) => {
      const contract = (await new ContractFactory(f.abi, f.bytecode, side.signer).deploy()) as InstanceType<typeof Contract>;
      await contract.waitForDeployment();
      return contract;
    };
    const source = await deploy(cSide);
    const destination = await deploy(l1Side);
    const recipient = '0x000000000000000000000000000000000000c0DE';
    const l1Bytes = `0x${Buffer.from(idFromString(l1Info.platformChainId!)).toString('hex')}`;
    const sent = await (await source.getFunction('sendCrossChainMessage')(l1Bytes, recipient, '0x')).wait();
    const warpLog = sent.logs.find((l: { address: string }) => l.address.toLowerCase() === '0x0200000000000000000000000000000000000005');
    // The relayer's part: the signature from the Data API, then the delivery with the message as the warp
    // predicate. A C-Chain message is verified on an L1 against the L1's validators (requirePrimaryNetworkSigners
    // is off), so the L1 is the signing subnet, as icm-relayer asks.
    const { signedMessage } = await sdk.data.signatureAggregator.aggregate(
      { network: 'fuji', signatureAggregatorRequest: { message: warpLog.data, signingSubnetId: l1Info.subnetId! } },
      opts(),
    );
    const storageKeys = predicateChunks(Buffer.from(signedMessage, 'hex')).map((x) => `0x${Buffer.from(x).toString('hex')}`);
    const delivered = await (
      await destination.getFunction('receiveCrossChainMessage')(0, EWOQ, {
        accessList: [{ address: '0x0200000000000000000000000000000000000005', storageKeys }],
        gasLimit: 500_000n,
      })
    ).wait();
    expect(delivered.status).toBe(1);
    expect(delivered.logs.map((l: { topics: string[] }) => l.topics[0])).toHaveLength(2);
    const list = await sdk.data.icm.list({ blockchainId: cInfo.platformChainId!, to: recipient }, opts());
    expect(list.result.messages.map((m) => [m.status, m.icmContractAddress, m.sourceEvmChainId, m.destinationEvmChainId, m.messageExecuted])).toEqual([
      ['delivered', await source.getAddress(), '43112', '99999', true],
    ]);
    cSide.provider.destroy();
    l1Side.provider.destroy();
  });

  it("client mistakes come back as the SDK's typed errors", async () => {
    const notFound = await sdk.data.evm.chains.get({ chainId: '777' }, opts()).catch((e) => e);
    expect(notFound.constructor.name).toBe('NotFoundError');
    expect(notFound.message).toBe('chain 777 is not a chain of this node');
    const bad = await sdk.data.evm.transactions.listLatest({ chainId: '43112', pageSize: 1, pageToken: 'forged' }, opts()).catch((e) => e);
    expect(bad.constructor.name).toBe('BadRequestError');
    expect(bad.message).toBe('Invalid page token');
  });
});
