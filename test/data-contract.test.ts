// The Data API's contract test: every response of every served endpoint, errors included, validates
// against the hosted API's own OpenAPI document (contracts/glacier.json, ajv), after real activity
// made with ethers (tokens of the three kinds, contract-to-contract value and deployment, a failed tx).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, trim } from '../scripts/contracts/trim.mjs';
import { startTestNode, type TestNode, tempDir } from './helpers.js';
import { ALICE, type Activity, EWOQ, makeActivity } from './support/data.js';
import { fixture } from './support/solc.js';
import { idFromString } from '../src/encoding/cb58.js';
import { makeIcm } from './support/icm.js';
import { ajs, type AVMApi, type SignedTx } from './support/avalanchejs.js';
import { testAccounts } from '../src/vms/avm/testaccounts.js';
import { formatAddress } from '../src/vms/components/avax/address.js';

const EWOQ_BECH32 = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
import { publicKeyOf, verifyAggregate } from '../src/vms/components/warp/bls.js';
import { hashPayload, unsignedMessage } from '../src/vms/components/warp/message.js';
import { LOCAL_SIGNERS } from '../src/vms/components/warp/signers.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;
const FULL = JSON.parse(readFileSync(`${ROOT}contracts/glacier.json`, 'utf8'));
const Ajv2020 = createRequire(import.meta.url)('ajv/dist/2020').default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'glacier', components: FULL.components });
const rebase = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('"#/components/', '"glacier#/components/'));

function responseSchema(operationId: string, status: number) {
  for (const item of Object.values(FULL.paths) as Record<string, any>[]) {
    for (const op of Object.values(item)) {
      if (op.operationId === operationId) {
        const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
        if (!schema) throw new Error(`${operationId} declares no ${status} response`);
        return rebase(schema);
      }
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** GETs `path`, expects `status`, and validates the body against the operation's response for it. */
async function check(uri: string, operationId: string, path: string, status = 200): Promise<any> {
  const res = await fetch(`${uri}${path}`);
  const body = await res.json();
  expect({ path, status: res.status, body: res.status === status ? undefined : body }).toEqual({ path, status, body: undefined });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const validate = ajv.compile(responseSchema(operationId, status));
  const ok = validate(body);
  expect(ok ? [] : validate.errors).toEqual([]);
  return body;
}

describe('the Data API contract', () => {
  let node: TestNode;
  let act: Activity;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    act = await makeActivity(`${node.uri}/ext/bc/C/rpc`, 43112);
  }, 120_000);
  afterAll(() => node.stop());

  it('is served from the cut of glacier.json the node ships (contracts/data-api.json)', () => {
    expect(JSON.parse(readFileSync(`${ROOT}contracts/data-api.json`, 'utf8'))).toEqual(trim(FULL));
    expect(OPERATIONS).toHaveLength(15);
  });

  it('getChainInfo, for the C-Chain and an L1, by EVM chain ID and blockchain ID', async () => {
    const c = await check(node.uri, 'getChainInfo', '/v1/chains/43112');
    expect(c).toMatchObject({
      chainId: '43112',
      vmName: 'EVM',
      networkToken: { symbol: 'AVAX', decimals: 18 },
      rpcUrl: `${node.uri}/ext/bc/${c.platformChainId}/rpc`,
    });
    expect(await check(node.uri, 'getChainInfo', `/v1/chains/${c.platformChainId}`)).toEqual(c);
    const l1 = await check(node.uri, 'getChainInfo', '/v1/chains/99999');
    expect(l1).toMatchObject({ chainId: '99999', chainName: 'myl1', vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy' });
    const rpc = await fetch(l1.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(((await rpc.json()) as { result: string }).result).toBe('0x1869f');
  });

  it('listLatestTransactions: newest first, every page valid, the status filter', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const body = await check(node.uri, 'listLatestTransactions', `/v1/chains/43112/transactions?pageSize=3${token ? `&pageToken=${token}` : ''}`);
      seen.push(...body.transactions.map((t: any) => t.txHash));
      token = body.nextPageToken;
      expect(token).not.toBe('');
      pages++;
    } while (token);
    expect(new Set(seen).size).toBe(seen.length);
    // The activity's txs, newest first, then the test-account-free genesis has none before them.
    expect(seen.slice(0, act.txs.length)).toEqual([...act.txs].reverse());
    expect(pages).toBe(Math.ceil(seen.length / 3));
    const failed = await check(node.uri, 'listLatestTransactions', '/v1/chains/43112/transactions?status=failed');
    expect(failed.transactions.map((t: any) => [t.txHash, t.txStatus])).toEqual([[act.failedTx, '0']]);
    const success = await check(node.uri, 'listLatestTransactions', '/v1/chains/43112/transactions?status=success&pageSize=100');
    expect(success.transactions.map((t: any) => t.txHash)).not.toContain(act.failedTx);
    expect(success.transactions).toHaveLength(seen.length - 1);
    const first = success.transactions.at(-1);
    expect(first).toMatchObject({
      txType: 2,
      txStatus: '1',
      from: { address: EWOQ },
      method: { callType: 'CONTRACT_CREATION', methodName: 'Contract Created' },
    });
    const transfer = success.transactions.find((t: any) => t.method.methodHash === '0xa9059cbb');
    expect(transfer.method).toEqual({ callType: 'CONTRACT_CALL', methodHash: '0xa9059cbb', methodName: 'transfer(address,uint256)' });
  });

  it("listTransactions: an address's txs with its ERC-20, ERC-721, ERC-1155 transfers and internal transactions", async () => {
    const body = await check(node.uri, 'listTransactions', `/v1/chains/43112/addresses/${ALICE}/transactions?sortOrder=asc`);
    const byHash = new Map(body.transactions.map((t: any) => [t.nativeTransaction.txHash, t]));
    expect(body.transactions).toHaveLength(4);
    const [erc20, erc721, erc1155, internal] = body.transactions;
    expect(erc20.erc20Transfers).toEqual([
      {
        from: { address: EWOQ },
        to: { address: ALICE },
        logIndex: 0,
        value: '100',
        erc20Token: { address: act.token, name: 'Test Token', symbol: 'TT', decimals: 18, ercType: 'ERC-20' },
      },
    ]);
    expect(erc721.erc721Transfers[0].erc721Token).toMatchObject({
      address: act.nft,
      name: 'Test NFT',
      symbol: 'TNFT',
      ercType: 'ERC-721',
      tokenId: '7',
      ownerAddress: ALICE,
    });
    expect(erc1155.erc1155Transfers.map((t: any) => [t.erc1155Token.tokenId, t.value, t.erc1155Token.tokenUri])).toEqual([
      ['1', '10', 'ipfs://multi/{id}.json'],
      ['2', '20', 'ipfs://multi/{id}.json'],
    ]);
    expect(internal.internalTransactions).toEqual([
      {
        from: { address: act.forwarder },
        to: { address: ALICE },
        internalTxType: 'CALL',
        value: '5',
        isReverted: false,
        gasUsed: expect.any(String),
        gasLimit: expect.any(String),
      },
    ]);
    expect(byHash.get(act.forwardTx)).toBe(internal);
    const desc = await check(node.uri, 'listTransactions', `/v1/chains/43112/addresses/${ALICE}/transactions`);
    expect(desc.transactions.map((t: any) => t.nativeTransaction.txHash)).toEqual(body.transactions.map((t: any) => t.nativeTransaction.txHash).reverse());
    const start = erc721.nativeTransaction.blockNumber;
    const end = internal.nativeTransaction.blockNumber;
    const ranged = await check(
      node.uri,
      'listTransactions',
      `/v1/chains/43112/addresses/${ALICE}/transactions?startBlock=${start}&endBlock=${end}&sortOrder=asc&pageSize=1`,
    );
    expect(ranged.transactions.map((t: any) => t.nativeTransaction.txHash)).toEqual([erc721.nativeTransaction.txHash]);
    const next = await check(
      node.uri,
      'listTransactions',
      `/v1/chains/43112/addresses/${ALICE}/transactions?startBlock=${start}&endBlock=${end}&sortOrder=asc&pageSize=1&pageToken=${ranged.nextPageToken}`,
    );
    expect(next.transactions.map((t: any) => t.nativeTransaction.txHash)).toEqual([erc1155.nativeTransaction.txHash]);
    expect(next.nextPageToken).toBeUndefined();
  });

  it('a hostile TransferBatch (an array length past its data) is no ERC-1155 transfer, and costs the node nothing', async () => {
    const { ContractFactory, JsonRpcProvider, NonceManager, Wallet, zeroPadValue, id } = await import('ethers');
    const provider = new JsonRpcProvider(`${node.uri}/ext/bc/C/rpc`, 43112, { staticNetwork: true, cacheTimeout: -1 });
    const signer = new NonceManager(new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', provider));
    const f = fixture('RawLogger');
    const logger = (await new ContractFactory(f.abi, f.bytecode, signer).deploy()) as any;
    await logger.waitForDeployment();
    const victim = '0x00000000000000000000000000000000000b0B0B';
    const word = (n: bigint) => n.toString(16).padStart(64, '0');
    // ids at 0x40 with a length of 2^40 and no items; values at 0x60, empty.
    const data = `0x${word(64n)}${word(96n)}${word(2n ** 40n)}${word(0n)}`;
    const topic0 = id('TransferBatch(address,address,address,uint256[],uint256[])');
    await (await logger.emit4(topic0, zeroPadValue(EWOQ, 32), zeroPadValue(EWOQ, 32), zeroPadValue(victim, 32), data)).wait();
    provider.destroy();
    const body = await check(node.uri, 'listTransactions', `/v1/chains/43112/addresses/${victim}/transactions`);
    expect(body.transactions).toHaveLength(1);
    expect(body.transactions[0].erc1155Transfers).toEqual([]);
  });

  it('getNativeBalance, now and at a past block', async () => {
    const now = await check(node.uri, 'getNativeBalance', `/v1/chains/43112/addresses/${ALICE}/balances:getNative`);
    expect(now.nativeTokenBalance).toEqual({ name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId: '43112', balance: '5' });
    const before = await check(node.uri, 'getNativeBalance', `/v1/chains/43112/addresses/${ALICE}/balances:getNative?blockNumber=1&currency=eur`);
    expect(before.nativeTokenBalance.balance).toBe('0');
    const l1 = await check(node.uri, 'getNativeBalance', `/v1/chains/99999/addresses/${EWOQ}/balances:getNative`);
    expect(l1.nativeTokenBalance).toMatchObject({ chainId: '99999', symbol: 'MYL1', balance: (100_000_000n * 10n ** 18n).toString() });
  });

  it('getContractMetadata: the ERC type found from the contract, the deployment tx and deployer', async () => {
    const token = await check(node.uri, 'getContractMetadata', `/v1/chains/43112/addresses/${act.token}`);
    expect(token).toEqual({
      address: act.token,
      ercType: 'ERC-20',
      name: 'Test Token',
      symbol: 'TT',
      decimals: 18,
      deploymentDetails: { txHash: act.txs[0], deployerAddress: EWOQ },
    });
    expect(await check(node.uri, 'getContractMetadata', `/v1/chains/43112/addresses/${act.nft}`)).toMatchObject({
      ercType: 'ERC-721',
      name: 'Test NFT',
      symbol: 'TNFT',
    });
    expect(await check(node.uri, 'getContractMetadata', `/v1/chains/43112/addresses/${act.multi}`)).toMatchObject({ ercType: 'ERC-1155' });
    expect(await check(node.uri, 'getContractMetadata', `/v1/chains/43112/addresses/${act.forwarder}`)).toMatchObject({ ercType: 'UNKNOWN' });
    const child = await check(node.uri, 'getContractMetadata', `/v1/chains/43112/addresses/${act.child}`);
    expect(child.deploymentDetails).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      deployerAddress: EWOQ,
      deployerContractAddress: act.forwarder,
    });
  });

  it('answers client mistakes with the error body and the right status, each valid against the contract', async () => {
    const bad = async (op: string, path: string, status: number, message: unknown) => {
      const body = await check(node.uri, op, path, status);
      expect(body.message).toEqual(message);
    };
    await bad('listLatestTransactions', '/v1/chains/43112/transactions?pageSize=0', 400, ['pageSize must not be less than 1']);
    await bad('listLatestTransactions', '/v1/chains/43112/transactions?pageSize=abc', 400, ['pageSize must be an integer number']);
    await bad('listLatestTransactions', '/v1/chains/43112/transactions?status=pending', 400, ['status must be one of the following values: failed, success']);
    await bad('listLatestTransactions', '/v1/chains/43112/transactions?pageToken=nonsense', 400, 'Invalid page token');
    const other = ((await (await fetch(`${node.uri}/v1/chains/43112/transactions?pageSize=1`)).json()) as { nextPageToken: string }).nextPageToken;
    await bad(
      'listLatestTransactions',
      `/v1/chains/43112/transactions?status=success&pageToken=${other}`,
      400,
      'Invalid page token: it was issued for another query',
    );
    await bad('listLatestTransactions', '/v1/chains/1234/transactions', 404, 'chain 1234 is not a chain of this node');
    await bad('listTransactions', '/v1/chains/43112/addresses/0x12/transactions', 400, ['address must be an Ethereum address']);
    await bad('listTransactions', `/v1/chains/43112/addresses/${ALICE}/transactions?sortOrder=up`, 400, [
      'sortOrder must be one of the following values: asc, desc',
    ]);
    await bad('getNativeBalance', `/v1/chains/43112/addresses/${ALICE}/balances:getNative?currency=xyz`, 400, [
      expect.stringMatching(/^currency must be one of the following values: usd, eur/),
    ]);
    await bad(
      'getNativeBalance',
      `/v1/chains/43112/addresses/${ALICE}/balances:getNative?blockNumber=99999999`,
      400,
      expect.stringMatching(/^block 99999999 is past the chain's latest block \d+$/),
    );
    await bad('getContractMetadata', `/v1/chains/43112/addresses/${ALICE}`, 404, `no contract at ${ALICE}`);
    await bad('listTransactions', `/v1/chains/43112/addresses/${ALICE}/transactions?startBlock=Infinity`, 400, [
      'startBlock must be a number conforming to the specified constraints',
    ]);
    await bad('listLatestPrimaryNetworkBlocks', '/v1/networks/fuji/blockchains/p-chain/blocks?startTimestamp=Infinity', 400, [
      'startTimestamp must be an integer number',
    ]);
    await bad('listLatestPrimaryNetworkBlocks', '/v1/networks/fuji/blockchains/p-chain/blocks?endTimestamp=1e400', 400, [
      'endTimestamp must be an integer number',
    ]);
    await bad('listTransactions', `/v1/chains/43112/addresses/${ALICE}/transactions?endBlock=1e30`, 400, ['endBlock must be a block number']);
    const unknown = await fetch(`${node.uri}/v1/nothing/here`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { message: 'Cannot GET /v1/nothing/here', statusCode: 404, error: 'Not Found' }]);
  });
});

describe('the Data API on the primary network', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', testAccounts: 1, l1: [FIXTURE] });
  });
  afterAll(() => node.stop());

  it("getBlockchainById: the creating tx's block and the genesis data, for the X-Chain and an L1", async () => {
    const x = await check(node.uri, 'getBlockchainById', '/v1/networks/fuji/blockchains/2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
    expect(x).toMatchObject({
      createBlockNumber: '0',
      blockchainName: 'X-Chain',
      subnetId: '11111111111111111111111111111111LpoYY',
      genesisData: expect.stringMatching(/^0x0000/),
    });
    const c = await check(node.uri, 'getBlockchainById', '/v1/networks/testnet/blockchains/2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC');
    expect(c).toMatchObject({ blockchainName: 'C-Chain', evmChainId: 43112, genesisData: { config: { chainId: 43112 } } });
    const info = await check(node.uri, 'getChainInfo', '/v1/chains/99999');
    const l1 = await check(node.uri, 'getBlockchainById', `/v1/networks/fuji/blockchains/${info.platformChainId}`);
    expect(l1).toMatchObject({
      blockchainName: 'myl1',
      evmChainId: 99999,
      subnetId: info.subnetId,
      vmId: info.vmId,
      genesisData: { config: { chainId: 99999, warpConfig: { blockTimestamp: 1607144400 } } },
    });
    expect(Number(l1.createBlockNumber)).toBeGreaterThan(0);
    const missing = await check(node.uri, 'getBlockchainById', '/v1/networks/fuji/blockchains/2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', 404);
    expect(missing.message).toBe('blockchain 2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm not found');
    const mainnet = await check(node.uri, 'getBlockchainById', '/v1/networks/mainnet/blockchains/2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed', 404);
    expect(mainnet.message).toMatch(/presents as fuji/);
  });

  it("listLatestPrimaryNetworkBlocks for P, X and C, by alias or ID, paged, with proposervm's details", async () => {
    for (const chain of ['p-chain', 'x-chain', 'c-chain', '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed']) {
      const heights: string[] = [];
      let token: string | undefined;
      do {
        const body = await check(
          node.uri,
          'listLatestPrimaryNetworkBlocks',
          `/v1/networks/fuji/blockchains/${chain}/blocks?pageSize=2${token ? `&pageToken=${token}` : ''}`,
        );
        expect(body.chainInfo).toEqual({ chainName: chain.startsWith('2eNy') ? 'x-chain' : chain, network: 'fuji' });
        heights.push(...body.blocks.map((b: any) => b.blockNumber));
        for (const b of body.blocks)
          if (b.blockNumber !== '0') expect(b.proposerDetails).toMatchObject({ proposerNodeId: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' });
        token = body.nextPageToken;
      } while (token);
      expect(heights).toEqual([...heights].sort((a, b) => Number(b) - Number(a)));
      expect(heights.at(-1)).toBe('0');
    }
    const p = await check(node.uri, 'listLatestPrimaryNetworkBlocks', '/v1/networks/fuji/blockchains/p-chain/blocks?pageSize=100');
    expect(p.blocks.at(-1)).toMatchObject({ blockNumber: '0', blockType: 'ApricotCommitBlock', txCount: 0 });
    expect(p.blocks[0].blockType).toBe('BanffStandardBlock');
    const height = await (
      await fetch(`${node.uri}/ext/bc/P`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight","params":{}}',
      })
    ).json();
    expect(p.blocks[0].blockNumber).toBe((height as { result: { height: string } }).result.height);
    const recent = await check(
      node.uri,
      'listLatestPrimaryNetworkBlocks',
      `/v1/networks/fuji/blockchains/p-chain/blocks?startTimestamp=${p.blocks[0].blockTimestamp}`,
    );
    expect(recent.blocks.every((b: any) => b.blockTimestamp >= p.blocks[0].blockTimestamp)).toBe(true);
    const bad = await check(node.uri, 'listLatestPrimaryNetworkBlocks', '/v1/networks/fuji/blockchains/q-chain/blocks', 400);
    expect(bad.message).toEqual([expect.stringMatching(/^blockchainId must be one of the following values: /)]);
  });

  it("getChainIdsForAddresses: the chains an address dealt with, the local X-Chain under Fuji's ID", async () => {
    const [account] = testAccounts(1);
    const tester = formatAddress('X', 'local', account!.address);
    const fresh = formatAddress('P', 'local', new Uint8Array(20).fill(9));
    const body = await check(node.uri, 'getChainIdsForAddresses', `/v1/networks/fuji/addresses:listChainIds?addresses=${EWOQ_BECH32},${tester},${fresh}`);
    expect(body.addresses).toEqual([
      { address: EWOQ_BECH32, blockchainIds: ['11111111111111111111111111111111LpoYY', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'] },
      // Funded on X by the start-up funding tx, never on P.
      { address: tester, blockchainIds: ['2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'] },
      { address: fresh, blockchainIds: [] },
    ]);
    // An export from X to C for another address: it can only spend it on C, so C is its chain (under Fuji's C ID).
    const importer = new Uint8Array(20).fill(7);
    const ctx = await ajs.Context.getContextFromURI(node.uri);
    const xApi = new ajs.avm.AVMApi(node.uri) as AVMApi;
    const ewoqShort = ajs.utils.bech32ToBytes(EWOQ_BECH32);
    const { utxos } = await xApi.getUTXOs({ addresses: [EWOQ_BECH32] });
    const exportTx = ajs.avm.newExportTx(ctx, '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC', [ewoqShort], utxos, [
      ajs.TransferableOutput.fromNative(ctx.avaxAssetID, 3_000_000n, [importer]),
    ]);
    await ajs.addTxSignatures({
      unsignedTx: exportTx,
      privateKeys: [ajs.utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')],
    });
    const { txID } = await xApi.issueSignedTx(exportTx.getSignedTx() as SignedTx);
    for (let i = 0; i < 100; i++) {
      const status = await (
        await fetch(`${node.uri}/ext/bc/X`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.getTxStatus', params: { txID } }),
        })
      ).json();
      if ((status as { result: { status: string } }).result.status === 'Accepted') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const importerAddress = formatAddress('C', 'local', importer);
    const viaC = await check(node.uri, 'getChainIdsForAddresses', `/v1/networks/fuji/addresses:listChainIds?addresses=${importerAddress}`);
    expect(viaC.addresses).toEqual([{ address: importerAddress, blockchainIds: ['yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp'] }]);
    const bad = await check(node.uri, 'getChainIdsForAddresses', '/v1/networks/fuji/addresses:listChainIds?addresses=X-avax1notlocal', 400);
    expect(bad.message).toEqual(['X-avax1notlocal is not an address of this network (local)']);
    await check(node.uri, 'getChainIdsForAddresses', '/v1/networks/fuji/addresses:listChainIds', 400);
  });

  it('X-Chain vertices: none on a linearized local X-Chain (an empty list, not an error)', async () => {
    expect(await check(node.uri, 'listLatestXChainVertices', '/v1/networks/fuji/blockchains/x-chain/vertices')).toEqual({
      vertices: [],
      chainInfo: { chainName: 'x-chain', network: 'fuji' },
    });
    expect(await check(node.uri, 'getVertexByHeight', '/v1/networks/testnet/blockchains/x-chain/vertices:listByHeight?vertexHeight=0')).toEqual({
      vertices: [],
      chainInfo: { chainName: 'x-chain', network: 'testnet' },
    });
    const missing = await check(node.uri, 'getVertexByHeight', '/v1/networks/fuji/blockchains/x-chain/vertices:listByHeight', 400);
    expect(missing.message).toEqual(['vertexHeight should not be empty']);
    // No page was handed out: a page token is refused as the other lists refuse one they did not issue.
    const token = await check(node.uri, 'listLatestXChainVertices', '/v1/networks/fuji/blockchains/x-chain/vertices?pageToken=abc', 400);
    expect(token.message).toBe('Invalid page token');
  });
});

describe("the Data API's ICM messages", () => {
  it('lists the messages the chains sent and received: pending, delivered, delivered_source_not_indexed, with the filters', async () => {
    const node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    try {
      const c = await check(node.uri, 'getChainInfo', '/v1/chains/43112');
      const l1 = await check(node.uri, 'getChainInfo', '/v1/chains/99999');
      const icm = await makeIcm(node.uri, idFromString(c.platformChainId), idFromString(l1.platformChainId));
      const all = await check(node.uri, 'listIcmMessages', '/v1/icm/messages');
      expect(all.messages.map((m: any) => [m.messageId, m.status])).toEqual([
        [icm.foreign, 'delivered_source_not_indexed'],
        [icm.pending, 'pending'],
        [icm.delivered, 'delivered'],
      ]);
      const delivered = all.messages[2];
      expect(delivered).toMatchObject({
        icmContractAddress: icm.cMessenger,
        sourceBlockchainId: c.platformChainId,
        destinationBlockchainId: l1.platformChainId,
        sourceEvmChainId: '43112',
        destinationEvmChainId: '99999',
        messageNonce: '1',
        from: EWOQ,
        to: icm.recipient,
        data: '0x68656c6c6f',
        messageExecuted: true,
        receiptDelivered: false,
        receipts: [],
        rewardDetails: { address: '0x0000000000000000000000000000000000000000', value: '0', ercType: 'ERC-20' },
        sourceTransaction: { txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), gasSpent: expect.stringMatching(/^\d+$/) },
        destinationTransaction: { delivererAddress: EWOQ, rewardRedeemer: EWOQ },
      });
      expect(all.messages[1]).not.toHaveProperty('destinationTransaction');
      expect(all.messages[0]).toMatchObject({ sourceEvmChainId: '', destinationEvmChainId: '99999' });
      const page = await check(node.uri, 'listIcmMessages', '/v1/icm/messages?pageSize=2');
      const rest = await check(node.uri, 'listIcmMessages', `/v1/icm/messages?pageSize=2&pageToken=${page.nextPageToken}`);
      expect([...page.messages, ...rest.messages].map((m: any) => m.messageId)).toEqual(all.messages.map((m: any) => m.messageId));
      expect(rest.nextPageToken).toBeUndefined();
      const fromC = await check(node.uri, 'listIcmMessages', '/v1/icm/messages?sourceBlockchainId=43112');
      expect(fromC.messages.map((m: any) => m.messageId)).toEqual([icm.pending, icm.delivered]);
      const toL1 = await check(node.uri, 'listIcmMessages', `/v1/icm/messages?destinationBlockchainId=${l1.platformChainId}&network=fuji`);
      expect(toL1.messages).toHaveLength(3);
      const either = await check(node.uri, 'listIcmMessages', `/v1/icm/messages?blockchainId=${c.platformChainId}`);
      expect(either.messages).toHaveLength(2);
      expect((await check(node.uri, 'listIcmMessages', `/v1/icm/messages?to=${icm.recipient.toLowerCase()}&from=${EWOQ}`)).messages).toHaveLength(3);
      expect((await check(node.uri, 'listIcmMessages', `/v1/icm/messages?from=${ALICE}`)).messages).toEqual([]);
    } finally {
      await node.stop();
    }
  }, 120_000);
});

describe("the Data API's signature aggregator", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
  });
  afterAll(() => node.stop());
  const post = async (body: unknown, status: number, path = '/v1/signatureAggregator/fuji/aggregateSignatures') => {
    const res = await fetch(`${node.uri}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = await res.json();
    expect({ status: res.status, json: res.status === status ? undefined : json }).toEqual({ status, json: undefined });
    const validate = ajv.compile(responseSchema('aggregateSignatures', status));
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    return json as any;
  };

  it('signs a message an L1 sent (an accepted block hash) with its validators: 201, the warp encoding', async () => {
    const info = await check(node.uri, 'getChainInfo', '/v1/chains/99999');
    const rpc = await fetch(info.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
    });
    const hash = ((await rpc.json()) as { result: { hash: string } }).result.hash;
    const unsigned = unsignedMessage(12345, idFromString(info.platformChainId), hashPayload(Buffer.from(hash.slice(2), 'hex')));
    const { signedMessage } = await post({ message: Buffer.from(unsigned).toString('hex') }, 201);
    const signed = Buffer.from(signedMessage, 'hex');
    expect(signed.subarray(0, unsigned.length).equals(Buffer.from(unsigned))).toBe(true);
    // One signer (the node, the L1's only validator): typeID 0, a one-byte bitset 0x01, a 96-byte signature.
    expect(signed.subarray(unsigned.length, unsigned.length + 9).toString('hex')).toBe('000000000000000101');
    expect(verifyAggregate(unsigned, signed.subarray(unsigned.length + 9), [publicKeyOf(LOCAL_SIGNERS[0]!.secretKey)])).toBe(true);
    // As ABI-encoded SendWarpMessage log data, with 0x, the same.
    const word = (n: number) => n.toString(16).padStart(64, '0');
    const logData = `0x${word(32)}${word(unsigned.length)}${Buffer.from(unsigned).toString('hex')}${'00'.repeat((32 - (unsigned.length % 32)) % 32)}`;
    expect((await post({ message: logData, quorumPercentage: 100 }, 201)).signedMessage).toBe(signedMessage);
  });

  it("refuses with icm-services' checks and texts, in its order", async () => {
    expect((await post({ message: 'zz' }, 400)).message).toBe('Could not decode message');
    expect((await post({ message: '0x1234' }, 400)).message).toBe('Error unpacking warp message');
    const unsigned = Buffer.from(unsignedMessage(12345, new Uint8Array(32).fill(7), hashPayload(new Uint8Array(32)))).toString('hex');
    expect((await post({ message: unsigned, justification: 'x' }, 400)).message).toBe('Could not decode justification');
    expect((await post({ message: unsigned, quorumPercentage: 101 }, 400)).message).toBe('Invalid quorum number');
    expect((await post({ message: unsigned, quorumPercentage: 70, quorumPercentageBuffer: 31 }, 400)).message).toBe('Invalid quorum buffer number');
    expect((await post({ message: unsigned, signingSubnetId: 'nope' }, 400)).message).toBe('Error parsing signing subnet ID');
    expect((await post({ message: unsigned, quorumPercentage: 'many' }, 400)).message).toEqual([
      'quorumPercentage must be a number conforming to the specified constraints',
    ]);
    const unknown = await post({ message: unsigned }, 500);
    expect(unknown.message).toMatch(/^failed to aggregate signatures\. error: source blockchain not found for chain ID /);
    const mainnet = await post({ message: unsigned }, 404, '/v1/signatureAggregator/mainnet/aggregateSignatures');
    expect(mainnet.message).toMatch(/mainnet is not served/);
  });

  it('GET by a P-Chain L1 tx: the conversion message, signed by the L1', async () => {
    const blocks = await check(node.uri, 'listLatestPrimaryNetworkBlocks', '/v1/networks/fuji/blockchains/p-chain/blocks?pageSize=100');
    const txs: string[] = blocks.blocks.flatMap((b: any) => b.transactions);
    const answers = [];
    for (const tx of txs) {
      const res = await fetch(`${node.uri}/v1/signatureAggregator/fuji/aggregateSignatures/${tx}`);
      const json = (await res.json()) as any;
      const validate = ajv.compile(responseSchema('getAggregatedSignatures', res.status));
      expect(validate(json) ? [] : validate.errors).toEqual([]);
      answers.push(res.status === 201 ? 'signed' : json.message.replace(/^transaction \S+ /, ''));
    }
    // The --l1 set-up: CreateSubnetTx, CreateChainTx, then ConvertSubnetToL1Tx (newest first).
    expect(answers).toEqual([
      'signed',
      'is not a P-Chain L1 transaction (ConvertSubnetToL1Tx, RegisterL1ValidatorTx or SetL1ValidatorWeightTx)',
      'is not a P-Chain L1 transaction (ConvertSubnetToL1Tx, RegisterL1ValidatorTx or SetL1ValidatorWeightTx)',
    ]);
    const missing = await fetch(`${node.uri}/v1/signatureAggregator/fuji/aggregateSignatures/2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm`);
    expect([missing.status, ((await missing.json()) as any).message]).toEqual([
      404,
      'transaction 2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm not found on the P-Chain',
    ]);
  });
});

describe("the Data API's usage metrics and request logs, from the requests the node served", () => {
  it('groups and filters the RPC usage, pages the request logs, newest first', async () => {
    const node = await startTestNode({ dbType: 'memdb' });
    try {
      const post = (path: string, body: unknown, agent: string) =>
        fetch(`${node.uri}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': agent }, body: JSON.stringify(body) });
      await post('/ext/info', { jsonrpc: '2.0', id: 1, method: 'info.getNetworkID' }, 'wallet/1');
      await post('/ext/info', { jsonrpc: '2.0', id: 2, method: 'info.getNetworkID' }, 'wallet/1');
      await post(
        '/ext/bc/C/rpc',
        [
          { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
          { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
        ],
        'explorer/2',
      );
      await fetch(`${node.uri}/ext/bc/C/rpc`, { headers: { 'user-agent': 'explorer/2' } });
      const byMethod = await check(node.uri, 'getPrimaryNetworkRpcUsageMetrics', '/v1/primaryNetworkRpcUsageMetrics?network=testnet&groupBy=rpcMethod');
      expect(byMethod).toMatchObject({ aggregateDuration: '1 day', network: 'testnet' });
      expect(byMethod.metrics).toHaveLength(1);
      const counts = Object.fromEntries(byMethod.metrics[0].values.map((v: any) => [v.groupValue, v.totalRequests]));
      expect(counts).toEqual({ 'info.getNetworkID': 2, eth_blockNumber: 1, eth_chainId: 1, '': 1 });
      const byAgent = await check(
        node.uri,
        'getPrimaryNetworkRpcUsageMetrics',
        '/v1/primaryNetworkRpcUsageMetrics?network=fuji&groupBy=userAgent&timeInterval=hourly',
      );
      expect(Object.fromEntries(byAgent.metrics[0].values.map((v: any) => [v.groupValue, [v.totalRequests, v.successRatePercent, v.invalidRequests]]))).toEqual(
        {
          'wallet/1': [2, 100, 0],
          'explorer/2': [2, 50, 1],
        },
      );
      const filtered = await check(node.uri, 'getPrimaryNetworkRpcUsageMetrics', '/v1/primaryNetworkRpcUsageMetrics?network=testnet&rpcMethod=eth_chainId');
      expect(filtered.metrics[0].values).toEqual([expect.objectContaining({ totalRequests: 1, groupedBy: 'None' })]);
      const tomorrow = Math.floor(Date.now() / 1000) + 86_400;
      expect(
        (await check(node.uri, 'getPrimaryNetworkRpcUsageMetrics', `/v1/primaryNetworkRpcUsageMetrics?network=testnet&startTimestamp=${tomorrow}`)).metrics,
      ).toEqual([]);
      await check(node.uri, 'getPrimaryNetworkRpcUsageMetrics', '/v1/primaryNetworkRpcUsageMetrics', 400);
      await check(node.uri, 'getPrimaryNetworkRpcUsageMetrics', '/v1/primaryNetworkRpcUsageMetrics?network=testnet&groupBy=planet', 400);

      const rpcLogs = await check(node.uri, 'getApiLogs', '/v1/apiLogs?requestType=rpc&pageSize=3');
      expect(rpcLogs.logs.map((l: any) => [l.requestPath, l.responseCode, l.rpcMethod ?? null, l.metadata.userAgent])).toEqual([
        ['/ext/bc/C/rpc', 405, null, 'explorer/2'],
        ['/ext/bc/C/rpc', 200, 'eth_blockNumber', 'explorer/2'],
        ['/ext/info', 200, 'info.getNetworkID', 'wallet/1'],
      ]);
      expect(rpcLogs.logs[0]).toMatchObject({ orgId: 'local', chainId: 'C', metadata: { ipAddress: expect.stringMatching(/127\.0\.0\.1/) } });
      const rest = await check(node.uri, 'getApiLogs', `/v1/apiLogs?requestType=rpc&pageSize=3&pageToken=${rpcLogs.nextPageToken}`);
      expect(rest.logs.map((l: any) => l.rpcMethod)).toEqual(['info.getNetworkID']);
      expect(rest.nextPageToken).toBeUndefined();
      const data = await check(node.uri, 'getApiLogs', '/v1/apiLogs?requestType=data&pageSize=100');
      expect(data.logs.every((l: any) => l.requestPath.startsWith('/v1/'))).toBe(true);
      expect(data.logs.length).toBeGreaterThanOrEqual(6);
    } finally {
      await node.stop();
    }
  });
});

describe('the Data API follower', () => {
  it('backfills a chain that ran without it, and keeps its view across a restart; --api-data-enabled=false serves no /v1', async () => {
    const dataDir = tempDir();
    let act: Activity;
    {
      const node = await startTestNode({ dataDir, apiDataEnabled: false });
      try {
        act = await makeActivity(`${node.uri}/ext/bc/C/rpc`, 43112);
        expect((await fetch(`${node.uri}/v1/chains/43112`)).status).toBe(404);
      } finally {
        await node.stop();
      }
    }
    for (let run = 0; run < 2; run++) {
      const node = await startTestNode({ dataDir });
      try {
        const body = await check(node.uri, 'listTransactions', `/v1/chains/43112/addresses/${ALICE}/transactions?sortOrder=asc`);
        expect(body.transactions.map((t: any) => t.nativeTransaction.txHash)).toHaveLength(4);
        expect(body.transactions[3].nativeTransaction.txHash).toBe(act.forwardTx);
        expect((await check(node.uri, 'getContractMetadata', `/v1/chains/43112/addresses/${act.child}`)).deploymentDetails.deployerContractAddress).toBe(
          act.forwarder,
        );
      } finally {
        await node.stop();
      }
    }
  }, 120_000);
});
