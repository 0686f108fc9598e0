// The C-Chain through viem 2, the way a dapp uses it: chain identity, AVAX transfers of both
// transaction types (also signed locally and sent raw), an ERC-20 and an ERC-721 compiled here with
// solc, events, logs and filters, revert reasons from eth_call and eth_estimateGas, fees, receipts,
// websocket subscriptions and a callTracer trace. Expected values are coreth's (avalanchego 1.14.2
// on the local network, docs/research/cchain.md). Every client has cacheTime 0: viem otherwise
// caches the block number for 4 s, which an instantly mining node outruns.
import {
  type Abi,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  ExecutionRevertedError,
  getAddress,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  keccak256,
  nonceManager,
  numberToHex,
  pad,
  parseEther,
  parseTransaction,
  type PublicClient,
  RpcRequestError,
  rpcSchema,
  toEventSelector,
  toHex,
  type TransactionReceipt,
  type WalletClient,
  webSocket,
  type WebSocketTransport,
  type Log,
  type Block,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const CHAIN_ID = 43112;
const C_CHAIN_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const BLACKHOLE = '0x0100000000000000000000000000000000000000';
const ZERO = '0x0000000000000000000000000000000000000000';
const GENESIS_HASH = '0x608ddbd611241719b64642d8e152537e2a5bdf46b6ddb9e8f15340c5e007b8b1';
const GENESIS_BALANCE = 50_000_000n * 10n ** 18n;
const GENESIS_BASE_FEE = 225_000_000_000n;
const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
const SUPPLY = 1_000_000n * 10n ** 18n;

const token = fixture('TestToken');
const nft = fixture('TestNFT');
const probe = fixture('Probe');
const tokenAbi = token.abi as Abi;
const nftAbi = nft.abi as Abi;
const probeAbi = probe.abi as Abi;
const errorString = (reason: string): Hex => `0x08c379a0${encodeAbiParameters([{ type: 'string' }], [reason]).slice(2)}`;
const topicOf = (address: Hex) => pad(address.toLowerCase() as Hex, { size: 32 });

/** geth's callTracer frame. */
interface CallFrame {
  type: string;
  from: Hex;
  to?: Hex;
  value?: Hex;
  gas: Hex;
  gasUsed: Hex;
  input: Hex;
  output?: Hex;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
}
type DebugSchema = [{ Method: 'debug_traceTransaction'; Parameters: [Hash, { tracer: 'callTracer' }]; ReturnType: CallFrame }];

/** The error a promise rejects with; fails the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<BaseError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof BaseError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

/** The JSON-RPC error under a viem error: code, message and data exactly as the node sent them. */
function rpcError(err: BaseError): { code: number; message: string; data?: unknown } {
  const found = err.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  if (!found) throw new Error(`no RpcRequestError under ${err.name}: ${err.message}`);
  const cause = found.cause as { code: number; message: string; data?: unknown };
  return cause.data === undefined ? { code: cause.code, message: cause.message } : { code: cause.code, message: cause.message, data: cause.data };
}

/** The decoded revert under a viem contract error. */
function reverted(err: BaseError): ContractFunctionRevertedError {
  const found = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(found instanceof ContractFunctionRevertedError)) throw new Error(`no ContractFunctionRevertedError under ${err.name}: ${err.message}`);
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let node: TestNode;
let rpcUrl: string;
let wsUrl: string;
let chain: Chain;
let client: PublicClient;
let wallet: WalletClient;
let ewoq: PrivateKeyAccount;
let alice: PrivateKeyAccount;

/** Sends with the file's wallet client and waits for the receipt. */
async function send(hash: Promise<Hash>): Promise<TransactionReceipt> {
  return client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50, timeout: 20_000 });
}

async function deploy(compiled: { abi: any[]; bytecode: Hex }, args: unknown[] = []): Promise<{ address: Hex; receipt: TransactionReceipt }> {
  const receipt = await send(wallet.deployContract({ abi: compiled.abi as Abi, bytecode: compiled.bytecode, args, account: ewoq, chain }));
  expect(receipt.status).toBe('success');
  return { address: receipt.contractAddress!, receipt };
}

beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  rpcUrl = `${node.uri}/ext/bc/C/rpc`;
  wsUrl = `${node.uri.replace(/^http/, 'ws')}/ext/bc/C/ws`;
  chain = defineChain({
    id: CHAIN_ID,
    name: 'Avalanche Local C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl], webSocket: [wsUrl] } },
  });
  client = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0, pollingInterval: 50 });
  ewoq = privateKeyToAccount(EWOQ_KEY);
  alice = privateKeyToAccount(generatePrivateKey());
  wallet = createWalletClient({ chain, transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0, pollingInterval: 50 });
  await send(wallet.sendTransaction({ account: ewoq, chain, to: alice.address, value: parseEther('1000') }));
});

afterAll(async () => {
  await node?.stop();
});

describe('chain identity', () => {
  it('getChainId is 43112 and net_version "43112"', async () => {
    expect(await client.getChainId()).toBe(CHAIN_ID);
    expect(await client.request({ method: 'eth_chainId' })).toBe('0xa868');
    expect(await client.request({ method: 'net_version' })).toBe('43112');
  });

  it('serves the same chain at /ext/bc/<C-Chain ID>/rpc', async () => {
    const byId = createPublicClient({ transport: http(`${node.uri}/ext/bc/${C_CHAIN_ID}/rpc`, { retryCount: 0 }), cacheTime: 0 });
    expect(await byId.getChainId()).toBe(CHAIN_ID);
    expect((await byId.getBlock({ blockNumber: 0n })).hash).toBe(GENESIS_HASH);
  });

  it("the genesis block is coreth's and ewoq holds 50M AVAX in it", async () => {
    const genesis = await client.getBlock({ blockNumber: 0n });
    expect(genesis).toMatchObject({
      hash: GENESIS_HASH,
      number: 0n,
      baseFeePerGas: GENESIS_BASE_FEE,
      gasLimit: 100_000_000n,
      gasUsed: 0n,
      timestamp: 1607144400n,
      miner: ZERO,
      difficulty: 0n,
      transactions: [],
      stateRoot: '0x3283022557b0e7ad755ac1739dbff2937186a2ed160772ba6c6009cb327a638f',
    });
    expect(await client.getBalance({ address: EWOQ, blockNumber: 0n })).toBe(GENESIS_BALANCE);
    expect(await client.getTransactionCount({ address: EWOQ, blockNumber: 0n })).toBe(0);
  });
});

describe('AVAX transfers', () => {
  it('EIP-1559 by default: effective price = min(maxFee, baseFee + tip), the whole fee to the blackhole coinbase', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const value = parseEther('3.25');
    const hash = await wallet.sendTransaction({ account: ewoq, chain, to, value });
    const receipt = await send(Promise.resolve(hash));
    expect(receipt).toMatchObject({ status: 'success', type: 'eip1559', gasUsed: 21_000n, from: EWOQ.toLowerCase(), to: to.toLowerCase(), logs: [] });
    const tx = await client.getTransaction({ hash });
    expect(tx.type).toBe('eip1559');
    expect(tx.chainId).toBe(CHAIN_ID);
    expect(tx.value).toBe(value);
    expect([0, 1]).toContain(tx.yParity);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.transactions).toEqual([hash]);
    expect(block.miner).toBe(BLACKHOLE);
    expect(block.baseFeePerGas).toBe(1n);
    expect(block.gasLimit).toBe(10_000_000n);
    const tipped = block.baseFeePerGas! + tx.maxPriorityFeePerGas!;
    const effective = tx.maxFeePerGas! < tipped ? tx.maxFeePerGas! : tipped;
    expect(receipt.effectiveGasPrice).toBe(effective);
    const fee = 21_000n * effective;
    const before = receipt.blockNumber - 1n;
    expect(await client.getBalance({ address: to, blockNumber: receipt.blockNumber })).toBe(value);
    expect(
      (await client.getBalance({ address: EWOQ, blockNumber: before })) - (await client.getBalance({ address: EWOQ, blockNumber: receipt.blockNumber })),
    ).toBe(value + fee);
    expect(
      (await client.getBalance({ address: BLACKHOLE, blockNumber: receipt.blockNumber })) -
        (await client.getBalance({ address: BLACKHOLE, blockNumber: before })),
    ).toBe(fee);
  });

  it('legacy (type 0) with EIP-155: signed locally, sent raw, v = 86259/86260', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const gasPrice = 25_000_000_000n;
    const nonce = await client.getTransactionCount({ address: alice.address, blockTag: 'pending' });
    const serialized = await alice.signTransaction({ type: 'legacy', chainId: CHAIN_ID, nonce, to, value: parseEther('1'), gas: 21_000n, gasPrice });
    const parsed = parseTransaction(serialized);
    expect(parsed).toMatchObject({ type: 'legacy', chainId: CHAIN_ID, gasPrice, nonce });
    expect([86_259n, 86_260n]).toContain(parsed.v);
    const hash = await client.sendRawTransaction({ serializedTransaction: serialized });
    expect(hash).toBe(keccak256(serialized));
    const receipt = await send(Promise.resolve(hash));
    expect(receipt).toMatchObject({ status: 'success', type: 'legacy', effectiveGasPrice: gasPrice, gasUsed: 21_000n, from: alice.address.toLowerCase() });
    const tx = await client.getTransaction({ hash });
    expect(tx).toMatchObject({ type: 'legacy', chainId: CHAIN_ID, gasPrice, nonce, blockNumber: receipt.blockNumber, transactionIndex: 0 });
    expect([86_259n, 86_260n]).toContain(tx.v);
    expect(await client.getBalance({ address: to, blockNumber: receipt.blockNumber })).toBe(parseEther('1'));
  });

  it('legacy through the wallet client (type: "legacy")', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({ account: ewoq, chain, to, value: 7n, type: 'legacy', gasPrice: 2_000_000_000n });
    const receipt = await send(Promise.resolve(hash));
    expect(receipt.type).toBe('legacy');
    expect(receipt.effectiveGasPrice).toBe(2_000_000_000n);
    expect(await client.getBalance({ address: to, blockNumber: receipt.blockNumber })).toBe(7n);
  });

  it('back-to-back transactions with a nonce manager land with consecutive nonces', async () => {
    const managed = privateKeyToAccount(EWOQ_KEY, { nonceManager });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const first = await wallet.sendTransaction({ account: managed, chain, to, value: 1n });
    const second = await wallet.sendTransaction({ account: managed, chain, to, value: 2n });
    const [r1, r2] = await Promise.all([send(Promise.resolve(first)), send(Promise.resolve(second))]);
    expect([r1.status, r2.status]).toEqual(['success', 'success']);
    const [t1, t2] = await Promise.all([client.getTransaction({ hash: first }), client.getTransaction({ hash: second })]);
    expect(t2.nonce).toBe(t1.nonce + 1);
    expect(await client.getBalance({ address: to, blockNumber: r2.blockNumber > r1.blockNumber ? r2.blockNumber : r1.blockNumber })).toBe(3n);
  });

  it('getTransactionReceipt of an unknown hash throws TransactionReceiptNotFoundError', async () => {
    const err = await rejection(client.getTransactionReceipt({ hash: keccak256(toHex('nothing')) }));
    expect(err.name).toBe('TransactionReceiptNotFoundError');
  });
});

describe('ERC-20', () => {
  let address: Hex;
  let deployBlock: bigint;
  const bob = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    const nonce = await client.getTransactionCount({ address: EWOQ, blockTag: 'pending' });
    const deployed = await deploy(token, ['Viem Token', 'VT', SUPPLY]);
    address = deployed.address;
    deployBlock = deployed.receipt.blockNumber;
    expect(getAddress(address)).toBe(getContractAddress({ from: EWOQ, nonce: BigInt(nonce) }));
  });

  it('reads: code, name, symbol, decimals, supply and the deployer balance', async () => {
    expect(await client.getCode({ address })).toBe(token.deployedBytecode);
    const read = (functionName: string, args: unknown[] = []) => client.readContract({ address, abi: tokenAbi, functionName, args });
    expect(await read('name')).toBe('Viem Token');
    expect(await read('symbol')).toBe('VT');
    expect(await read('decimals')).toBe(18);
    expect(await read('totalSupply')).toBe(SUPPLY);
    expect(await read('balanceOf', [EWOQ])).toBe(SUPPLY);
  });

  it('writeContract transfer: balances move, the receipt has the decoded Transfer log', async () => {
    const { request } = await client.simulateContract({ address, abi: tokenAbi, functionName: 'transfer', args: [alice.address, 1_000n], account: ewoq });
    expect(request.gas).toBeUndefined();
    const receipt = await send(wallet.writeContract(request));
    expect(receipt.status).toBe('success');
    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0]!;
    expect(log.address).toBe(address.toLowerCase());
    expect(log.topics).toEqual([TRANSFER_TOPIC, topicOf(EWOQ), topicOf(alice.address)]);
    const decoded = decodeEventLog({ abi: tokenAbi, data: log.data, topics: log.topics });
    expect(decoded).toEqual({ eventName: 'Transfer', args: { from: EWOQ, to: alice.address, value: 1_000n } });
    expect(await client.readContract({ address, abi: tokenAbi, functionName: 'balanceOf', args: [alice.address], blockNumber: receipt.blockNumber })).toBe(
      1_000n,
    );
    expect(await client.readContract({ address, abi: tokenAbi, functionName: 'balanceOf', args: [alice.address], blockNumber: receipt.blockNumber - 1n })).toBe(
      0n,
    );
  });

  it('approve + transferFrom from a second account', async () => {
    await send(wallet.writeContract({ address, abi: tokenAbi, functionName: 'approve', args: [alice.address, 500n], account: ewoq, chain }));
    const receipt = await send(
      wallet.writeContract({ address, abi: tokenAbi, functionName: 'transferFrom', args: [EWOQ, bob.address, 300n], account: alice, chain }),
    );
    const events = receipt.logs.map((l) => decodeEventLog({ abi: tokenAbi, data: l.data, topics: l.topics }));
    expect(events).toEqual([{ eventName: 'Transfer', args: { from: EWOQ, to: bob.address, value: 300n } }]);
    expect(
      await client.readContract({ address, abi: tokenAbi, functionName: 'allowance', args: [EWOQ, alice.address], blockNumber: receipt.blockNumber }),
    ).toBe(200n);
  });

  it('getLogs and getContractEvents: by event and indexed arguments, by block range', async () => {
    const transfer = tokenAbi.find((f) => f.type === 'event' && f.name === 'Transfer') as any;
    const all = await client.getContractEvents({ address, abi: tokenAbi, eventName: 'Transfer', fromBlock: deployBlock });
    expect(all.map((l: any) => l.args)).toEqual([
      { from: ZERO, to: EWOQ, value: SUPPLY },
      { from: EWOQ, to: alice.address, value: 1_000n },
      { from: EWOQ, to: bob.address, value: 300n },
    ]);
    const toBob = await client.getLogs({ address, event: transfer, args: { to: bob.address }, fromBlock: deployBlock });
    expect(toBob).toHaveLength(1);
    expect((toBob[0] as any).args).toEqual({ from: EWOQ, to: bob.address, value: 300n });
    const approvals = await client.getContractEvents({ address, abi: tokenAbi, eventName: 'Approval', fromBlock: deployBlock });
    expect(approvals.map((l: any) => l.args)).toEqual([{ owner: EWOQ, spender: alice.address, value: 500n }]);
    expect(await client.getLogs({ address, fromBlock: 0n, toBlock: deployBlock - 1n })).toEqual([]);
    const only = await client.getLogs({ address, fromBlock: deployBlock, toBlock: deployBlock });
    expect(only).toHaveLength(1);
    expect(only[0]!.blockNumber).toBe(deployBlock);
    const byTopic = await client.getLogs({ fromBlock: deployBlock, toBlock: 'latest', event: transfer, args: { from: ZERO } });
    expect(byTopic.map((l) => l.address)).toEqual([address.toLowerCase()]);
    const blockHash = (await client.getBlock({ blockNumber: deployBlock })).hash;
    expect((await client.getLogs({ blockHash })).map((l) => l.transactionHash)).toEqual([only[0]!.transactionHash]);
  });

  it('eth_call revert: code 3, "execution reverted: <reason>", Error(string) data; viem decodes the reason', async () => {
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [EWOQ, 1n] });
    const raw = await rejection(client.call({ account: poor, to: address, data }));
    expect(raw.name).toBe('CallExecutionError');
    expect(rpcError(raw)).toEqual({ code: 3, message: 'execution reverted: ERC20: insufficient balance', data: errorString('ERC20: insufficient balance') });

    const simulated = await rejection(client.simulateContract({ address, abi: tokenAbi, functionName: 'transfer', args: [EWOQ, 1n], account: poor }));
    expect(simulated.name).toBe('ContractFunctionExecutionError');
    const revert = reverted(simulated);
    expect(revert.reason).toBe('ERC20: insufficient balance');
    expect(revert.data?.errorName).toBe('Error');
    expect(revert.raw).toBe(errorString('ERC20: insufficient balance'));
  });

  it('eth_estimateGas revert: the same error', async () => {
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    const err = await rejection(client.estimateContractGas({ address, abi: tokenAbi, functionName: 'transfer', args: [EWOQ, 1n], account: poor }));
    expect(rpcError(err)).toEqual({ code: 3, message: 'execution reverted: ERC20: insufficient balance', data: errorString('ERC20: insufficient balance') });
    expect(reverted(err).reason).toBe('ERC20: insufficient balance');
    const ok = await client.estimateContractGas({ address, abi: tokenAbi, functionName: 'transfer', args: [bob.address, 1n], account: ewoq });
    expect(ok).toBeGreaterThan(21_000n);
    expect(ok).toBeLessThan(100_000n);
  });

  it('a reverting write with an explicit gas limit is mined with status "reverted"', async () => {
    const hash = await wallet.writeContract({
      address,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [EWOQ, 10n ** 30n],
      account: alice,
      chain,
      gas: 90_000n,
    });
    const receipt = await send(Promise.resolve(hash));
    expect(receipt.status).toBe('reverted');
    expect(receipt.logs).toEqual([]);
    expect(receipt.gasUsed).toBeGreaterThan(21_000n);
    expect(receipt.gasUsed).toBeLessThan(90_000n);
  });
});

describe('ERC-721', () => {
  let address: Hex;

  beforeAll(async () => {
    address = (await deploy(nft, ['Viem NFT', 'VNFT'])).address;
  });

  it('mint, ownerOf, transferFrom; Transfer carries the token ID as an indexed topic', async () => {
    const bob = privateKeyToAccount(generatePrivateKey()).address;
    const minted = await send(wallet.writeContract({ address, abi: nftAbi, functionName: 'mint', args: [EWOQ, 7n], account: ewoq, chain }));
    expect(minted.logs[0]!.topics).toEqual([TRANSFER_TOPIC, topicOf(ZERO), topicOf(EWOQ), numberToHex(7n, { size: 32 })]);
    expect(minted.logs[0]!.data).toBe('0x');
    expect(await client.readContract({ address, abi: nftAbi, functionName: 'ownerOf', args: [7n], blockNumber: minted.blockNumber })).toBe(EWOQ);
    const moved = await send(wallet.writeContract({ address, abi: nftAbi, functionName: 'transferFrom', args: [EWOQ, bob, 7n], account: ewoq, chain }));
    expect(decodeEventLog({ abi: nftAbi, data: moved.logs[0]!.data, topics: moved.logs[0]!.topics })).toEqual({
      eventName: 'Transfer',
      args: { from: EWOQ, to: bob, tokenId: 7n },
    });
    expect(await client.readContract({ address, abi: nftAbi, functionName: 'ownerOf', args: [7n], blockNumber: moved.blockNumber })).toBe(bob);
    expect(await client.readContract({ address, abi: nftAbi, functionName: 'balanceOf', args: [bob], blockNumber: moved.blockNumber })).toBe(1n);
    const history = await client.getContractEvents({ address, abi: nftAbi, eventName: 'Transfer', args: { tokenId: 7n }, fromBlock: 0n });
    expect(history.map((l: any) => [l.args.from, l.args.to])).toEqual([
      [ZERO, EWOQ],
      [EWOQ, bob],
    ]);
    const err = await rejection(client.readContract({ address, abi: nftAbi, functionName: 'ownerOf', args: [8n] }));
    expect(reverted(err).reason).toBe('ERC721: invalid token ID');
    expect(await client.readContract({ address, abi: nftAbi, functionName: 'supportsInterface', args: ['0x80ac58cd'] })).toBe(true);
  });
});

describe('custom errors, empty reverts and coreth block values (Probe)', () => {
  let address: Hex;

  beforeAll(async () => {
    address = (await deploy(probe)).address;
  });

  it('a view function', async () => {
    expect(await client.readContract({ address, abi: probeAbi, functionName: 'add', args: [2n, 3n] })).toBe(5n);
  });

  it('a custom error: code 3, bare "execution reverted", the error bytes; viem names it and decodes its arguments', async () => {
    const expected = encodeErrorResult({ abi: probeAbi, errorName: 'Unauthorized', args: [EWOQ, 9n] });
    const data = encodeFunctionData({ abi: probeAbi, functionName: 'failCustom', args: [9n] });
    expect(rpcError(await rejection(client.call({ account: EWOQ, to: address, data })))).toEqual({ code: 3, message: 'execution reverted', data: expected });
    const err = await rejection(client.readContract({ address, abi: probeAbi, functionName: 'failCustom', args: [9n], account: EWOQ }));
    const revert = reverted(err);
    expect(revert.data?.errorName).toBe('Unauthorized');
    expect(revert.data?.args).toEqual([EWOQ, 9n]);
    expect(revert.raw).toBe(expected);
    const estimate = await rejection(client.estimateContractGas({ address, abi: probeAbi, functionName: 'failCustom', args: [9n], account: EWOQ }));
    expect(rpcError(estimate)).toEqual({ code: 3, message: 'execution reverted', data: expected });
  });

  it('an empty revert(): code -32000 "execution reverted" and no data, from eth_call and eth_estimateGas', async () => {
    const data = encodeFunctionData({ abi: probeAbi, functionName: 'failEmpty' });
    const call = await rejection(client.call({ to: address, data }));
    expect(rpcError(call)).toEqual({ code: -32000, message: 'execution reverted' });
    const estimate = await rejection(client.estimateGas({ account: EWOQ, to: address, data }));
    expect(rpcError(estimate)).toEqual({ code: -32000, message: 'execution reverted' });
    const viaRead = await rejection(client.readContract({ address, abi: probeAbi, functionName: 'failEmpty' }));
    // Without code 3 and data viem has nothing to decode: the node error under it is ExecutionRevertedError.
    expect(viaRead.name).toBe('ContractFunctionExecutionError');
    expect(viaRead.walk((e) => e instanceof ContractFunctionRevertedError)).toBeNull();
    expect(viaRead.walk((e) => e instanceof ExecutionRevertedError)).toBeInstanceOf(ExecutionRevertedError);
    expect(rpcError(viaRead)).toEqual({ code: -32000, message: 'execution reverted' });
  });

  it('Panic(0x12): the node names it, viem decodes it', async () => {
    const data = encodeFunctionData({ abi: probeAbi, functionName: 'failPanic', args: [0n] });
    const panicData: Hex = `0x4e487b71${numberToHex(0x12, { size: 32 }).slice(2)}`;
    expect(rpcError(await rejection(client.call({ to: address, data })))).toEqual({
      code: 3,
      message: 'execution reverted: division or modulo by zero',
      data: panicData,
    });
    const revert = reverted(await rejection(client.readContract({ address, abi: probeAbi, functionName: 'failPanic', args: [0n] })));
    expect(revert.data?.errorName).toBe('Panic');
    expect(revert.data?.args).toEqual([0x12n]);
  });

  it('a transaction sees PREVRANDAO 1, COINBASE blackhole, BASEFEE = header base fee, CHAINID 43112', async () => {
    const receipt = await send(wallet.writeContract({ address, abi: probeAbi, functionName: 'recordBlockValues', account: ewoq, chain }));
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const event = decodeEventLog({ abi: probeAbi, data: receipt.logs[0]!.data, topics: receipt.logs[0]!.topics });
    expect(event).toEqual({
      eventName: 'BlockValues',
      args: { prevrandao: 1n, coinbase: BLACKHOLE, basefee: block.baseFeePerGas, number: receipt.blockNumber, chainId: BigInt(CHAIN_ID) },
    });
    expect(block.baseFeePerGas).toBe(1n);
    expect(block.difficulty).toBe(1n);
    expect(block.mixHash).toBe(pad('0x', { size: 32 }));
  });

  it('eth_call at a built block: PREVRANDAO 1, COINBASE blackhole; BASEFEE 0 without a gas price, the header base fee with one', async () => {
    const latest = await client.getBlock();
    expect(latest.number).toBeGreaterThan(0n);
    const [prevrandao, coinbase, basefee, number, chainId] = (await client.readContract({
      address,
      abi: probeAbi,
      functionName: 'blockValues',
      blockNumber: latest.number,
    })) as [bigint, Hex, bigint, bigint, bigint];
    expect([prevrandao, coinbase, basefee, number, chainId]).toEqual([1n, BLACKHOLE, 0n, latest.number, BigInt(CHAIN_ID)]);
    const priced = await client.call({
      to: address,
      data: encodeFunctionData({ abi: probeAbi, functionName: 'blockValues' }),
      account: EWOQ,
      gasPrice: 5n,
      blockNumber: latest.number,
    });
    expect(BigInt(`0x${priced.data!.slice(2 + 64 * 2, 2 + 64 * 3)}`)).toBe(latest.baseFeePerGas);
  });
});

describe('fees', () => {
  it('base fee: 225 gwei at genesis, then 1 wei; gas limit 100M at genesis, then 10M', async () => {
    const latest = await client.getBlock();
    expect(latest.baseFeePerGas).toBe(1n);
    expect(latest.gasLimit).toBe(10_000_000n);
    expect((await client.getBlock({ blockNumber: 1n })).baseFeePerGas).toBe(1n);
  });

  it("getFeeHistory of genesis is coreth's: one base fee (not n + 1), zero reward", async () => {
    expect(await client.getFeeHistory({ blockCount: 1, blockNumber: 0n, rewardPercentiles: [50] })).toEqual({
      oldestBlock: 0n,
      reward: [[0n]],
      baseFeePerGas: [GENESIS_BASE_FEE],
      gasUsedRatio: [0],
    });
  });

  it('getFeeHistory over a block with one known transaction: tip as reward, gas used ratio, base fee', async () => {
    const gasPrice = 4_000_000_000n;
    const receipt = await send(wallet.sendTransaction({ account: ewoq, chain, to: alice.address, value: 1n, type: 'legacy', gasPrice }));
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(await client.getFeeHistory({ blockCount: 1, blockNumber: receipt.blockNumber, rewardPercentiles: [25, 75] })).toEqual({
      oldestBlock: receipt.blockNumber,
      reward: [[gasPrice - block.baseFeePerGas!, gasPrice - block.baseFeePerGas!]],
      baseFeePerGas: [block.baseFeePerGas],
      gasUsedRatio: [21_000 / 10_000_000],
    });
    const head = await client.getBlockNumber();
    const three = await client.getFeeHistory({ blockCount: 3, blockTag: 'latest', rewardPercentiles: [] });
    expect(three.oldestBlock).toBe(head - 2n);
    expect(three.baseFeePerGas).toHaveLength(3);
    expect(three.gasUsedRatio).toHaveLength(3);
  });

  it('estimateFeesPerGas: maxFee = latest base fee × 1.2 + eth_maxPriorityFeePerGas; getGasPrice ≥ 2 wei', async () => {
    const latest = await client.getBlock();
    const tip = await client.estimateMaxPriorityFeePerGas();
    expect(tip).toBe(BigInt(await client.request({ method: 'eth_maxPriorityFeePerGas' })));
    const fees = await client.estimateFeesPerGas();
    expect(fees.maxPriorityFeePerGas).toBe(tip);
    expect(fees.maxFeePerGas).toBe((latest.baseFeePerGas! * 12n) / 10n + tip);
    expect(await client.getGasPrice()).toBeGreaterThanOrEqual(2n);
  });
});

describe('filters (polled)', () => {
  let address: Hex;

  beforeAll(async () => {
    address = (await deploy(token, ['Filter Token', 'FT', SUPPLY])).address;
  });

  it('createContractEventFilter + getFilterChanges: new logs once, decoded; getFilterLogs; uninstallFilter', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const filter = await client.createContractEventFilter({ address, abi: tokenAbi, eventName: 'Transfer', args: { to } as any, fromBlock: 0n });
    expect(filter.id).toMatch(/^0x[0-9a-f]+$/);
    expect(await client.getFilterChanges({ filter })).toEqual([]);
    const receipt = await send(wallet.writeContract({ address, abi: tokenAbi, functionName: 'transfer', args: [to, 42n], account: ewoq, chain }));
    const changes = (await client.getFilterChanges({ filter })) as any[];
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      eventName: 'Transfer',
      args: { from: EWOQ, to, value: 42n },
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      transactionHash: receipt.transactionHash,
      logIndex: 0,
      transactionIndex: 0,
      removed: false,
    });
    expect(await client.getFilterChanges({ filter })).toEqual([]);
    const logs = (await client.getFilterLogs({ filter })) as any[];
    expect(logs.map((l) => l.args.value)).toEqual([42n]);
    expect(await client.uninstallFilter({ filter })).toBe(true);
    expect(await client.uninstallFilter({ filter })).toBe(false);
    expect(rpcError(await rejection(client.getFilterChanges({ filter })))).toEqual({ code: -32000, message: 'filter not found' });
  });

  it('createBlockFilter: the hash of each new block', async () => {
    const filter = await client.createBlockFilter();
    expect(await client.getFilterChanges({ filter })).toEqual([]);
    const receipt = await send(wallet.sendTransaction({ account: ewoq, chain, to: alice.address, value: 1n }));
    expect(await client.getFilterChanges({ filter })).toEqual([receipt.blockHash]);
    expect(await client.uninstallFilter({ filter })).toBe(true);
  });

  it('watchContractEvent over HTTP polls an eth_newFilter and delivers a Transfer', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const requested: string[] = [];
    const watcher = createPublicClient({
      chain,
      cacheTime: 0,
      transport: http(rpcUrl, {
        retryCount: 0,
        onFetchRequest: async (request) => {
          const body = JSON.parse(await request.clone().text());
          for (const r of [body].flat()) requested.push(r.method);
        },
      }),
    });
    const received: Log[] = [];
    const unwatch = watcher.watchContractEvent({
      address,
      abi: tokenAbi,
      eventName: 'Transfer',
      args: { to },
      poll: true,
      pollingInterval: 50,
      onLogs: (logs) => received.push(...logs),
      onError: (err) => {
        throw err;
      },
    });
    try {
      // Polling starts once the filter exists; a transfer sent earlier would not be reported.
      for (let i = 0; !requested.includes('eth_getFilterChanges'); i++) {
        if (i > 200) throw new Error(`the watcher never polled a filter: ${requested.join(', ')}`);
        await sleep(25);
      }
      expect(requested).toContain('eth_newFilter');
      const receipt = await send(wallet.writeContract({ address, abi: tokenAbi, functionName: 'transfer', args: [to, 11n], account: ewoq, chain }));
      for (let i = 0; received.length === 0 && i < 200; i++) await sleep(25);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ args: { from: EWOQ, to, value: 11n }, transactionHash: receipt.transactionHash, blockNumber: receipt.blockNumber });
    } finally {
      unwatch();
    }
  });
});

describe('websocket (/ext/bc/C/ws)', () => {
  let ws: PublicClient<WebSocketTransport, Chain>;

  beforeAll(async () => {
    ws = createPublicClient({ chain, transport: webSocket(wsUrl, { retryCount: 0, reconnect: false }), cacheTime: 0 });
  });

  afterAll(async () => {
    if (ws) (await ws.transport.getRpcClient()).close();
  });

  it('answers plain calls over the socket', async () => {
    expect(await ws.getChainId()).toBe(CHAIN_ID);
    expect((await ws.getBlock({ blockNumber: 0n })).hash).toBe(GENESIS_HASH);
  });

  it('eth_subscribe newHeads: the head of the block that mined a transaction, with coreth fields', async () => {
    const heads: any[] = [];
    const { subscriptionId, unsubscribe } = await ws.transport.subscribe({
      params: ['newHeads'],
      onData: (data: any) => heads.push(data.result),
      onError: (err: Error) => {
        throw err;
      },
    });
    expect(subscriptionId).toMatch(/^0x[0-9a-f]+$/);
    try {
      const receipt = await send(wallet.sendTransaction({ account: ewoq, chain, to: alice.address, value: 1n }));
      for (let i = 0; !heads.some((h) => h.hash === receipt.blockHash) && i < 200; i++) await sleep(25);
      const head = heads.find((h) => h.hash === receipt.blockHash);
      expect(head).toMatchObject({ number: numberToHex(receipt.blockNumber), miner: BLACKHOLE, baseFeePerGas: '0x1', gasLimit: '0x989680', difficulty: '0x1' });
      expect(head.parentHash).toBe((await client.getBlock({ blockNumber: receipt.blockNumber - 1n })).hash);
    } finally {
      expect(await unsubscribe()).toMatchObject({ result: true });
    }
  });

  it('watchBlocks (poll: false) hands over the new block', async () => {
    const blocks: Block[] = [];
    const unwatch = ws.watchBlocks({ poll: false, onBlock: (block) => blocks.push(block), onError: () => {} });
    try {
      // The subscription is made asynchronously: build blocks until one arrives.
      const sent: TransactionReceipt[] = [];
      for (let i = 0; blocks.length === 0 && i < 40; i++) {
        sent.push(await send(wallet.sendTransaction({ account: ewoq, chain, to: alice.address, value: 1n })));
        await sleep(100);
      }
      expect(blocks.length).toBeGreaterThan(0);
      const block = blocks.at(-1)!;
      const match = sent.find((r) => r.blockHash === block.hash);
      expect(match).toBeDefined();
      expect(block.number).toBe(match!.blockNumber);
      expect(block.miner).toBe(BLACKHOLE);
    } finally {
      unwatch();
    }
  });

  it('watchContractEvent (poll: false) gets the Transfer through a logs subscription', async () => {
    const address = (await deploy(token, ['Socket Token', 'ST', SUPPLY])).address;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const received: Log[] = [];
    const unwatch = ws.watchContractEvent({
      address,
      abi: tokenAbi,
      eventName: 'Transfer',
      args: { to },
      poll: false,
      onLogs: (logs) => received.push(...logs),
      onError: () => {},
    });
    try {
      const sent: TransactionReceipt[] = [];
      for (let i = 0; received.length === 0 && i < 40; i++) {
        sent.push(await send(wallet.writeContract({ address, abi: tokenAbi, functionName: 'transfer', args: [to, 1n], account: ewoq, chain })));
        await sleep(100);
      }
      expect(received.length).toBeGreaterThan(0);
      const log = received[0] as any;
      expect(log.eventName).toBe('Transfer');
      expect(log.args).toEqual({ from: EWOQ, to, value: 1n });
      expect(getAddress(log.address)).toBe(getAddress(address));
      expect(sent.map((r) => r.transactionHash)).toContain(log.transactionHash);
    } finally {
      unwatch();
    }
  });

  it('eth_subscribe logs: the raw log of a Transfer, filtered by address and topics', async () => {
    const address = (await deploy(token, ['Raw Token', 'RT', SUPPLY])).address;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const logs: any[] = [];
    const { subscriptionId, unsubscribe } = await ws.transport.subscribe({
      params: ['logs', { address, topics: [TRANSFER_TOPIC, null, topicOf(to)] }],
      onData: (data: any) => logs.push(data.result),
      onError: () => {},
    });
    expect(subscriptionId).toMatch(/^0x[0-9a-f]+$/);
    try {
      const receipt = await send(wallet.writeContract({ address, abi: tokenAbi, functionName: 'transfer', args: [to, 5n], account: ewoq, chain }));
      for (let i = 0; logs.length === 0 && i < 200; i++) await sleep(25);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        address: address.toLowerCase(),
        topics: [TRANSFER_TOPIC, topicOf(EWOQ), topicOf(to)],
        data: numberToHex(5n, { size: 32 }),
        blockNumber: numberToHex(receipt.blockNumber),
        blockHash: receipt.blockHash,
        transactionHash: receipt.transactionHash,
        logIndex: '0x0',
        removed: false,
      });
    } finally {
      expect(await unsubscribe()).toMatchObject({ result: true });
    }
  });
});

describe('debug_traceTransaction', () => {
  it('is not served without --dev (-32601)', async () => {
    const plain = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0, rpcSchema: rpcSchema<DebugSchema>() });
    const err = await rejection(plain.request({ method: 'debug_traceTransaction', params: [keccak256('0x'), { tracer: 'callTracer' }] }));
    expect(rpcError(err)).toEqual({ code: -32601, message: 'the method debug_traceTransaction does not exist/is not available' });
  });

  describe('on a node started with dev', () => {
    let devNode: TestNode;
    let dev: PublicClient<ReturnType<typeof http>, Chain, undefined, DebugSchema>;
    let devWallet: WalletClient;

    beforeAll(async () => {
      devNode = await startTestNode({ dbType: 'memdb', dev: true });
      const url = `${devNode.uri}/ext/bc/C/rpc`;
      dev = createPublicClient({ chain, transport: http(url, { retryCount: 0 }), cacheTime: 0, pollingInterval: 50, rpcSchema: rpcSchema<DebugSchema>() });
      devWallet = createWalletClient({ chain, transport: http(url, { retryCount: 0 }), cacheTime: 0 });
    });

    afterAll(async () => {
      await devNode?.stop();
    });

    const mine = async (hash: Promise<Hash>) => dev.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50, timeout: 20_000 });

    it('callTracer: top CALL and the nested CALL; gas used equals the receipt (no refunds)', async () => {
      const outer = (await mine(devWallet.deployContract({ abi: probeAbi, bytecode: probe.bytecode, account: ewoq, chain }))).contractAddress!;
      const inner = (await mine(devWallet.deployContract({ abi: probeAbi, bytecode: probe.bytecode, account: ewoq, chain }))).contractAddress!;
      const hash = await devWallet.writeContract({ address: outer, abi: probeAbi, functionName: 'storeVia', args: [inner, 42n], account: ewoq, chain });
      const receipt = await mine(Promise.resolve(hash));
      const tx = await dev.getTransaction({ hash });
      const trace = await dev.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] });
      expect(trace).toMatchObject({
        type: 'CALL',
        from: EWOQ.toLowerCase(),
        to: outer.toLowerCase(),
        value: '0x0',
        gas: numberToHex(tx.gas),
        gasUsed: numberToHex(receipt.gasUsed),
        input: encodeFunctionData({ abi: probeAbi, functionName: 'storeVia', args: [inner, 42n] }),
      });
      expect(trace.error).toBeUndefined();
      expect(trace.calls).toHaveLength(1);
      expect(trace.calls![0]).toMatchObject({
        type: 'CALL',
        from: outer.toLowerCase(),
        to: inner.toLowerCase(),
        value: '0x0',
        input: encodeFunctionData({ abi: probeAbi, functionName: 'store', args: [42n] }),
      });
      expect(trace.calls![0]!.calls).toBeUndefined();
    });

    it('callTracer of a reverted transaction: error, revertReason and the revert bytes as output', async () => {
      const address = (await mine(devWallet.deployContract({ abi: tokenAbi, bytecode: token.bytecode, args: ['T', 'T', 0n], account: ewoq, chain })))
        .contractAddress!;
      const hash = await devWallet.writeContract({ address, abi: tokenAbi, functionName: 'transfer', args: [EWOQ, 1n], account: ewoq, chain, gas: 70_000n });
      const receipt = await mine(Promise.resolve(hash));
      expect(receipt.status).toBe('reverted');
      const trace = await dev.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] });
      expect(trace).toMatchObject({
        type: 'CALL',
        to: address.toLowerCase(),
        gas: numberToHex(70_000n),
        gasUsed: numberToHex(receipt.gasUsed),
        error: 'execution reverted',
        revertReason: 'ERC20: insufficient balance',
        output: errorString('ERC20: insufficient balance'),
      });
    });
  });
});
