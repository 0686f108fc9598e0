// ICM's TeleporterRegistry, the emulator's own (contracts/icm): the committed artifact equals the
// compiler's output and has v1.0.0's selectors, topics and placement slots; then, against an
// in-process node with the C-Chain and an L1, it is placed at the tooling SDK's genesis address with
// registryStorage (version 1 → the messenger at 0x253b…), read, and upgraded end to end as
// icm-relayer's off-chain-registry handler does: an off-chain warp message listed in the chain
// config's warp-off-chain-messages, signed through warp_getMessageAggregateSignature, delivered by
// addProtocolVersion(0) with the signed message as the warp predicate and 500,000 gas. The
// expectations (selectors, topics, slots, error texts) are docs/research/icm.md's, computed here
// independently of the contract.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  type Abi,
  decodeErrorResult,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseAbiParameters,
  type TransactionReceipt,
  toEventSelector,
  toFunctionSelector,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCB58, encodeCB58 } from '../src/encoding/cb58.js';
import { sign } from '../src/vms/components/warp/bls.js';
import { addressedCall, hashPayload, unsignedMessage } from '../src/vms/components/warp/message.js';
import { MESSENGER_RUNTIME } from '../src/vms/evm/icm/messenger.js';
import { REGISTRY_ABI, REGISTRY_ADDRESS, REGISTRY_RUNTIME, registryStorage } from '../src/vms/evm/icm/registry.js';
import { LOCAL_STAKERS } from '../src/vms/evm/warp/signers.js';
import { post, rpc, startTestNode, type TestNode, tempDir } from './helpers.js';
import { predicateChunks } from './support/known.js';
import { evmClients, ewoq, MESSENGER } from './support/evm.js';
import { compileSources } from './support/solc.js';

const ICM_DIR = resolve(import.meta.dirname, '../contracts/icm');
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const REGISTRY = getAddress('0xF86Cb19Ad8405AEFa7d09C778215D2Cb6eBfB228');
const WARP: Hex = '0x0200000000000000000000000000000000000005';
const ZERO: Hex = '0x0000000000000000000000000000000000000000';
/** Version 2's messenger: the registry does not require code there. */
const NEXT = getAddress(`0x${'ab'.repeat(20)}`);
const abi = REGISTRY_ABI as unknown as Abi;
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ''), 'hex'));
const word = (n: bigint | string) => `0x${(typeof n === 'bigint' ? n.toString(16) : n.replace(/^0x/, '').toLowerCase()).padStart(64, '0')}`;

/** A Solidity mapping's slot for `key` (a 32-byte ABI word) at `slot`: keccak256(key ‖ slot). */
const mappingSlot = (type: 'uint256' | 'address', key: bigint | Hex, slot: bigint) =>
  keccak256(encodeAbiParameters(parseAbiParameters(`${type}, uint256`), [key as never, slot]));

/**
 * The off-chain message that adds a version (icm-services' UPGRADING.md): from this chain, from the
 * zero address (the validators, not a contract), carrying abi.encode((version, address), registry).
 */
function registryMessage(chainID: Hex, version: bigint, protocolAddress: Hex, options: { registry?: Hex; sourceAddress?: Hex } = {}): Uint8Array {
  const payload = encodeAbiParameters(parseAbiParameters('(uint256, address), address'), [[version, protocolAddress], options.registry ?? REGISTRY]);
  return unsignedMessage(12345, fromHex(chainID), addressedCall(fromHex(options.sourceAddress ?? ZERO), fromHex(payload)));
}

const cb58ID = (unsigned: Uint8Array) => encodeCB58(sha256(unsigned));

describe('the committed registry artifact', () => {
  it('equals what solc makes of contracts/icm today (regenerate: node scripts/compile-icm.mjs)', () => {
    const files = readdirSync(ICM_DIR)
      .filter((f) => f.endsWith('.sol'))
      .sort();
    const compiled = compileSources(Object.fromEntries(files.map((f) => [f, readFileSync(join(ICM_DIR, f), 'utf8')])));
    const registry = compiled['TeleporterRegistry.sol']!.TeleporterRegistry!;
    expect(registry.deployedBytecode).toBe(REGISTRY_RUNTIME);
    expect(JSON.stringify(registry.abi)).toBe(JSON.stringify(REGISTRY_ABI));
    expect(REGISTRY_ADDRESS).toBe(REGISTRY);
    // The constructor takes the initial entries, as the real one's does.
    expect(registry.abi.find((f) => f.type === 'constructor').inputs.map((i: { type: string }) => i.type)).toEqual(['tuple[]']);
  });

  it("has TeleporterRegistry v1.0.0's selectors and topics", () => {
    const selectors = Object.fromEntries(
      abi.filter((f) => f.type === 'function').map((f) => [(f as { name: string }).name, toFunctionSelector(f as never).slice(2)]),
    );
    expect(selectors).toEqual({
      MAX_VERSION_INCREMENT: 'ac473ac3',
      VALIDATORS_SOURCE_ADDRESS: '0731775d',
      WARP_MESSENGER: 'b771b3bc',
      addProtocolVersion: '41f34ed9',
      blockchainID: 'd127dc9b',
      getAddressFromVersion: '46f9ef49',
      getLatestTeleporter: 'd820e64f',
      getTeleporterFromVersion: '215abce9',
      getVersionFromAddress: '4c1f08ce',
      latestVersion: 'c07f47d4',
    });
    const topics = Object.fromEntries(abi.filter((e) => e.type === 'event').map((e) => [(e as { name: string }).name, toEventSelector(e as never).slice(2)]));
    expect(topics).toEqual({
      AddProtocolVersion: 'a5eed93d951a9603d5f7c0a57de79a299dd3dbd5e51429be209d8053a42ab43a',
      LatestVersionUpdated: '30623e953733f6474dabdfbef1103ce15ab73cdc77c6dfad0f9874d167e8a9b0',
    });
  });

  it("gives the tooling SDK's genesis storage for the messenger: latestVersion 1, version 1 ⇄ 0x253b…", () => {
    const storage = registryStorage(MESSENGER);
    const versionSlot = mappingSlot('uint256', 1n, 1n);
    const addressSlot = mappingSlot('address', MESSENGER, 2n);
    expect(versionSlot.slice(0, 10)).toBe('0xcc69885f');
    expect(versionSlot.slice(-4)).toBe('792f');
    expect(addressSlot.slice(0, 10)).toBe('0xe37acb94');
    expect(addressSlot.slice(-4)).toBe('9b0e');
    expect(storage).toEqual([
      [word(0n), word(1n)],
      [versionSlot, word(MESSENGER)],
      [addressSlot, word(1n)],
    ]);
    expect(registryStorage(MESSENGER.toLowerCase())).toEqual(storage);
    expect(() => registryStorage('0x1234')).toThrow('not an address');
  });
});

describe('the registry at 0xF86C… on the C-Chain and an L1, upgraded by off-chain warp messages', () => {
  let node: TestNode;
  let cID: Hex;
  let l1ID: Hex;
  let l1Subnet: string;
  /** Each chain's off-chain messages, as its chain config lists them. */
  let cMessages: { next: Uint8Array };
  let l1Messages: Record<'next' | 'origin' | 'destination' | 'zeroVersion' | 'exists' | 'zeroAddress' | 'tooHigh', Uint8Array>;

  const clients = (alias: string, id: number) => evmClients(node.uri, alias, id);
  const C = () => clients('C', 43112);
  const L1 = () => clients('myl1', 99999);
  type Side = ReturnType<typeof C>;

  const blockchainIDOf = async (alias: string): Promise<string> =>
    (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias })).json.result.blockchainID;
  const warp = async (side: Side, method: string, params: unknown[]) =>
    (await post(side.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: `warp_${method}`, params }))).json;

  /** The messenger as avalanche-cli's genesis has it, and the registry as its --icm-registry-at-genesis does. */
  async function place(url: string) {
    const ok = async (method: string, params: unknown[]) => expect((await rpc(url, method, params)).json.error).toBeUndefined();
    await ok('anvil_setCode', [MESSENGER, MESSENGER_RUNTIME]);
    await ok('anvil_setStorageAt', [MESSENGER, '0x0', word(1n)]);
    await ok('anvil_setStorageAt', [MESSENGER, '0x1', word(1n)]);
    await ok('anvil_setCode', [REGISTRY, REGISTRY_RUNTIME]);
    for (const [slot, value] of registryStorage(MESSENGER)) await ok('anvil_setStorageAt', [REGISTRY, slot, value]);
  }

  const read = (side: Side, functionName: string, args: unknown[] = []) =>
    side.client.readContract({ address: REGISTRY, abi, functionName, args }) as Promise<unknown>;

  /** The signed message and the access list that carries it as the tx's warp predicate 0. */
  async function predicate(side: Side, unsigned: Uint8Array, signingSubnet: string) {
    const reply = await warp(side, 'getMessageAggregateSignature', [cb58ID(unsigned), 67, signingSubnet]);
    expect(reply.error).toBeUndefined();
    const signed = fromHex(reply.result);
    expect(hexOf(signed.subarray(0, unsigned.length))).toBe(hexOf(unsigned));
    return [{ address: WARP, storageKeys: predicateChunks(signed).map((c) => `0x${hexOf(c)}` as Hex) }];
  }

  const addProtocolVersion = encodeFunctionData({ abi, functionName: 'addProtocolVersion', args: [0] });

  /** The Error(string) text an eth_call of `data` to the registry reverts with. */
  async function revertText(side: Side, data: Hex, accessList?: { address: Hex; storageKeys: Hex[] }[]) {
    const reply = await rpc(side.url, 'eth_call', [{ from: ewoq.address, to: REGISTRY, data, accessList, gas: '0x7a120' }, 'latest']);
    expect(reply.json.error).toBeDefined();
    return decodeErrorResult({ abi: [], data: reply.json.error.data as Hex }).args[0] as string;
  }
  const call = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args });

  /** addProtocolVersion(0) as icm-relayer's off-chain-registry handler sends it: 500,000 gas, the predicate in the access list. */
  async function deliver(side: Side, accessList: { address: Hex; storageKeys: Hex[] }[]): Promise<TransactionReceipt> {
    const hash = await side.wallet.sendTransaction({ to: REGISTRY, data: addProtocolVersion, gas: 500_000n, accessList, chain: side.chain, account: ewoq });
    return side.client.waitForTransactionReceipt({ hash });
  }
  const events = (receipt: TransactionReceipt) =>
    receipt.logs
      .filter((l) => getAddress(l.address) === REGISTRY)
      .map((l) => {
        const { eventName, args } = decodeEventLog({ abi, data: l.data, topics: l.topics as [Hex, ...Hex[]] });
        return { eventName, args: args as unknown as Record<string, unknown>, topics: l.topics };
      });

  beforeAll(async () => {
    // The messages name their chain, so a first node tells the IDs (the same on every fresh start).
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE] });
    const cCB58 = await blockchainIDOf('C');
    const l1CB58 = await blockchainIDOf('myl1');
    await node.stop();
    cID = `0x${hexOf(decodeCB58(cCB58))}`;
    l1ID = `0x${hexOf(decodeCB58(l1CB58))}`;

    cMessages = { next: registryMessage(cID, 2n, NEXT) };
    l1Messages = {
      next: registryMessage(l1ID, 2n, NEXT),
      origin: registryMessage(l1ID, 2n, NEXT, { sourceAddress: ewoq.address }),
      destination: registryMessage(l1ID, 2n, NEXT, { registry: MESSENGER }),
      zeroVersion: registryMessage(l1ID, 0n, NEXT),
      exists: registryMessage(l1ID, 1n, NEXT),
      zeroAddress: registryMessage(l1ID, 3n, ZERO),
      // latestVersion + MAX_VERSION_INCREMENT is 501 while version 1 is the latest.
      tooHigh: registryMessage(l1ID, 502n, NEXT),
    };
    const configDir = tempDir();
    const config = (messages: Record<string, Uint8Array>) =>
      JSON.stringify({ 'warp-api-enabled': true, 'warp-off-chain-messages': Object.values(messages).map((m) => `0x${hexOf(m)}`) });
    mkdirSync(join(configDir, 'C'));
    writeFileSync(join(configDir, 'C', 'config.json'), config(cMessages));
    mkdirSync(join(configDir, 'myl1'));
    writeFileSync(join(configDir, 'myl1', 'config.json'), config(l1Messages));
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE], chainConfigDir: configDir });
    expect(await blockchainIDOf('C')).toBe(cCB58);
    expect(await blockchainIDOf('myl1')).toBe(l1CB58);
    l1Subnet = (await rpc(`${node.uri}/ext/bc/P`, 'platform.validatedBy', { blockchainID: l1CB58 })).json.result.subnetID;
    await place(C().url);
    await place(L1().url);
  });
  afterAll(() => node?.stop());

  it('is placed with version 1 → the messenger, and reads its chain ID from the warp precompile', async () => {
    for (const [side, id] of [
      [C(), cID],
      [L1(), l1ID],
    ] as const) {
      expect(await side.client.getCode({ address: REGISTRY })).toBe(REGISTRY_RUNTIME);
      expect(await read(side, 'getLatestTeleporter')).toBe(MESSENGER);
      expect(await read(side, 'latestVersion')).toBe(1n);
      expect(await read(side, 'getAddressFromVersion', [1n])).toBe(MESSENGER);
      expect(await read(side, 'getTeleporterFromVersion', [1n])).toBe(MESSENGER);
      expect(await read(side, 'getVersionFromAddress', [MESSENGER])).toBe(1n);
      // No constructor ran, and still the chain's own ID, not the zero an immutable would hold.
      expect(await read(side, 'blockchainID')).toBe(id);
      expect(await read(side, 'VALIDATORS_SOURCE_ADDRESS')).toBe(ZERO);
      expect(await read(side, 'WARP_MESSENGER')).toBe(getAddress(WARP));
      expect(await read(side, 'MAX_VERSION_INCREMENT')).toBe(500n);
    }
  });

  it("refuses lookups of unknown or zero versions and addresses with TeleporterRegistry's texts", async () => {
    const side = L1();
    expect(await revertText(side, call('getAddressFromVersion', [0n]))).toBe('TeleporterRegistry: zero version');
    expect(await revertText(side, call('getTeleporterFromVersion', [0n]))).toBe('TeleporterRegistry: zero version');
    expect(await revertText(side, call('getAddressFromVersion', [7n]))).toBe('TeleporterRegistry: version not found');
    expect(await revertText(side, call('getVersionFromAddress', [ZERO]))).toBe('TeleporterRegistry: zero protocol address');
    expect(await revertText(side, call('getVersionFromAddress', [NEXT]))).toBe('TeleporterRegistry: protocol address not found');
    // Without a predicate there is no verified message at index 0.
    expect(await revertText(side, addProtocolVersion)).toBe('TeleporterRegistry: invalid warp message');
  });

  it('serves the off-chain messages through the warp API by their ID, signed like any other', async () => {
    for (const [side, unsigned] of [
      [C(), cMessages.next],
      [L1(), l1Messages.next],
    ] as const) {
      expect((await warp(side, 'getMessage', [cb58ID(unsigned)])).result).toBe(`0x${hexOf(unsigned)}`);
      expect((await warp(side, 'getMessageSignature', [cb58ID(unsigned)])).result).toBe(`0x${hexOf(sign(unsigned, LOCAL_STAKERS[0]!.secretKey))}`);
    }
    // The Data API's signature aggregator signs it too (the L1's one validator, the node).
    const res = await fetch(`${node.uri}/v1/signatureAggregator/fuji/aggregateSignatures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: hexOf(l1Messages.next) }),
    });
    expect(res.status).toBe(201);
    const { signedMessage } = (await res.json()) as { signedMessage: string };
    expect(signedMessage.startsWith(hexOf(l1Messages.next))).toBe(true);
    // Only the chain that lists a message knows it.
    const unknown = cb58ID(l1Messages.next);
    expect((await warp(C(), 'getMessage', [unknown])).error.message).toBe(`failed to get message ${unknown} with error not found`);
  });

  it("refuses every other off-chain message of the L1 with the registry's checks, in its order", async () => {
    const side = L1();
    const expected: [keyof typeof l1Messages, string][] = [
      ['origin', 'TeleporterRegistry: invalid origin sender address'],
      ['destination', 'TeleporterRegistry: invalid destination address'],
      ['zeroVersion', 'TeleporterRegistry: zero version'],
      ['exists', 'TeleporterRegistry: version already exists'],
      ['zeroAddress', 'TeleporterRegistry: zero protocol address'],
      ['tooHigh', 'TeleporterRegistry: version increment too high'],
    ];
    for (const [name, text] of expected) {
      expect(await revertText(side, addProtocolVersion, await predicate(side, l1Messages[name], l1Subnet)), name).toBe(text);
    }
    // The C-Chain's message, valid there and signed by the L1's validators, is from the wrong chain here.
    expect(await revertText(side, addProtocolVersion, await predicate(C(), cMessages.next, l1Subnet))).toBe('TeleporterRegistry: invalid source chain ID');
  });

  it('adds version 2 on each chain as the relayer does: AddProtocolVersion, LatestVersionUpdated, then the new latest', async () => {
    for (const [side, unsigned, subnet] of [
      [L1(), l1Messages.next, l1Subnet],
      [C(), cMessages.next, ''],
    ] as const) {
      const receipt = await deliver(side, await predicate(side, unsigned, subnet));
      expect(receipt.status).toBe('success');
      const logs = events(receipt);
      expect(logs.map((e) => e.eventName)).toEqual(['AddProtocolVersion', 'LatestVersionUpdated']);
      expect(logs[0]!.topics.slice(1)).toEqual([word(2n), word(NEXT)]);
      expect(logs[1]!.topics.slice(1)).toEqual([word(1n), word(2n)]);
      expect(await read(side, 'getLatestTeleporter')).toBe(NEXT);
      expect(await read(side, 'latestVersion')).toBe(2n);
      expect(await read(side, 'getVersionFromAddress', [NEXT])).toBe(2n);
      expect(await read(side, 'getAddressFromVersion', [1n])).toBe(MESSENGER);
      // The same message again: the version now exists.
      const again = await deliver(side, await predicate(side, unsigned, subnet));
      expect(again.status).toBe('reverted');
      expect(await revertText(side, addProtocolVersion, await predicate(side, unsigned, subnet))).toBe('TeleporterRegistry: version already exists');
    }
  });
});

describe('warp-off-chain-messages the chain cannot take', () => {
  const l1Start = async (messages: unknown) => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    writeFileSync(join(configDir, 'myl1', 'config.json'), JSON.stringify({ 'warp-off-chain-messages': messages }));
    const started = startTestNode({ dbType: 'memdb', l1: [FIXTURE], chainConfigDir: configDir });
    return started.then(
      async (n) => {
        await n.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
  };

  it("stop the L1 from starting with subnet-evm's warp backend error, or the JSON decoder's", async () => {
    expect(await l1Start(['0x010203'])).toBe(`--l1=${FIXTURE}: failed to parse off-chain message at index 0: unknown codec version`);
    // Another network's, or another chain's.
    const chain = `0x${'11'.repeat(32)}` as Hex;
    const other = unsignedMessage(1, fromHex(chain), addressedCall(new Uint8Array(20), new Uint8Array(0)));
    expect(await l1Start([`0x${hexOf(other)}`])).toBe(`--l1=${FIXTURE}: wrong networkID at index 0`);
    const elsewhere = registryMessage(chain, 2n, NEXT);
    expect(await l1Start([`0x${hexOf(elsewhere)}`])).toBe(`--l1=${FIXTURE}: wrong SourceChainID at index 0`);
    // This chain's, but a Hash payload (a block's, as warp_getBlockSignature signs), not an AddressedCall.
    const probe = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    const l1ID = decodeCB58((await rpc(`${probe.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).json.result.blockchainID);
    await probe.stop();
    const hash = unsignedMessage(12345, l1ID, hashPayload(new Uint8Array(32)));
    expect(await l1Start([`0x${hexOf(registryMessage(`0x${hexOf(l1ID)}`, 2n, NEXT))}`, `0x${hexOf(hash)}`])).toBe(
      `--l1=${FIXTURE}: failed to parse off-chain message at index 1 as AddressedCall: wrong payload type: *payload.Hash`,
    );
    expect(await l1Start(['0x', 'nothex'])).toMatch(
      /: failed to unmarshal config .*: json: cannot unmarshal hex string without 0x prefix into Go struct field Config\.warp-off-chain-messages of type hexutil\.Bytes$/,
    );
    expect(await l1Start('0x00')).toMatch(/json: cannot unmarshal string into Go struct field Config\.warp-off-chain-messages of type \[\]hexutil\.Bytes$/);
    expect(await l1Start([1])).toMatch(/json: cannot unmarshal non-string into Go struct field Config\.warp-off-chain-messages of type hexutil\.Bytes$/);
  });

  it('stop the node when the C-Chain lists one, as for any critical chain', async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'C'));
    writeFileSync(
      join(configDir, 'C', 'config.json'),
      JSON.stringify({ 'warp-off-chain-messages': [`0x${hexOf(registryMessage(`0x${'22'.repeat(32)}`, 2n, NEXT))}`] }),
    );
    const started = await startTestNode({ dbType: 'memdb', chainConfigDir: configDir }).then(
      async (n) => {
        await n.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(started).toContain('wrong SourceChainID at index 0');
  });
});
