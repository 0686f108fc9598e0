// The C-Chain through ethers 6, the way a dapp uses it: chain identity, AVAX transfers of both
// transaction types, an ERC-20 and an ERC-721 compiled here with solc, events and logs, revert
// reasons from eth_call and eth_estimateGas, fees, receipts, polled filters, websocket
// subscriptions and a callTracer trace. Expected values are coreth's (avalanchego 1.14.2 on the
// local network, docs/research/cchain.md): chain ID 43112, fees credited to the blackhole coinbase,
// PREVRANDAO 1, ACP-176 base fee of 1 wei after genesis, feeHistory without the extra base fee entry.
import {
  AbiCoder,
  type Block,
  Contract,
  ContractFactory,
  type ContractEventPayload,
  getCreateAddress,
  id,
  Interface,
  type JsonRpcApiProvider,
  JsonRpcProvider,
  type Log,
  NonceManager,
  parseEther,
  Transaction,
  type TransactionReceipt,
  type TransactionResponse,
  Wallet,
  WebSocketProvider,
  zeroPadValue,
  toBeHex,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestNode, type TestNode } from './helpers.js';
import { compileSources, EVM_VERSION, fixture, solcVersion } from './support/solc.js';

const CHAIN_ID = 43112n;
const C_CHAIN_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const BLACKHOLE = '0x0100000000000000000000000000000000000000';
const GENESIS_HASH = '0x608ddbd611241719b64642d8e152537e2a5bdf46b6ddb9e8f15340c5e007b8b1';
const GENESIS_BALANCE = 50_000_000n * 10n ** 18n;
const GENESIS_BASE_FEE = 225_000_000_000n;
const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');
const APPROVAL_TOPIC = id('Approval(address,address,uint256)');
const SUPPLY = 1_000_000n * 10n ** 18n;

const abi = AbiCoder.defaultAbiCoder();
const errorString = (reason: string) => `0x08c379a0${abi.encode(['string'], [reason]).slice(2)}`;
const topicOf = (address: string) => zeroPadValue(address, 32).toLowerCase();
/** A JSON-RPC quantity: hex without leading zeros. */
const q = (n: bigint | number) => `0x${n.toString(16)}`;

/** The receipt of a sent transaction, failing the test when it has none. */
async function mined(sent: Promise<TransactionResponse> | TransactionResponse): Promise<TransactionReceipt> {
  const receipt = await (await sent).wait();
  if (!receipt) throw new Error('transaction without a receipt');
  return receipt;
}

/** The error a promise rejects with; fails the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

/**
 * Watches the provider's "debug" events for its next request of `method`; the function returned
 * waits for that request's JSON-RPC response and returns it. Subscriptions and filters are
 * installed (and removed) asynchronously: a transaction sent before eth_newFilter or eth_subscribe
 * has been answered would be missed by them.
 */
async function answered(provider: JsonRpcApiProvider, method: string): Promise<(ms?: number) => Promise<any>> {
  const ids = new Set<number>();
  let done!: (response: any) => void;
  const seen = new Promise<any>((resolve) => {
    done = resolve;
  });
  const listener = (event: any) => {
    if (event.action === 'sendRpcPayload') {
      for (const p of [event.payload].flat()) if (p.method === method) ids.add(p.id);
    } else if (event.action === 'receiveRpcResult') {
      const response = [event.result].flat().find((r: any) => ids.has(r.id));
      if (response) done(response);
    }
  };
  await provider.on('debug', listener);
  return async (ms = 10_000) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        seen,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${ms} ms`)), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      await provider.off('debug', listener);
    }
  };
}

/** A listener to hand to a client, and `next()`: its first call's arguments, or an error after `ms`. */
function firstEvent<T extends unknown[]>(): { listener: (...args: T) => void; next: (ms?: number) => Promise<T> } {
  let resolve!: (args: T) => void;
  const seen = new Promise<T>((done) => {
    resolve = done;
  });
  return {
    listener: (...args: T) => resolve(args),
    next: async (ms = 10_000) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no event within ${ms} ms`)), ms);
      });
      try {
        return await Promise.race([seen, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A WebSocketProvider that has started, on a socket whose failure (a 404) fails the hook instead of the process. */
async function openWebSocket(url: string): Promise<WebSocketProvider> {
  const socket = new WebSocket(url);
  const failed = new Promise<never>((_, reject) => socket.on('error', reject));
  const provider = new WebSocketProvider(socket as any);
  try {
    await Promise.race([provider.getNetwork(), failed]);
  } catch (err) {
    await provider.destroy();
    throw err;
  }
  return provider;
}

describe('solc (test/support/solc.ts)', () => {
  it('compiles the fixtures with solc 0.8.37 for Cancun, optimizer on', () => {
    expect(solcVersion()).toMatch(/^0\.8\.37\+commit\.[0-9a-f]{8}\./);
    expect(EVM_VERSION).toBe('cancun');
    for (const name of ['TestToken', 'TestNFT', 'Probe']) {
      const c = fixture(name);
      expect(c.bytecode).toMatch(/^0x6080604052[0-9a-f]+$/);
      expect(c.deployedBytecode).toMatch(/^0x6080604052[0-9a-f]+$/);
      expect(c.bytecode.length).toBeGreaterThan(c.deployedBytecode.length);
    }
    expect(fixture('TestToken').methodIdentifiers).toMatchObject({
      'transfer(address,uint256)': 'a9059cbb',
      'approve(address,uint256)': '095ea7b3',
      'transferFrom(address,address,uint256)': '23b872dd',
      'balanceOf(address)': '70a08231',
    });
    expect(fixture('TestNFT').methodIdentifiers).toMatchObject({ 'ownerOf(uint256)': '6352211e', 'mint(address,uint256)': '40c10f19' });
    const events = fixture('TestToken')
      .abi.filter((f) => f.type === 'event')
      .map((f) => f.name);
    expect(events.sort()).toEqual(['Approval', 'Transfer']);
    expect(fixture('Probe').abi.find((f) => f.type === 'error')).toMatchObject({ name: 'Unauthorized' });
  });

  it('targets Cancun: transient storage compiles (it does not before Cancun)', () => {
    const out = compileSources({
      'T.sol': 'pragma solidity 0.8.37; contract T { function f() external returns (uint256 v) { assembly { tstore(0, 7) v := tload(0) } } }',
    });
    // TSTORE is 0x5d, TLOAD 0x5c.
    expect(out['T.sol']!.T!.deployedBytecode).toMatch(/5d/);
    expect(out['T.sol']!.T!.deployedBytecode).toMatch(/5c/);
  });

  it('caches per input and reports compiler errors', () => {
    expect(fixture('Probe')).toBe(fixture('Probe'));
    expect(() => compileSources({ 'Bad.sol': 'pragma solidity 0.8.37; contract Bad { function f( }' })).toThrow(/ParserError/);
  });

  it('throws for an unknown fixture', () => {
    expect(() => fixture('Nope')).toThrow(/no fixture contract named Nope/);
  });
});

let node: TestNode;
let rpcUrl: string;
let wsUrl: string;
let provider: JsonRpcProvider;
let ewoq: NonceManager;
let alice: NonceManager;
let bob: NonceManager;

beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  rpcUrl = `${node.uri}/ext/bc/C/rpc`;
  wsUrl = `${node.uri.replace(/^http/, 'ws')}/ext/bc/C/ws`;
  provider = new JsonRpcProvider(rpcUrl, undefined, { pollingInterval: 50 });
  ewoq = new NonceManager(new Wallet(EWOQ_KEY, provider));
  alice = new NonceManager(Wallet.createRandom(provider));
  bob = new NonceManager(Wallet.createRandom(provider));
  // Two funded accounts besides ewoq, for transfers of their own and for revert cases.
  for (const account of [alice, bob]) await mined(ewoq.sendTransaction({ to: await account.getAddress(), value: parseEther('1000') }));
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
});

describe('chain identity', () => {
  it('eth_chainId is 43112 (0xa868) and net_version "43112"', async () => {
    const fresh = new JsonRpcProvider(rpcUrl);
    try {
      expect((await fresh.getNetwork()).chainId).toBe(CHAIN_ID);
      expect(await fresh.send('eth_chainId', [])).toBe('0xa868');
      expect(await fresh.send('net_version', [])).toBe('43112');
    } finally {
      fresh.destroy();
    }
  });

  it('serves the same chain at /ext/bc/<C-Chain ID>/rpc', async () => {
    const byId = new JsonRpcProvider(`${node.uri}/ext/bc/${C_CHAIN_ID}/rpc`);
    try {
      expect((await byId.getNetwork()).chainId).toBe(CHAIN_ID);
      expect((await byId.getBlock(0))!.hash).toBe(GENESIS_HASH);
    } finally {
      byId.destroy();
    }
  });

  it("the genesis block is coreth's: hash, 225 gwei base fee, 100M gas limit, ewoq's 50M AVAX", async () => {
    const genesis = (await provider.getBlock(0))!;
    expect(genesis.hash).toBe(GENESIS_HASH);
    expect(genesis.number).toBe(0);
    expect(genesis.baseFeePerGas).toBe(GENESIS_BASE_FEE);
    expect(genesis.gasLimit).toBe(100_000_000n);
    expect(genesis.timestamp).toBe(1607144400);
    expect(genesis.transactions).toEqual([]);
    expect(await provider.getBalance(EWOQ, 0)).toBe(GENESIS_BALANCE);
    expect(await provider.getTransactionCount(EWOQ, 0)).toBe(0);
    expect(await provider.getCode(EWOQ, 0)).toBe('0x');
  });
});

describe('AVAX transfers', () => {
  it('an EIP-1559 (type 2) transfer: its own block, fee = gasUsed × min(maxFee, baseFee + tip), paid to the blackhole coinbase', async () => {
    const value = parseEther('12.5');
    const to = Wallet.createRandom().address;
    const tx = await ewoq.sendTransaction({ to, value });
    expect(tx.type).toBe(2);
    expect(tx.chainId).toBe(CHAIN_ID);
    const receipt = await mined(tx);
    expect(receipt.status).toBe(1);
    expect(receipt.type).toBe(2);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.cumulativeGasUsed).toBe(21_000n);
    expect(receipt.from).toBe(EWOQ);
    expect(receipt.to).toBe(to);
    expect(receipt.contractAddress).toBeNull();
    expect(receipt.logs).toEqual([]);

    const block = (await provider.getBlock(receipt.blockNumber))!;
    expect(block.hash).toBe(receipt.blockHash);
    expect(block.transactions).toEqual([tx.hash]);
    expect(block.miner).toBe(BLACKHOLE);
    expect(block.gasUsed).toBe(21_000n);
    expect(block.gasLimit).toBe(10_000_000n);
    const baseFee = block.baseFeePerGas!;
    expect(baseFee).toBe(1n);
    const effective = tx.maxFeePerGas! < baseFee + tx.maxPriorityFeePerGas! ? tx.maxFeePerGas! : baseFee + tx.maxPriorityFeePerGas!;
    expect(receipt.gasPrice).toBe(effective);
    const fee = 21_000n * effective;

    const before = receipt.blockNumber - 1;
    expect(await provider.getBalance(to, before)).toBe(0n);
    expect(await provider.getBalance(to, receipt.blockNumber)).toBe(value);
    expect((await provider.getBalance(EWOQ, before)) - (await provider.getBalance(EWOQ, receipt.blockNumber))).toBe(value + fee);
    // coreth burns nothing: the whole fee is credited to the coinbase.
    expect((await provider.getBalance(BLACKHOLE, receipt.blockNumber)) - (await provider.getBalance(BLACKHOLE, before))).toBe(fee);
  });

  it('a legacy (type 0) EIP-155 transfer: v = 43112 × 2 + 35/36, effective price = gasPrice', async () => {
    const gasPrice = 25_000_000_000n;
    const value = parseEther('100');
    const to = Wallet.createRandom().address;
    const tx = await alice.sendTransaction({ type: 0, to, value, gasPrice });
    expect(tx.type).toBe(0);
    expect(tx.chainId).toBe(CHAIN_ID);
    expect(tx.gasPrice).toBe(gasPrice);
    const receipt = await mined(tx);
    expect(receipt.status).toBe(1);
    expect(receipt.type).toBe(0);
    expect(receipt.gasPrice).toBe(gasPrice);
    expect(receipt.from).toBe(await alice.getAddress());

    const raw = await provider.send('eth_getTransactionByHash', [tx.hash]);
    expect(raw).toMatchObject({ type: '0x0', chainId: '0xa868', gasPrice: q(gasPrice), value: q(value), to: to.toLowerCase() });
    expect(['0x150f3', '0x150f4']).toContain(raw.v);
    expect(raw.maxFeePerGas).toBeUndefined();
    const rebuilt = Transaction.from({
      type: 0,
      chainId: CHAIN_ID,
      nonce: tx.nonce,
      gasPrice,
      gasLimit: tx.gasLimit,
      to,
      value,
      data: '0x',
      signature: { r: raw.r, s: raw.s, v: BigInt(raw.v) },
    });
    expect(rebuilt.hash).toBe(tx.hash);
    expect(rebuilt.from).toBe(await alice.getAddress());
    const fetched = (await provider.getTransaction(tx.hash))!;
    expect(fetched.blockNumber).toBe(receipt.blockNumber);
    expect(fetched.from).toBe(await alice.getAddress());
    expect(await provider.getBalance(to, receipt.blockNumber)).toBe(value);
    const aliceAddress = await alice.getAddress();
    const spent = (await provider.getBalance(aliceAddress, receipt.blockNumber - 1)) - (await provider.getBalance(aliceAddress, receipt.blockNumber));
    expect(spent).toBe(value + 21_000n * gasPrice);
  });

  it('two transactions sent back to back through a NonceManager get consecutive nonces and both land', async () => {
    const to = Wallet.createRandom().address;
    const first = await ewoq.sendTransaction({ to, value: 1n });
    const second = await ewoq.sendTransaction({ to, value: 2n });
    expect(second.nonce).toBe(first.nonce + 1);
    const [r1, r2] = await Promise.all([mined(first), mined(second)]);
    expect(r1.status).toBe(1);
    expect(r2.status).toBe(1);
    expect(r2.blockNumber).toBeGreaterThanOrEqual(r1.blockNumber);
    expect(await provider.getBalance(to, r2.blockNumber)).toBe(3n);
    expect(await provider.getTransactionCount(EWOQ, r2.blockNumber)).toBe(second.nonce + 1);
  });

  it('an unknown transaction hash has no transaction and no receipt', async () => {
    const unknown = id('no such transaction');
    expect(await provider.getTransaction(unknown)).toBeNull();
    expect(await provider.getTransactionReceipt(unknown)).toBeNull();
  });
});

describe('ERC-20', () => {
  let token: Contract;
  let tokenAddress: string;
  let deployBlock: number;
  const transfers: TransactionReceipt[] = [];

  beforeAll(async () => {
    const { abi: tokenAbi, bytecode } = fixture('TestToken');
    const nonce = await ewoq.getNonce('pending');
    const deployed = await new ContractFactory(tokenAbi, bytecode, ewoq).deploy('Test Token', 'TT', SUPPLY);
    const receipt = await mined(deployed.deploymentTransaction()!);
    tokenAddress = await deployed.getAddress();
    expect(receipt.contractAddress).toBe(tokenAddress);
    expect(tokenAddress).toBe(getCreateAddress({ from: EWOQ, nonce }));
    deployBlock = receipt.blockNumber;
    token = new Contract(tokenAddress, tokenAbi, ewoq);
  });

  it('is deployed: runtime code, metadata and the minted supply, with the mint Transfer in the deploy receipt', async () => {
    expect(await provider.getCode(tokenAddress)).toBe(fixture('TestToken').deployedBytecode);
    expect(await provider.getCode(tokenAddress, deployBlock - 1)).toBe('0x');
    expect(await token.name()).toBe('Test Token');
    expect(await token.symbol()).toBe('TT');
    expect(await token.decimals()).toBe(18n);
    expect(await token.totalSupply()).toBe(SUPPLY);
    expect(await token.balanceOf(EWOQ)).toBe(SUPPLY);
    const logs = await provider.getLogs({ address: tokenAddress, fromBlock: deployBlock, toBlock: deployBlock });
    expect(logs).toHaveLength(1);
    expect(logs[0]!.topics).toEqual([TRANSFER_TOPIC, topicOf('0x0000000000000000000000000000000000000000'), topicOf(EWOQ)]);
    expect(BigInt(logs[0]!.data)).toBe(SUPPLY);
  });

  it('transfer moves balances and emits Transfer(from, to, value)', async () => {
    const to = await alice.getAddress();
    const receipt = await mined(token.transfer(to, 250n));
    transfers.push(receipt);
    expect(receipt.status).toBe(1);
    expect(receipt.logs).toHaveLength(1);
    const log = receipt.logs[0]!;
    expect(log.address).toBe(tokenAddress);
    expect(log.topics).toEqual([TRANSFER_TOPIC, topicOf(EWOQ), topicOf(to)]);
    expect(log.data).toBe(toBeHex(250n, 32));
    expect(log.blockNumber).toBe(receipt.blockNumber);
    expect(log.transactionHash).toBe(receipt.hash);
    expect(log.index).toBe(0);
    const parsed = token.interface.parseLog(log)!;
    expect(parsed.name).toBe('Transfer');
    expect(parsed.args.toArray()).toEqual([EWOQ, to, 250n]);
    expect(await token.balanceOf(to, { blockTag: receipt.blockNumber })).toBe(250n);
    expect(await token.balanceOf(EWOQ, { blockTag: receipt.blockNumber })).toBe(SUPPLY - 250n);
    expect(await token.balanceOf(to, { blockTag: receipt.blockNumber - 1 })).toBe(0n);
  });

  it('approve + transferFrom: Approval, then Transfer, allowance spent', async () => {
    const spender = await alice.getAddress();
    const to = await bob.getAddress();
    const approved = await mined(token.approve(spender, 100n));
    expect(approved.logs[0]!.topics).toEqual([APPROVAL_TOPIC, topicOf(EWOQ), topicOf(spender)]);
    expect(await token.allowance(EWOQ, spender, { blockTag: approved.blockNumber })).toBe(100n);
    const moved = await mined((token.connect(alice) as Contract).transferFrom(EWOQ, to, 60n));
    transfers.push(moved);
    expect(moved.from).toBe(spender);
    const parsed = token.interface.parseLog(moved.logs[0]!)!;
    expect(parsed.args.toArray()).toEqual([EWOQ, to, 60n]);
    expect(await token.allowance(EWOQ, spender, { blockTag: moved.blockNumber })).toBe(40n);
    expect(await token.balanceOf(to, { blockTag: moved.blockNumber })).toBe(60n);
  });

  it('getLogs by address, by topic and over block ranges', async () => {
    const [toAlice, toBob] = transfers as [TransactionReceipt, TransactionReceipt];
    const all = await provider.getLogs({ address: tokenAddress, fromBlock: deployBlock, toBlock: toBob.blockNumber });
    expect(all.map((l) => l.topics[0])).toEqual([TRANSFER_TOPIC, TRANSFER_TOPIC, APPROVAL_TOPIC, TRANSFER_TOPIC]);
    const blocks = all.map((l) => l.blockNumber);
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));

    const fromEwoq = await provider.getLogs({ address: tokenAddress, topics: [TRANSFER_TOPIC, topicOf(EWOQ)], fromBlock: deployBlock });
    expect(fromEwoq.map((l) => BigInt(l.data))).toEqual([250n, 60n]);
    const toBobOnly = await provider.getLogs({ topics: [TRANSFER_TOPIC, null, topicOf(await bob.getAddress())], fromBlock: deployBlock });
    expect(toBobOnly).toHaveLength(1);
    expect(toBobOnly[0]!.transactionHash).toBe(toBob.hash);
    const eitherRecipient = await provider.getLogs({
      address: tokenAddress,
      topics: [TRANSFER_TOPIC, null, [topicOf(await alice.getAddress()), topicOf(await bob.getAddress())]],
      fromBlock: deployBlock,
    });
    expect(eitherRecipient.map((l) => l.transactionHash)).toEqual([toAlice.hash, toBob.hash]);

    expect(await provider.getLogs({ address: tokenAddress, fromBlock: 0, toBlock: deployBlock - 1 })).toEqual([]);
    const one = await provider.getLogs({ address: tokenAddress, fromBlock: toAlice.blockNumber, toBlock: toAlice.blockNumber });
    expect(one.map((l) => l.transactionHash)).toEqual([toAlice.hash]);
    const byHash = await provider.getLogs({ blockHash: toAlice.blockHash });
    expect(byHash.map((l) => l.transactionHash)).toEqual([toAlice.hash]);
    expect(await provider.getLogs({ address: Wallet.createRandom().address, fromBlock: 0 })).toEqual([]);

    const queried = await token.queryFilter(token.filters.Transfer!(EWOQ, await alice.getAddress()), deployBlock);
    expect(queried).toHaveLength(1);
    expect((queried[0] as any).args.toArray()).toEqual([EWOQ, await alice.getAddress(), 250n]);
  });

  it('eth_call reverts with code 3, "execution reverted: <reason>" and the Error(string) bytes', async () => {
    const poor = Wallet.createRandom().address;
    const data = token.interface.encodeFunctionData('transfer', [EWOQ, 1n]);
    const err = await rejection(provider.call({ to: tokenAddress, from: poor, data }));
    expect(err.code).toBe('CALL_EXCEPTION');
    expect(err.reason).toBe('ERC20: insufficient balance');
    expect(err.data).toBe(errorString('ERC20: insufficient balance'));
    expect(err.info.payload.method).toBe('eth_call');
    expect(err.info.error).toEqual({ code: 3, message: 'execution reverted: ERC20: insufficient balance', data: errorString('ERC20: insufficient balance') });

    const viaContract = await rejection((token.connect(new Wallet(Wallet.createRandom().privateKey, provider)) as Contract).transfer.staticCall(EWOQ, 1n));
    expect(viaContract.code).toBe('CALL_EXCEPTION');
    expect(viaContract.reason).toBe('ERC20: insufficient balance');
    expect(viaContract.revert).toEqual({ name: 'Error', signature: 'Error(string)', args: ['ERC20: insufficient balance'] });
  });

  it('eth_estimateGas reverts the same way', async () => {
    const poor = Wallet.createRandom().address;
    const data = token.interface.encodeFunctionData('transfer', [EWOQ, 1n]);
    const err = await rejection(provider.estimateGas({ to: tokenAddress, from: poor, data }));
    expect(err.code).toBe('CALL_EXCEPTION');
    expect(err.reason).toBe('ERC20: insufficient balance');
    expect(err.info.payload.method).toBe('eth_estimateGas');
    expect(err.info.error).toEqual({ code: 3, message: 'execution reverted: ERC20: insufficient balance', data: errorString('ERC20: insufficient balance') });

    const ok = await token.transfer.estimateGas(await alice.getAddress(), 1n);
    expect(ok).toBeGreaterThan(21_000n);
    expect(ok).toBeLessThan(100_000n);
  });

  it('a reverting transaction sent with a fixed gas limit is mined with status 0', async () => {
    const poorToken = token.connect(bob) as Contract;
    const tx: TransactionResponse = await poorToken.transfer(EWOQ, 10n ** 30n, { gasLimit: 100_000n });
    const err = await rejection(tx.wait());
    expect(err.code).toBe('CALL_EXCEPTION');
    const receipt: TransactionReceipt = err.receipt;
    expect(receipt.status).toBe(0);
    expect(receipt.hash).toBe(tx.hash);
    expect(receipt.logs).toEqual([]);
    expect(receipt.gasUsed).toBeGreaterThan(21_000n);
    expect(receipt.gasUsed).toBeLessThan(100_000n);
    expect(await token.balanceOf(await bob.getAddress(), { blockTag: receipt.blockNumber })).toBe(60n);
  });
});

describe('ERC-721', () => {
  let nft: Contract;
  let nftAddress: string;

  beforeAll(async () => {
    const { abi: nftAbi, bytecode } = fixture('TestNFT');
    const deployed = await new ContractFactory(nftAbi, bytecode, ewoq).deploy('Test NFT', 'TNFT');
    await mined(deployed.deploymentTransaction()!);
    nftAddress = await deployed.getAddress();
    nft = new Contract(nftAddress, nftAbi, ewoq);
  });

  it('mints: ownerOf, balanceOf and Transfer(0, to, tokenId) with the token ID as third topic', async () => {
    const aliceAddress = await alice.getAddress();
    const r1 = await mined(nft.mint(EWOQ, 1n));
    const r2 = await mined(nft.mint(aliceAddress, 2n));
    expect(r1.logs[0]!.topics).toEqual([TRANSFER_TOPIC, topicOf('0x0000000000000000000000000000000000000000'), topicOf(EWOQ), toBeHex(1n, 32)]);
    expect(r1.logs[0]!.data).toBe('0x');
    expect(r2.logs[0]!.topics[3]).toBe(toBeHex(2n, 32));
    expect(await nft.ownerOf(1n, { blockTag: r2.blockNumber })).toBe(EWOQ);
    expect(await nft.ownerOf(2n, { blockTag: r2.blockNumber })).toBe(aliceAddress);
    expect(await nft.balanceOf(EWOQ, { blockTag: r2.blockNumber })).toBe(1n);
    expect(await nft.name()).toBe('Test NFT');
    expect(await nft.supportsInterface('0x80ac58cd')).toBe(true);
    expect(await nft.supportsInterface('0xffffffff')).toBe(false);
  });

  it('transferFrom moves the token; ownerOf of an unminted token reverts with its reason', async () => {
    const to = await bob.getAddress();
    const receipt = await mined(nft.transferFrom(EWOQ, to, 1n));
    const parsed = nft.interface.parseLog(receipt.logs[0]!)!;
    expect(parsed.name).toBe('Transfer');
    expect(parsed.args.toArray()).toEqual([EWOQ, to, 1n]);
    expect(await nft.ownerOf(1n, { blockTag: receipt.blockNumber })).toBe(to);
    expect(await nft.balanceOf(EWOQ, { blockTag: receipt.blockNumber })).toBe(0n);
    const byToken = await provider.getLogs({ address: nftAddress, topics: [TRANSFER_TOPIC, null, null, toBeHex(1n, 32)], fromBlock: 0 });
    expect(byToken.map((l) => nft.interface.parseLog(l)!.args.toArray())).toEqual([
      ['0x0000000000000000000000000000000000000000', EWOQ, 1n],
      [EWOQ, to, 1n],
    ]);

    const missing = await rejection(nft.ownerOf(99n));
    expect(missing.code).toBe('CALL_EXCEPTION');
    expect(missing.reason).toBe('ERC721: invalid token ID');
    const notOwner = await rejection((nft.connect(alice) as Contract).transferFrom.staticCall(EWOQ, to, 2n));
    expect(notOwner.reason).toBe('ERC721: transfer from incorrect owner');
  });
});

describe('custom errors, empty reverts and coreth block values (Probe)', () => {
  let probe: Contract;
  let probeAddress: string;

  beforeAll(async () => {
    const { abi: probeAbi, bytecode } = fixture('Probe');
    const deployed = await new ContractFactory(probeAbi, bytecode, ewoq).deploy();
    await mined(deployed.deploymentTransaction()!);
    probeAddress = await deployed.getAddress();
    probe = new Contract(probeAddress, probeAbi, ewoq);
  });

  it('a view function answers through eth_call', async () => {
    expect(await probe.add(40n, 2n)).toBe(42n);
    expect(await probe.stored()).toBe(0n);
  });

  it('a custom error: code 3, bare "execution reverted", data = selector and arguments; ethers decodes it', async () => {
    const iface = probe.interface;
    const expected = iface.encodeErrorResult('Unauthorized', [EWOQ, 7n]);
    const raw = await rejection(provider.call({ to: probeAddress, from: EWOQ, data: iface.encodeFunctionData('failCustom', [7n]) }));
    expect(raw.info.error).toEqual({ code: 3, message: 'execution reverted', data: expected });
    expect(raw.data).toBe(expected);

    const decoded = await rejection(probe.failCustom.staticCall(7n, { from: EWOQ }));
    expect(decoded.code).toBe('CALL_EXCEPTION');
    expect(decoded.revert.name).toBe('Unauthorized');
    expect(decoded.revert.args.toArray()).toEqual([EWOQ, 7n]);

    const estimated = await rejection(provider.estimateGas({ to: probeAddress, from: EWOQ, data: iface.encodeFunctionData('failCustom', [7n]) }));
    expect(estimated.info.error).toEqual({ code: 3, message: 'execution reverted', data: expected });
  });

  it('an empty revert(): code -32000 "execution reverted" without data, from eth_call and eth_estimateGas', async () => {
    const data = probe.interface.encodeFunctionData('failEmpty');
    const call = await rejection(provider.call({ to: probeAddress, data }));
    expect(call.code).toBe('CALL_EXCEPTION');
    expect(call.data).toBeNull();
    expect(call.info.error).toEqual({ code: -32000, message: 'execution reverted' });
    const estimate = await rejection(provider.estimateGas({ to: probeAddress, data }));
    expect(estimate.code).toBe('CALL_EXCEPTION');
    expect(estimate.info.error).toEqual({ code: -32000, message: 'execution reverted' });
    const viaContract = await rejection(probe.failEmpty.staticCall());
    expect(viaContract.code).toBe('CALL_EXCEPTION');
    expect(viaContract.revert).toBeNull();
  });

  it('Error(string) and Panic(uint256) reverts: the node names both, ethers decodes both', async () => {
    const reason = await rejection(probe.failReason.staticCall());
    expect(reason.reason).toBe('Probe: reason');
    const raw = await rejection(provider.call({ to: probeAddress, data: probe.interface.encodeFunctionData('failReason') }));
    expect(raw.info.error).toEqual({ code: 3, message: 'execution reverted: Probe: reason', data: errorString('Probe: reason') });
    const panic = await rejection(probe.failPanic.staticCall(0n));
    expect(panic.revert).toEqual({ name: 'Panic', signature: 'Panic(uint256)', args: [0x12] });
    const panicData = `0x4e487b71${toBeHex(0x12n, 32).slice(2)}`;
    expect(panic.data).toBe(panicData);
    // libevm's abi.UnpackRevert names Panic codes too.
    const rawPanic = await rejection(provider.call({ to: probeAddress, data: probe.interface.encodeFunctionData('failPanic', [0n]) }));
    expect(rawPanic.info.error).toEqual({ code: 3, message: 'execution reverted: division or modulo by zero', data: panicData });
  });

  it('in a built block PREVRANDAO is 1, COINBASE the blackhole, BASEFEE the header base fee, CHAINID 43112', async () => {
    const receipt = await mined(probe.recordBlockValues());
    const block = (await provider.getBlock(receipt.blockNumber))!;
    const parsed = probe.interface.parseLog(receipt.logs[0]!)!;
    expect(parsed.name).toBe('BlockValues');
    expect(parsed.args.toArray()).toEqual([1n, BLACKHOLE, block.baseFeePerGas, BigInt(receipt.blockNumber), CHAIN_ID]);
    expect(block.baseFeePerGas).toBe(1n);
    // ethers reports the header's mixHash as prevRandao: coreth keeps it zero and puts the 1 in difficulty.
    expect(block.difficulty).toBe(1n);
    expect(block.prevRandao).toBe(`0x${'0'.repeat(64)}`);
  });

  it('eth_call at a built block sees PREVRANDAO 1, the blackhole COINBASE, CHAINID 43112 and (no gas price given) BASEFEE 0', async () => {
    const latest = (await provider.getBlock('latest')) as Block;
    expect(latest.number).toBeGreaterThan(0);
    const [prevrandao, coinbase, basefee, number, chainId] = await probe.blockValues({ blockTag: latest.number });
    expect(prevrandao).toBe(1n);
    expect(coinbase).toBe(BLACKHOLE);
    // geth's NoBaseFee rule for eth_call: without a gas price the EVM sees a base fee of 0.
    expect(basefee).toBe(0n);
    expect(number).toBe(BigInt(latest.number));
    expect(chainId).toBe(CHAIN_ID);
  });
});

describe('fees', () => {
  it('base fee: 225 gwei at genesis, 1 wei (ACP-176 floor) in the blocks built since; gas limit 10M', async () => {
    const latest = (await provider.getBlock('latest'))!;
    expect(latest.number).toBeGreaterThan(0);
    expect(latest.baseFeePerGas).toBe(1n);
    expect(latest.gasLimit).toBe(10_000_000n);
    expect((await provider.getBlock(1))!.baseFeePerGas).toBe(1n);
    expect((await provider.getBlock(0))!.baseFeePerGas).toBe(GENESIS_BASE_FEE);
  });

  it("eth_feeHistory of genesis is coreth's: one base fee entry (not n + 1), zero reward", async () => {
    expect(await provider.send('eth_feeHistory', ['0x1', '0x0', [50]])).toEqual({
      oldestBlock: '0x0',
      reward: [['0x0']],
      baseFeePerGas: ['0x34630b8a00'],
      gasUsedRatio: [0],
    });
  });

  it('eth_feeHistory over a block with one known transaction: ratio, base fee and the tip as reward', async () => {
    const gasPrice = 3_000_000_000n;
    const receipt = await mined(ewoq.sendTransaction({ type: 0, to: Wallet.createRandom().address, value: 1n, gasPrice }));
    const block = (await provider.getBlock(receipt.blockNumber))!;
    const tip = gasPrice - block.baseFeePerGas!;
    const history = await provider.send('eth_feeHistory', ['0x1', q(receipt.blockNumber), [10, 90]]);
    expect(history).toEqual({
      oldestBlock: q(receipt.blockNumber),
      reward: [[q(tip), q(tip)]],
      baseFeePerGas: [q(block.baseFeePerGas!)],
      gasUsedRatio: [21_000 / 10_000_000],
    });
    const three = await provider.send('eth_feeHistory', ['0x3', q(receipt.blockNumber), []]);
    expect(three.oldestBlock).toBe(q(receipt.blockNumber - 2));
    expect(three.baseFeePerGas).toEqual(['0x1', '0x1', '0x1']);
    expect(three.gasUsedRatio).toHaveLength(3);
    expect(three.gasUsedRatio[2]).toBe(21_000 / 10_000_000);
    expect(three.reward).toBeUndefined();
    // provider.getBlockNumber() may answer from ethers' 250 ms cache; send() does not cache.
    const head = Number(await provider.send('eth_blockNumber', []));
    expect((await provider.send('eth_feeHistory', ['0x2', 'latest', [50]])).oldestBlock).toBe(q(head - 1));
  });

  it('getFeeData: gasPrice and maxPriorityFeePerGas from the node, maxFee = 2 × latest base fee + tip', async () => {
    const head = (await provider.getBlock('latest'))!;
    const fees = await provider.getFeeData();
    const tip = BigInt(await provider.send('eth_maxPriorityFeePerGas', []));
    expect(tip).toBeGreaterThanOrEqual(1n);
    expect(fees.maxPriorityFeePerGas).toBe(tip);
    expect(fees.maxFeePerGas).toBe(2n * head.baseFeePerGas! + tip);
    expect(fees.gasPrice).toBe(BigInt(await provider.send('eth_gasPrice', [])));
    expect(fees.gasPrice).toBeGreaterThanOrEqual(2n);
    expect(await provider.send('eth_baseFee', [])).toBe('0x1');
  });
});

describe('receipts', () => {
  it('waitForTransaction(hash, 2) resolves once a second block is built on top of the transaction', async () => {
    const to = Wallet.createRandom().address;
    const tx = await ewoq.sendTransaction({ to, value: 5n });
    let settled = false;
    const waiting = provider.waitForTransaction(tx.hash, 2, 20_000).finally(() => {
      settled = true;
    });
    // Build blocks on top until ethers has seen the second confirmation (it learns of new blocks by polling).
    const pumped: TransactionReceipt[] = [];
    while (!settled && pumped.length < 20) {
      pumped.push(await mined(ewoq.sendTransaction({ to, value: 1n })));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const receipt = (await waiting)!;
    expect(receipt.hash).toBe(tx.hash);
    expect(receipt.status).toBe(1);
    expect(receipt.index).toBe(0);
    expect(pumped.length).toBeGreaterThanOrEqual(1);
    expect(pumped[0]!.blockNumber).toBe(receipt.blockNumber + 1);
    expect(await receipt.confirmations()).toBeGreaterThanOrEqual(2);
    const block = (await provider.getBlock(receipt.blockHash))!;
    expect(block.number).toBe(receipt.blockNumber);
    expect(block.transactions).toEqual([tx.hash]);
    expect(block.parentHash).toBe((await provider.getBlock(receipt.blockNumber - 1))!.hash);
    const fetched = (await provider.getTransaction(tx.hash))!;
    expect(fetched.blockHash).toBe(receipt.blockHash);
    expect(fetched.index).toBe(0);
    expect(fetched.nonce).toBe(tx.nonce);
    expect(await provider.getTransactionReceipt(tx.hash)).toMatchObject({ hash: tx.hash, blockNumber: receipt.blockNumber, gasUsed: 21_000n });
    expect(await provider.getBalance(to, pumped.at(-1)!.blockNumber)).toBe(5n + BigInt(pumped.length));
  });
});

describe('polled filters', () => {
  let token: Contract;
  let tokenAddress: string;
  let deployBlock: number;

  beforeAll(async () => {
    const { abi: tokenAbi, bytecode } = fixture('TestToken');
    const deployed = await new ContractFactory(tokenAbi, bytecode, ewoq).deploy('Filter Token', 'FT', SUPPLY);
    deployBlock = (await mined(deployed.deploymentTransaction()!)).blockNumber;
    tokenAddress = await deployed.getAddress();
    token = new Contract(tokenAddress, tokenAbi, ewoq);
  });

  it('eth_newFilter + eth_getFilterChanges: new matching logs once, then nothing; eth_getFilterLogs: all of them', async () => {
    const filterId: string = await provider.send('eth_newFilter', [{ address: tokenAddress, topics: [TRANSFER_TOPIC], fromBlock: q(deployBlock) }]);
    expect(filterId).toMatch(/^0x[0-9a-f]+$/);
    expect(await provider.send('eth_getFilterChanges', [filterId])).toEqual([]);
    const to = Wallet.createRandom().address;
    const receipt = await mined(token.transfer(to, 77n));
    const changes = await provider.send('eth_getFilterChanges', [filterId]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      address: tokenAddress.toLowerCase(),
      topics: [TRANSFER_TOPIC, topicOf(EWOQ), topicOf(to)],
      data: toBeHex(77n, 32),
      blockNumber: q(receipt.blockNumber),
      blockHash: receipt.blockHash,
      transactionHash: receipt.hash,
      transactionIndex: '0x0',
      logIndex: '0x0',
      removed: false,
    });
    expect(await provider.send('eth_getFilterChanges', [filterId])).toEqual([]);
    const logs = await provider.send('eth_getFilterLogs', [filterId]);
    expect(logs.map((l: any) => BigInt(l.data))).toEqual([SUPPLY, 77n]);
    expect(await provider.send('eth_uninstallFilter', [filterId])).toBe(true);
    expect(await provider.send('eth_uninstallFilter', [filterId])).toBe(false);
    const gone = await rejection(provider.send('eth_getFilterChanges', [filterId]));
    expect(gone.error).toEqual({ code: -32000, message: 'filter not found' });
  });

  it('eth_newBlockFilter reports the hash of each new block', async () => {
    const filterId: string = await provider.send('eth_newBlockFilter', []);
    expect(await provider.send('eth_getFilterChanges', [filterId])).toEqual([]);
    const receipt = await mined(ewoq.sendTransaction({ to: Wallet.createRandom().address, value: 1n }));
    expect(await provider.send('eth_getFilterChanges', [filterId])).toEqual([receipt.blockHash]);
    expect(await provider.send('eth_getFilterChanges', [filterId])).toEqual([]);
    expect(await provider.send('eth_uninstallFilter', [filterId])).toBe(true);
  });

  it('contract.on over HTTP (ethers installs an eth_newFilter and polls it) delivers a Transfer', async () => {
    const to = Wallet.createRandom().address;
    const { listener, next } = firstEvent<any[]>();
    const installed = await answered(provider, 'eth_newFilter');
    await token.on(token.filters.Transfer!(null, to), listener);
    const filter = await installed();
    expect(filter.result).toMatch(/^0x[0-9a-f]+$/);
    const receipt = await mined(token.transfer(to, 5n));
    const payload = (await next()).at(-1) as ContractEventPayload;
    expect(payload.args.toArray()).toEqual([EWOQ, to, 5n]);
    expect(payload.log.transactionHash).toBe(receipt.hash);
    expect(payload.log.blockNumber).toBe(receipt.blockNumber);
    const uninstalled = await answered(provider, 'eth_uninstallFilter');
    await token.removeAllListeners();
    expect((await uninstalled()).result).toBe(true);
  });
});

describe('websocket subscriptions (/ext/bc/C/ws)', () => {
  let ws: WebSocketProvider;

  beforeAll(async () => {
    ws = await openWebSocket(wsUrl);
  });

  afterAll(async () => {
    await ws?.destroy();
  });

  it('answers plain calls: chain ID and the genesis block', async () => {
    expect((await ws.getNetwork()).chainId).toBe(CHAIN_ID);
    expect(await ws.send('net_version', [])).toBe('43112');
    expect((await ws.getBlock(0))!.hash).toBe(GENESIS_HASH);
  });

  it('newHeads: the "block" event fires with the number of the block that mined a transaction', async () => {
    const { listener, next } = firstEvent<[number]>();
    const installed = await answered(ws, 'eth_subscribe');
    await ws.on('block', listener);
    expect((await installed()).result).toMatch(/^0x[0-9a-f]+$/);
    const receipt = await mined(ewoq.sendTransaction({ to: Wallet.createRandom().address, value: 1n }));
    const [blockNumber] = await next();
    expect(blockNumber).toBe(receipt.blockNumber);
    const unsubscribed = await answered(ws, 'eth_unsubscribe');
    await ws.off('block', listener);
    expect((await unsubscribed()).result).toBe(true);
  });

  it('logs: a Transfer subscription on a contract delivers the event with its log', async () => {
    const { abi: tokenAbi, bytecode } = fixture('TestToken');
    const deployed = await new ContractFactory(tokenAbi, bytecode, ewoq).deploy('Socket Token', 'ST', SUPPLY);
    await mined(deployed.deploymentTransaction()!);
    const address = await deployed.getAddress();
    const wsToken = new Contract(address, tokenAbi, ws);
    const to = Wallet.createRandom().address;
    const { listener, next } = firstEvent<any[]>();
    const installed = await answered(ws, 'eth_subscribe');
    await wsToken.on(wsToken.filters.Transfer!(EWOQ, to), listener);
    expect((await installed()).result).toMatch(/^0x[0-9a-f]+$/);
    const receipt = await mined((new Contract(address, tokenAbi, ewoq) as Contract).transfer(to, 9n));
    const payload = (await next()).at(-1) as ContractEventPayload;
    expect(payload.args.toArray()).toEqual([EWOQ, to, 9n]);
    const log: Log = payload.log;
    expect(log.address).toBe(address);
    expect(log.transactionHash).toBe(receipt.hash);
    expect(log.blockHash).toBe(receipt.blockHash);
    expect(log.blockNumber).toBe(receipt.blockNumber);
    expect(log.topics).toEqual([TRANSFER_TOPIC, topicOf(EWOQ), topicOf(to)]);
    const unsubscribed = await answered(ws, 'eth_unsubscribe');
    await wsToken.removeAllListeners();
    expect((await unsubscribed()).result).toBe(true);
  });
});

describe('debug_traceTransaction', () => {
  it('is not served without --dev: the method does not exist (-32601)', async () => {
    const err = await rejection(provider.send('debug_traceTransaction', [id('x'), { tracer: 'callTracer' }]));
    expect(err.code).toBe('UNSUPPORTED_OPERATION');
    expect(err.info.error).toEqual({ code: -32601, message: 'the method debug_traceTransaction does not exist/is not available' });
  });

  describe('on a node started with dev', () => {
    let devNode: TestNode;
    let dev: JsonRpcProvider;
    let devEwoq: NonceManager;

    beforeAll(async () => {
      devNode = await startTestNode({ dbType: 'memdb', dev: true });
      dev = new JsonRpcProvider(`${devNode.uri}/ext/bc/C/rpc`, undefined, { pollingInterval: 50 });
      devEwoq = new NonceManager(new Wallet(EWOQ_KEY, dev));
    });

    afterAll(async () => {
      dev?.destroy();
      await devNode?.stop();
    });

    it('callTracer: the top call and the nested CALL, with gas used equal to the receipt (no refunds)', async () => {
      const { abi: probeAbi, bytecode } = fixture('Probe');
      const factory = new ContractFactory(probeAbi, bytecode, devEwoq);
      const outer = await factory.deploy();
      await mined(outer.deploymentTransaction()!);
      const inner = await factory.deploy();
      await mined(inner.deploymentTransaction()!);
      const outerAddress = (await outer.getAddress()).toLowerCase();
      const innerAddress = (await inner.getAddress()).toLowerCase();
      const iface = new Interface(probeAbi);
      const tx: TransactionResponse = await (outer as Contract).storeVia(innerAddress, 42n);
      const receipt = await mined(tx);

      const trace = await dev.send('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]);
      expect(trace).toMatchObject({
        type: 'CALL',
        from: EWOQ.toLowerCase(),
        to: outerAddress,
        value: '0x0',
        gas: q(tx.gasLimit),
        gasUsed: q(receipt.gasUsed),
        input: iface.encodeFunctionData('storeVia', [innerAddress, 42n]),
      });
      expect(trace.error).toBeUndefined();
      expect(trace.calls).toHaveLength(1);
      expect(trace.calls[0]).toMatchObject({
        type: 'CALL',
        from: outerAddress,
        to: innerAddress,
        value: '0x0',
        input: iface.encodeFunctionData('store', [42n]),
      });
      expect(BigInt(trace.calls[0].gasUsed)).toBeGreaterThan(20_000n);
      expect(trace.calls[0].calls).toBeUndefined();
      expect(await (inner as Contract).stored({ blockTag: receipt.blockNumber })).toBe(42n);
    });

    it('callTracer of a reverted transaction: error and revertReason', async () => {
      const { abi: tokenAbi, bytecode } = fixture('TestToken');
      const deployed = await new ContractFactory(tokenAbi, bytecode, devEwoq).deploy('Trace Token', 'TR', 0n);
      await mined(deployed.deploymentTransaction()!);
      const tx: TransactionResponse = await (deployed as Contract).transfer(EWOQ, 1n, { gasLimit: 80_000n });
      const err = await rejection(tx.wait());
      expect(err.receipt.status).toBe(0);
      const trace = await dev.send('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]);
      expect(trace).toMatchObject({
        type: 'CALL',
        from: EWOQ.toLowerCase(),
        to: (await deployed.getAddress()).toLowerCase(),
        gas: q(80_000n),
        gasUsed: q(err.receipt.gasUsed),
        output: errorString('ERC20: insufficient balance'),
        error: 'execution reverted',
        revertReason: 'ERC20: insufficient balance',
      });
    });
  });
});
