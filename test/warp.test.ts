// Sending warp messages: the bytes held to avalanchejs's warp types; sendWarpMessage on an L1 and on
// the C-Chain through viem (the SendWarpMessage log, the message ID, getBlockchainID); and the warp
// API with warp-api-enabled: the stored message, the node's BLS signature (local staker 1's key),
// aggregate signatures of the L1's validator (the node) and of the primary network (the five local
// stakers), each verified with @noble/curves against the stakers' public keys.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as avalanchejs from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseAbi,
  toEventSelector,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCB58, encodeCB58 } from '../src/encoding/cb58.js';
import { publicKeyOf, sign, verifyAggregate } from '../src/vms/components/warp/bls.js';
import { addressedCall, unsignedMessage } from '../src/vms/components/warp/message.js';
import { bitset } from '../src/vms/components/warp/signature.js';
import { LOCAL_SIGNERS } from '../src/vms/components/warp/signers.js';
import { predicateChunks } from './support/known.js';
import WebSocket from 'ws';
import { call, post, rpc, type SpawnedNode, spawnNode, startTestNode, tempDir, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

// avalanchejs's .d.ts files do not resolve under NodeNext (see test/support/avalanchejs.ts): its warp types, described.
interface Serializable {
  toBytes(codec: unknown): Uint8Array;
}
type Ctor<A extends unknown[]> = new (...args: A) => unknown;
const ajs = avalanchejs as unknown as {
  Address: Ctor<[Uint8Array]>;
  Bytes: Ctor<[Uint8Array]>;
  Id: Ctor<[Uint8Array]>;
  Int: Ctor<[number]>;
  pvmSerial: {
    warp: {
      codec: unknown;
      AddressedCallPayloads: { AddressedCall: new (source: unknown, payload: unknown) => Serializable };
      WarpUnsignedMessage: new (networkId: unknown, chain: unknown, payload: unknown) => Serializable;
    };
  };
};

const PRIMARY_NETWORK = '11111111111111111111111111111111LpoYY';
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const WARP: Hex = '0x0200000000000000000000000000000000000005';
const LOCAL_NODE_KEY = '900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d';
const warpAbi = parseAbi([
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getBlockchainID() view returns (bytes32 blockchainID)',
]);
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ''), 'hex'));

/** viem clients for an EVM chain of the node, as ewoq. */
function clientsOf(url: string, id: number) {
  const chain = defineChain({ id, name: String(id), nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  return {
    chain,
    client: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
    wallet: createWalletClient({ chain, transport: http(url), account: ewoq }),
  };
}

describe('warp message bytes', () => {
  it("match avalanchejs's warp types (with the codec versions avalanchejs leaves to its caller)", () => {
    const source = new Uint8Array(20).fill(0x11);
    const payload = Uint8Array.of(1, 2, 3);
    const chain = new Uint8Array(32).fill(7);
    const { warp } = ajs.pvmSerial;
    const call = new warp.AddressedCallPayloads.AddressedCall(new ajs.Address(source), new ajs.Bytes(payload)).toBytes(warp.codec);
    expect(hexOf(addressedCall(source, payload))).toBe(`0000${hexOf(call)}`);
    const unsigned = new warp.WarpUnsignedMessage(new ajs.Int(12345), new ajs.Id(chain), new ajs.Bytes(addressedCall(source, payload))).toBytes(warp.codec);
    expect(hexOf(unsignedMessage(12345, chain, addressedCall(source, payload)))).toBe(`0000${hexOf(unsigned)}`);
    expect(hexOf(bitset([0, 1]))).toBe('03');
    expect(hexOf(bitset([8]))).toBe('0100');
    expect(hexOf(publicKeyOf(LOCAL_SIGNERS[0]!.secretKey))).toBe(LOCAL_NODE_KEY);
  });
});

describe('sending warp messages and signing them (warp-api-enabled)', () => {
  let node: TestNode;
  const ewoq = privateKeyToAccount(EWOQ_KEY);

  beforeAll(async () => {
    const configDir = tempDir();
    for (const chain of ['myl1', 'C']) {
      mkdirSync(join(configDir, chain));
      writeFileSync(join(configDir, chain, 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
    }
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE], chainConfigDir: configDir });
  });
  afterAll(() => node.stop());

  async function send(alias: string, chainId: number, payload: Hex) {
    const url = `${node.uri}/ext/bc/${alias}/rpc`;
    const { chain, client, wallet } = clientsOf(url, chainId);
    const data = encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: [payload] });
    const receipt = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: WARP, data, chain, account: ewoq }) });
    const blockchainID = (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias })).json.result.blockchainID as string;
    return { url, client, receipt, blockchainID };
  }

  it('logs the unsigned message from an L1 and signs it with the node and with the L1 validator set', async () => {
    const payload: Hex = '0xdeadbeef';
    const { url, client, receipt, blockchainID } = await send('myl1', 99999, payload);
    expect(receipt.status).toBe('success');
    const expected = unsignedMessage(12345, decodeCB58(blockchainID), addressedCall(fromHex(ewoq.address), fromHex(payload)));
    const id = sha256(expected);
    const [log] = receipt.logs;
    expect(log!.address).toBe(WARP);
    expect(log!.topics).toEqual([
      toEventSelector('SendWarpMessage(address,bytes32,bytes)'),
      `0x${ewoq.address.slice(2).toLowerCase().padStart(64, '0')}`,
      `0x${hexOf(id)}`,
    ]);
    // The data is the ABI encoding of the message bytes.
    expect(log!.data.slice(2 + 128, 2 + 128 + expected.length * 2)).toBe(hexOf(expected));
    expect(await client.readContract({ address: WARP, abi: warpAbi, functionName: 'getBlockchainID' })).toBe(`0x${hexOf(decodeCB58(blockchainID))}`);

    const call = async (method: string, params: unknown[]) => (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json;
    expect((await call('warp_getMessage', [encodeCB58(id)])).result).toBe(`0x${hexOf(expected)}`);
    const signature = fromHex((await call('warp_getMessageSignature', [encodeCB58(id)])).result);
    expect(signature.length).toBe(96);
    expect(verifyAggregate(expected, signature, [fromHex(LOCAL_NODE_KEY)])).toBe(true);
    // The L1's own validator set is the node: signers bitset 0x01.
    const signed = fromHex((await call('warp_getMessageAggregateSignature', [encodeCB58(id), 67, ''])).result);
    expect(hexOf(signed.subarray(0, expected.length))).toBe(hexOf(expected));
    expect(hexOf(signed.subarray(expected.length, expected.length + 9))).toBe('000000000000000101');
    expect(verifyAggregate(expected, signed.subarray(expected.length + 9), [fromHex(LOCAL_NODE_KEY)])).toBe(true);
    expect((await call('warp_getMessage', [encodeCB58(new Uint8Array(32).fill(1))])).error.message).toBe(
      `failed to get message ${encodeCB58(new Uint8Array(32).fill(1))} with error not found`,
    );
    // The block that sent it can be signed too (a Hash payload of the block hash).
    const blockSig = fromHex((await call('warp_getBlockSignature', [encodeCB58(fromHex(receipt.blockHash))])).result);
    const blockMessage = unsignedMessage(12345, decodeCB58(blockchainID), fromHex(`0000${'00000000'}${receipt.blockHash.slice(2)}`));
    expect(verifyAggregate(blockMessage, blockSig, [fromHex(LOCAL_NODE_KEY)])).toBe(true);
  });

  it('aggregates the primary network’s five local stakers for a C-Chain message', async () => {
    const { url, receipt, blockchainID } = await send('C', 43112, '0x01');
    const id = receipt.logs[0]!.topics[2]!;
    const expected = unsignedMessage(12345, decodeCB58(blockchainID), addressedCall(fromHex(ewoq.address), Uint8Array.of(1)));
    const aggregate = async (quorum: number) =>
      fromHex(
        (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessageAggregateSignature', params: [encodeCB58(fromHex(id)), quorum, ''] })))
          .json.result,
      );
    const signed = await aggregate(100);
    expect(hexOf(signed.subarray(expected.length, expected.length + 9))).toBe('00000000000000011f');
    const stakers = LOCAL_SIGNERS.map((s) => publicKeyOf(s.secretKey));
    expect(verifyAggregate(expected, signed.subarray(expected.length + 9), stakers)).toBe(true);
    // acp118's aggregator stops once the quorum is met: at 67 %, four of the five equal stakers (80 %),
    // here the first four of the canonical order; the signature is theirs.
    const four = await aggregate(67);
    expect(hexOf(four.subarray(expected.length, expected.length + 9))).toBe('00000000000000010f');
    const byFour = stakers.map((_, left) =>
      verifyAggregate(
        expected,
        four.subarray(expected.length + 9),
        stakers.filter((_, i) => i !== left),
      ),
    );
    expect(byFour.filter(Boolean)).toHaveLength(1);
  });

  it('delivers a message from a Solidity sender on the L1 to a Solidity receiver on the C-Chain through the access list, verified against the L1 validator', async () => {
    const receiver = fixture('WarpReceiver');
    const abi = receiver.abi as Abi;
    const cUrl = `${node.uri}/ext/bc/C/rpc`;
    const { chain: cChain, client, wallet } = clientsOf(cUrl, 43112);
    const deployed = await client.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi, bytecode: receiver.bytecode, chain: cChain, account: ewoq }),
    });
    const address = deployed.contractAddress!;

    // A Solidity sender on the L1: the message's origin is the contract.
    const payload: Hex = '0xcafe';
    const url = `${node.uri}/ext/bc/myl1/rpc`;
    const { chain: myl1, client: l1Client, wallet: l1Wallet } = clientsOf(url, 99999);
    const sender = fixture('WarpSender');
    const senderAbi = sender.abi as Abi;
    const senderAddress = (
      await l1Client.waitForTransactionReceipt({
        hash: await l1Wallet.deployContract({ abi: senderAbi, bytecode: sender.bytecode, chain: myl1, account: ewoq }),
      })
    ).contractAddress!;
    const receipt = await l1Client.waitForTransactionReceipt({
      hash: await l1Wallet.writeContract({ address: senderAddress, abi: senderAbi, functionName: 'send', args: [payload], chain: myl1, account: ewoq }),
    });
    const blockchainID = (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).json.result.blockchainID as string;
    const id = receipt.logs.find((l) => l.address === WARP)!.topics[2]!;
    const signed = (
      await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessageAggregateSignature', params: [encodeCB58(fromHex(id)), 67, ''] }))
    ).json.result as Hex;
    const deliver = async (message: Uint8Array) => {
      const accessList = [{ address: WARP, storageKeys: predicateChunks(message).map((c) => `0x${hexOf(c)}` as Hex) }];
      const data = encodeFunctionData({ abi, functionName: 'receiveMessage' });
      const gas = await client.estimateGas({ account: ewoq.address, to: address, data, accessList });
      const hash = await wallet.sendTransaction({ to: address, data, accessList, gas, chain: cChain, account: ewoq });
      const r = await client.waitForTransactionReceipt({ hash });
      return {
        r,
        event: decodeEventLog({ abi, data: r.logs[0]!.data, topics: r.logs[0]!.topics }).args as unknown as {
          sourceChainID: Hex;
          origin: Hex;
          payload: Hex;
          valid: boolean;
        },
      };
    };
    const good = await deliver(fromHex(signed));
    expect(good.r.status).toBe('success');
    expect(good.event).toEqual({ sourceChainID: `0x${hexOf(decodeCB58(blockchainID))}`, origin: getAddress(senderAddress), payload, valid: true });
    // Its block records no failed predicate: the tx has an entry with an empty bitset.
    const block = await client.getBlock({ blockNumber: good.r.blockNumber });
    expect(block.extraData.slice(2 + 48)).toBe(`0000${'00000001'}${good.r.transactionHash.slice(2)}${'00000001'}${WARP.slice(2)}${'00000000'}`);

    // A signature that does not verify: the tx is still included, and the contract reads (empty, false).
    const tampered = fromHex(signed);
    tampered.set(sign(Uint8Array.of(1, 2, 3), LOCAL_SIGNERS[0]!.secretKey), tampered.length - 96);
    const bad = await deliver(tampered);
    expect(bad.r.status).toBe('success');
    expect(bad.event.valid).toBe(false);
    const badBlock = await client.getBlock({ blockNumber: bad.r.blockNumber });
    expect(badBlock.extraData.slice(-(2 * 4 + 2))).toBe('0000000101');
  });

  it("refuses a tx whose warp predicate is malformed, with subnet-evm's text", async () => {
    const url = `${node.uri}/ext/bc/myl1/rpc`;
    const raw = await ewoq.signTransaction({
      chainId: 99999,
      nonce: 50,
      to: WARP,
      gas: 300_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1n,
      accessList: [{ address: WARP, storageKeys: [`0x${'ab'.repeat(32)}`] }],
    });
    expect((await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }))).json.error.message).toBe(
      'cannot unpack predicate bytes: wrong delimiter',
    );
  });
});

describe("an L1's other validators (emulator-validators) and warp quorums", () => {
  let node: TestNode;
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  const KEY_A = `0x${'11'.repeat(32)}`;
  const KEY_B = `0x${'22'.repeat(32)}`;

  beforeAll(async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    const validators = [
      { nodeID: 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ', weight: 100, blsSecretKey: KEY_A },
      { nodeID: 'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN', weight: 300, blsSecretKey: KEY_B, offline: true },
    ];
    writeFileSync(join(configDir, 'myl1', 'config.json'), JSON.stringify({ 'warp-api-enabled': true, 'emulator-validators': validators }));
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE], chainConfigDir: configDir });
  });
  afterAll(() => node.stop());

  it('lists them, signs with the online ones, and holds aggregation and delivery to the quorum', async () => {
    const r = await rpc(`${node.uri}/ext/bc/myl1/validators`, 'validators.getCurrentValidators', {});
    const listed = r.json.result.validators as { nodeID: string; weight: number; isConnected: boolean }[];
    expect(listed.map((v) => [v.nodeID, v.weight, v.isConnected])).toEqual([
      ['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', 100, true],
      ['NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ', 100, true],
      ['NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN', 300, false],
    ]);

    // A Solidity sender on the L1: the message's origin is the contract.
    const url = `${node.uri}/ext/bc/myl1/rpc`;
    const { chain: myl1, client, wallet } = clientsOf(url, 99999);
    const sender = fixture('WarpSender');
    const senderAbi = sender.abi as Abi;
    const senderAddress = (
      await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: senderAbi, bytecode: sender.bytecode, chain: myl1, account: ewoq }) })
    ).contractAddress!;
    const sent = await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: senderAddress, abi: senderAbi, functionName: 'send', args: ['0xbeef'], chain: myl1, account: ewoq }),
    });
    const warpLog = sent.logs.find((l) => l.address === WARP)!;
    expect(warpLog.topics[1]).toBe(`0x${senderAddress.slice(2).toLowerCase().padStart(64, '0')}`);
    const id = encodeCB58(fromHex(warpLog.topics[2]!));
    const aggregate = async (quorum: number) =>
      (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessageAggregateSignature', params: [id, quorum, ''] }))).json;
    // Online weight 200 of 500: 40 %. The API's aggregator (acp118's, avalanchego 1.14) returns what it
    // gathered whether or not that meets the quorum asked: 67 % gets the same 40 % as 40 % does.
    const short = (await aggregate(67)).result;
    const signed = fromHex((await aggregate(40)).result);
    expect(short).toBe(`0x${Buffer.from(signed).toString('hex')}`);
    const unsigned = fromHex((await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessage', params: [id] }))).json.result);
    const bitsAndSig = signed.subarray(unsigned.length);
    const signers = bitsAndSig[8]!;
    const onlineKeys = [LOCAL_SIGNERS[0]!.secretKey, fromHex(KEY_A)].map(publicKeyOf);
    expect(verifyAggregate(unsigned, bitsAndSig.subarray(9), onlineKeys)).toBe(true);
    expect([3, 5, 6]).toContain(signers); // two of the three, in canonical (public key) order

    // The C-Chain verifies it against the L1's set at the default quorum (67): 40 % is not enough.
    const receiver = fixture('WarpReceiver');
    const abi = receiver.abi as Abi;
    const cUrl = `${node.uri}/ext/bc/C/rpc`;
    const { chain: cChain, client: cClient, wallet: cWallet } = clientsOf(cUrl, 43112);
    const address = (
      await cClient.waitForTransactionReceipt({ hash: await cWallet.deployContract({ abi, bytecode: receiver.bytecode, chain: cChain, account: ewoq }) })
    ).contractAddress!;
    const accessList = [{ address: WARP, storageKeys: predicateChunks(signed).map((c) => `0x${hexOf(c)}` as Hex) }];
    const hash = await cWallet.sendTransaction({
      to: address,
      data: encodeFunctionData({ abi, functionName: 'receiveMessage' }),
      accessList,
      gas: 500_000n,
      chain: cChain,
      account: ewoq,
    });
    const r2 = await cClient.waitForTransactionReceipt({ hash });
    expect((decodeEventLog({ abi, data: r2.logs[0]!.data, topics: r2.logs[0]!.topics }).args as unknown as { valid: boolean }).valid).toBe(false);
  });

  it("answers mistakes as subnet-evm's warp/service.go: ids.ID's texts, its wrapping, the subnet's checks", async () => {
    const url = `${node.uri}/ext/bc/myl1/rpc`;
    const reply = async (method: string, params: unknown[]) => (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json;
    const failed = (message: string) => ({ code: -32000, message });
    const unknown = encodeCB58(new Uint8Array(32).fill(7));
    const short = encodeCB58(new Uint8Array(20).fill(7));
    expect((await reply('warp_getMessage', [unknown])).error).toEqual(failed(`failed to get message ${unknown} with error not found`));
    expect((await reply('warp_getMessageSignature', [unknown])).error).toEqual(failed(`failed to get message ${unknown} with error not found`));
    expect((await reply('warp_getBlockSignature', [unknown])).error).toEqual(
      failed(`failed to get signature for block ${unknown} with error failed to validate block message: 2: failed to get block ${unknown}: not found`),
    );
    // The aggregate's own lookup is unwrapped.
    expect((await reply('warp_getMessageAggregateSignature', [unknown, 67, ''])).error).toEqual(failed('not found'));
    expect((await reply('warp_getMessage', [short])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: invalid hash length: expected 32 bytes but got 20',
    });
    expect((await reply('warp_getMessage', [5])).error).toEqual({ code: -32602, message: 'invalid argument 0: first and last characters should be quotes' });
    // The subnet: parsed (never an HTTP 500), then looked up among the warp validator sets.
    const head = (await reply('eth_getBlockByNumber', ['latest', false])).result;
    const blockID = encodeCB58(fromHex(head.hash));
    for (const bad of ['bad', short]) {
      expect((await reply('warp_getBlockAggregateSignature', [blockID, 67, bad])).error).toEqual(failed(`failed to parse subnetID: "${bad}"`));
    }
    expect((await reply('warp_getBlockAggregateSignature', [blockID, 67, unknown])).error).toEqual(
      failed(`cannot retrieve validator set: ${unknown} source subnet not found`),
    );
    // A block no validator accepted: no one signs, and the aggregator's untouched message prints as "0x".
    expect((await reply('warp_getBlockAggregateSignature', [unknown, 67, ''])).result).toBe('0x');
    expect((await reply('warp_getMessage', ['bad'])).error).toEqual({
      code: -32602,
      message: "invalid argument 0: couldn't decode ID to bytes: input string is smaller than the checksum size",
    });
  });
});

describe('two L1s and the C-Chain in one node (C → L1, L1 → L1, a wrong signing set), started from the command line', () => {
  let node: SpawnedNode;
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  /** An L1's subnet: the P-Chain's CreateSubnetTx that the node issued for it at start-up. */
  const subnetOf = async (alias: string) => {
    const { blockchainID } = (await post(`${node.uri}/ext/info`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias } })))
      .json.result;
    return (await post(`${node.uri}/ext/bc/P`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.validatedBy', params: { blockchainID } }))).json.result
      .subnetID as string;
  };

  beforeAll(async () => {
    const dir = tempDir();
    const other = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    other.config.chainId = 88888;
    writeFileSync(join(dir, 'other.json'), JSON.stringify(other));
    const configDir = join(dir, 'configs');
    for (const chain of ['myl1', 'other', 'C']) {
      mkdirSync(join(configDir, chain), { recursive: true });
      writeFileSync(join(configDir, chain, 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
    }
    node = await spawnNode([
      '--db-type=memdb',
      '--api-admin-enabled=true',
      `--l1=${FIXTURE}`,
      `--l1=${join(dir, 'other.json')}`,
      `--chain-config-dir=${configDir}`,
    ]);
  });
  afterAll(async () => {
    node.child.kill('SIGTERM');
    await node.exited;
  });

  const aggregate = async (alias: string, id: Hex, subnetID: string) =>
    fromHex(
      (
        await post(
          `${node.uri}/ext/bc/${alias}/rpc`,
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'warp_getMessageAggregateSignature', params: [encodeCB58(fromHex(id)), 67, subnetID] }),
        )
      ).json.result,
    );
  async function sendFrom(alias: string, chainId: number, payload: Hex) {
    const { chain, client, wallet } = clientsOf(`${node.uri}/ext/bc/${alias}/rpc`, chainId);
    const data = encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: [payload] });
    const receipt = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: WARP, data, chain, account: ewoq }) });
    return receipt.logs[0]!.topics[2]!;
  }

  it('lists every chain in the banner, logs each L1 under its name, and serves its websocket', async () => {
    // The banner follows the process context file: its bytes may reach this process a little later.
    for (let i = 0; i < 100 && !/other {2}http/.test(node.output()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(node.output()).toMatch(/myl1 {2}http:\/\/\S+\/ext\/bc\/myl1\/rpc {2}\(EVM chain ID 99999, blockchain \w+, subnet \w+\)/);
    expect(node.output()).toMatch(/other {2}http:\/\/\S+\/ext\/bc\/other\/rpc {2}\(EVM chain ID 88888/);
    // Its own logger (other.log once it writes), which the admin API knows by the chain's name.
    const levels = (await rpc(`${node.uri}/ext/admin`, 'admin.getLoggerLevel', { loggerName: 'other' })).json.result;
    expect(Object.keys(levels.loggerLevels)).toEqual(['other']);
    const ws = new WebSocket(`${node.uri.replace('http', 'ws')}/ext/bc/other/ws`);
    const reply = await new Promise<string>((resolve, reject) => {
      ws.once('open', () => ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'));
      ws.once('message', (m) => resolve(m.toString()));
      ws.once('error', reject);
    });
    ws.close();
    expect(JSON.parse(reply).result).toBe('0x15b38');
  });

  it('delivers C → L1 (signed by the L1 validators) and L1 → L1, and refuses a message signed by the wrong set', async () => {
    const receiver = fixture('WarpReceiver');
    const abi = receiver.abi as Abi;
    const { chain, client, wallet } = clientsOf(`${node.uri}/ext/bc/myl1/rpc`, 99999);
    const address = (await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode: receiver.bytecode, chain, account: ewoq }) }))
      .contractAddress!;
    const deliver = async (signed: Uint8Array) => {
      const accessList = [{ address: WARP, storageKeys: predicateChunks(signed).map((c) => `0x${hexOf(c)}` as Hex) }];
      const hash = await wallet.sendTransaction({
        to: address,
        data: encodeFunctionData({ abi, functionName: 'receiveMessage' }),
        accessList,
        gas: 500_000n,
        chain,
        account: ewoq,
      });
      const r = await client.waitForTransactionReceipt({ hash });
      return decodeEventLog({ abi, data: r.logs[0]!.data, topics: r.logs[0]!.topics }).args as unknown as { payload: Hex; valid: boolean };
    };
    // From the C-Chain: a primary-network source is checked against the receiving L1's own validators.
    const fromC = await sendFrom('C', 43112, '0x0c');
    expect(await deliver(await aggregate('C', fromC, await subnetOf('myl1')))).toMatchObject({ payload: '0x0c', valid: true });
    // From the other L1, signed by its validator.
    const fromOther = await sendFrom('other', 88888, '0x0e');
    expect(await deliver(await aggregate('other', fromOther, ''))).toMatchObject({ payload: '0x0e', valid: true });
    // The same message signed by the primary network's stakers: not the source subnet's set.
    expect((await deliver(await aggregate('other', fromOther, PRIMARY_NETWORK))).valid).toBe(false);
  });
});

describe("a message delivered by eth_sendTransaction (the node's own key, --dev)", () => {
  let node: TestNode;

  beforeAll(async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    writeFileSync(join(configDir, 'myl1', 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE], chainConfigDir: configDir, dev: true, testAccounts: 1 });
  });
  afterAll(() => node.stop());

  it('is admitted with its predicates as a signed raw tx is, and the receiver reads it verified', async () => {
    // The node hands the pool the tx it signed (no second decoding): the predicates' gas is set on
    // that very object, which must not be frozen.
    const cUrl = `${node.uri}/ext/bc/C/rpc`;
    const l1Url = `${node.uri}/ext/bc/myl1/rpc`;
    const [from] = (await call(cUrl, 'eth_accounts', [])) as string[];
    const mined = async (url: string, tx: Record<string, unknown>) => {
      const hash = await call(url, 'eth_sendTransaction', [{ from, ...tx }]);
      for (;;) {
        const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
        if (receipt) return receipt;
      }
    };
    const receiver = fixture('WarpReceiver');
    const abi = receiver.abi as Abi;
    const address = (await mined(cUrl, { data: receiver.bytecode })).contractAddress as Hex;
    const sent = await mined(l1Url, { to: WARP, data: encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: ['0xbeef'] }) });
    const id = sent.logs.find((l: { address: string }) => l.address === WARP).topics[2] as Hex;
    const signed = (await call(l1Url, 'warp_getMessageAggregateSignature', [encodeCB58(fromHex(id)), 67, ''])) as Hex;
    const accessList = [{ address: WARP, storageKeys: predicateChunks(fromHex(signed)).map((c) => `0x${hexOf(c)}`) }];
    const r = await mined(cUrl, { to: address, data: encodeFunctionData({ abi, functionName: 'receiveMessage' }), accessList, gas: '0x7a120' });
    expect(r.status).toBe('0x1');
    const event = decodeEventLog({ abi, data: r.logs[0].data, topics: r.logs[0].topics }).args as unknown as { origin: Hex; payload: Hex; valid: boolean };
    expect(event).toMatchObject({ origin: getAddress(from), payload: '0xbeef', valid: true });
  });
});
