// One warp for the P-Chain and the EVM chains (src/vms/components/warp): the canonical validator
// set merges validators that share a BLS key into one entry with their summed weight, ordered by
// public key, as avalanchego's GetCanonicalValidatorSet does; so the P-Chain and an L1 index a
// signature's bitset over the same set. Through HTTP: an L1 whose second validator registers with
// the node's own BLS key, a message the L1 signs (warp API) that the P-Chain accepts, and one the
// P-Chain signs (emulator.aggregateSignatures) that the L1 verifies in a tx's access list.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Abi, createPublicClient, createWalletClient, decodeEventLog, defineChain, encodeFunctionData, type Hex, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { u32, u64 } from '../src/encoding/bytes.js';
import { publicKeyOf, sign, uncompressed } from '../src/vms/components/warp/bls.js';
import { addressedCall, parseSignedMessage, unsignedMessage } from '../src/vms/components/warp/message.js';
import { aggregate, verifySignature } from '../src/vms/components/warp/signature.js';
import { LOCAL_SIGNERS } from '../src/vms/components/warp/signers.js';
import { canonicalSet } from '../src/vms/components/warp/validators.js';
import { predicateChunks } from './support/known.js';
import { warpSet as evmWarpSet } from '../src/vms/evm/warp/signers.js';
import { warpSet as pChainWarpSet } from '../src/vms/platform/validators.js';
import { call, rpc, startTestNode, tempDir, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';
import { A, Wallet } from './support/pvm.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const WARP: Hex = '0x0200000000000000000000000000000000000005';
/** The validator manager of an --l1 chain: the address its RegisterL1Validator and L1ValidatorWeight messages come from. */
const MANAGER: Hex = '0x0feedc0de0000000000000000000000000000000';
const warpAbi = parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32 messageID)']);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ''), 'hex'));
const withLen = (b: Uint8Array) => Buffer.concat([u32(b.length), b]);
const cb58 = (b: Uint8Array) => A.utils.base58check.encode(b) as string;
const idBytes = (s: string) => A.utils.base58check.decode(s) as Uint8Array;

const [NODE, OTHER] = LOCAL_SIGNERS.map((s) => publicKeyOf(s.secretKey));
/** A third key, neither local staker's. */
const THIRD = publicKeyOf(new Uint8Array(32).fill(0x33));

describe('the canonical validator set (GetCanonicalValidatorSet)', () => {
  const validators = [
    { nodeID: 'a', publicKey: NODE!, weight: 100n },
    { nodeID: 'b', publicKey: THIRD, weight: 30n },
    { nodeID: 'c', publicKey: NODE!, weight: 50n },
    { nodeID: 'd', weight: 20n },
    { nodeID: 'e', publicKey: OTHER!, weight: 10n },
  ];

  it('merges validators that share a BLS key (weights summed), skips keyless ones, orders by public key and counts every weight', () => {
    const set = canonicalSet(validators, (v) => v.publicKey);
    expect(set.totalWeight).toBe(210n);
    const entries = set.validators.map((v) => [hex(v.publicKey), v.weight, v.members.map((m) => m.nodeID)]);
    expect(entries).toHaveLength(3);
    expect(entries).toEqual(
      expect.arrayContaining([
        [hex(NODE!), 150n, ['a', 'c']],
        [hex(THIRD), 30n, ['b']],
        [hex(OTHER!), 10n, ['e']],
      ]),
    );
    const keys = set.validators.map((v) => Buffer.from(uncompressed(v.publicKey)));
    expect(keys.every((k, i) => i === 0 || Buffer.compare(keys[i - 1]!, k) < 0)).toBe(true);
    // The order is that of the uncompressed keys, whatever order the validators came in.
    expect(canonicalSet([...validators].reverse(), (v) => v.publicKey).validators.map((v) => hex(v.publicKey))).toEqual(
      set.validators.map((v) => hex(v.publicKey)),
    );
  });

  it('is the same set on the P-Chain side and the EVM side, so both read a bitset alike', () => {
    const pSet = pChainWarpSet(validators.map((v) => ({ nodeID: v.nodeID, weight: v.weight, ...(v.publicKey ? { publicKey: hex(v.publicKey) } : {}) })));
    const evmSet = evmWarpSet(validators);
    const shape = (s: typeof pSet | typeof evmSet) => [s.totalWeight, s.validators.map((v) => [hex(v.publicKey), v.weight])];
    expect(shape(evmSet)).toEqual(shape(pSet));
    // The node's key alone signs: one bit, at the merged entry's index, 150 of 210 (71 %).
    const unsigned = unsignedMessage(12345, new Uint8Array(32), addressedCall(new Uint8Array(), Uint8Array.of(1)));
    const node = LOCAL_SIGNERS[0]!.secretKey;
    const signed = aggregate(unsigned, pSet, (v) => (hex(v.publicKey) === hex(NODE!) ? node : undefined), 67n);
    const m = parseSignedMessage(signed);
    const index = pSet.validators.findIndex((v) => hex(v.publicKey) === hex(NODE!));
    expect(hex(m.signers)).toBe(hex(Uint8Array.of(1 << index)));
    expect(verifySignature(m, pSet, 67n)).toBeUndefined();
    expect(verifySignature(m, evmSet, 67n)).toBeUndefined();
    // One bit per validator (the two copies' old disagreement): the set has no fourth entry.
    const perValidator = { ...m, signers: Uint8Array.of(0b1000 | (1 << index)) };
    expect(verifySignature(perValidator, pSet, 67n)).toBe('unknown validator: NumIndices (3) >= NumFilteredValidators (3)');
    expect(verifySignature({ ...m, signature: sign(Uint8Array.of(9), node) }, evmSet, 67n)).toBe('signature is invalid');
  });
});

describe("an L1 whose two validators share the node's BLS key, through HTTP", () => {
  let node: TestNode;
  let w: Wallet;
  let subnetID: string;
  let blockchainID: string;
  let nodeID: string;
  let registeredID: string;
  const P = () => `${node.uri}/ext/bc/P`;
  const L1 = () => `${node.uri}/ext/bc/myl1/rpc`;
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  const myl1 = defineChain({ id: 99999, name: 'myl1', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: ['http://x'] } } });
  const client = () => createPublicClient({ chain: myl1, transport: http(L1()), cacheTime: 0 });
  const evm = async (method: string, params: unknown[]) => {
    const reply = (await rpc(L1(), method, params)).json;
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result;
  };
  /** The validator manager sends `payload` as a warp message; the L1's validators sign it (warp_getMessageAggregateSignature). */
  async function signedByL1(payload: Uint8Array): Promise<Uint8Array> {
    const data = encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: [`0x${hex(payload)}`] });
    const hash = await evm('eth_sendTransaction', [{ from: MANAGER, to: WARP, data, gas: '0x100000' }]);
    const receipt = await client().waitForTransactionReceipt({ hash });
    const id = receipt.logs.find((l) => l.address === WARP)!.topics[2]!;
    return fromHex(await evm('warp_getMessageAggregateSignature', [cb58(fromHex(id)), 67, '']));
  }
  /** The BitSetSignature's signers bytes of a signed message. */
  const signersOf = (signed: Uint8Array) => hex(parseSignedMessage(signed).signers);

  beforeAll(async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    writeFileSync(join(configDir, 'myl1', 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE], chainConfigDir: configDir });
    w = await new Wallet(node.uri).init();
    blockchainID = (await call(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).blockchainID;
    subnetID = (await call(P(), 'platform.validatedBy', { blockchainID })).subnetID;
    nodeID = (await call(`${node.uri}/ext/info`, 'info.getNodeID')).nodeID;
    await evm('anvil_impersonateAccount', [MANAGER]);
    await evm('anvil_setBalance', [MANAGER, '0x56bc75e2d63100000']);
  });
  afterAll(() => node.stop());

  it("registers a second validator with the node's key: the canonical set has one entry with the summed weight", async () => {
    const { nodePOP } = await call(`${node.uri}/ext/info`, 'info.getNodeID');
    expect(nodePOP.publicKey).toBe(`0x${hex(NODE!)}`);
    const owner = Buffer.concat([u32(1), u32(1), w.addr]);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const register = Buffer.concat([
      Buffer.alloc(2),
      u32(1),
      idBytes(subnetID),
      withLen(new Uint8Array(20).fill(0x42)),
      NODE!,
      u64(now + 3600n),
      owner,
      owner,
      u64(50n),
    ]);
    // Signed by the L1's one validator, the node.
    const message = await signedByL1(register);
    expect(signersOf(message)).toBe('01');
    const tx = A.pvm.e.newRegisterL1ValidatorTx(
      { ...(await w.common()), balance: 1_000_000_000n, blsSignature: A.utils.hexToBuffer(nodePOP.proofOfPossession), message },
      w.ctx,
    );
    await w.issueP(tx);
    registeredID = cb58(sha256(register));
    const height = (await call(P(), 'platform.getHeight')).height;
    const { validatorSets } = await call(P(), 'platform.getAllValidatorsAt', { height });
    expect(validatorSets[subnetID]).toEqual({
      validators: [{ publicKey: `0x${hex(NODE!)}`, weight: '150', nodeIDs: [nodeID, `NodeID-${cb58(new Uint8Array(20).fill(0x42))}`].sort() }],
      totalWeight: '150',
    });
  });

  it('the L1 signs over the merged set (one bit) and the P-Chain accepts it; the P-Chain signs the same bit and the L1 verifies it', async () => {
    // L1ValidatorWeight(registered, nonce 0, weight 60) from the manager, signed on the L1's side.
    const weightMessage = Buffer.concat([Buffer.alloc(2), u32(3), idBytes(registeredID), u64(0n), u64(60n)]);
    const fromL1 = await signedByL1(weightMessage);
    expect(signersOf(fromL1)).toBe('01');
    await w.issueP(A.pvm.e.newSetL1ValidatorWeightTx({ ...(await w.common()), message: fromL1 }, w.ctx));
    expect(await call(P(), 'platform.getL1Validator', { validationID: registeredID })).toMatchObject({ weight: '60', minNonce: '1' });

    // The P-Chain's acknowledgement, signed by the L1's validators on the P-Chain's side.
    const unsigned = unsignedMessage(12345, new Uint8Array(32), addressedCall(new Uint8Array(), weightMessage));
    const { signedMessage } = await call(`${node.uri}/ext/emulator`, 'emulator.aggregateSignatures', {
      message: `0x${hex(unsigned)}`,
      signingSubnetID: subnetID,
    });
    const fromP = fromHex(signedMessage);
    expect(signersOf(fromP)).toBe('01');

    // Delivered to a contract on the L1: a P-Chain message is checked against the L1's own set.
    const receiver = fixture('WarpReceiver');
    const abi = receiver.abi as Abi;
    const wallet = createWalletClient({ chain: myl1, transport: http(L1()), account: ewoq });
    const deployed = await client().waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi, bytecode: receiver.bytecode, chain: myl1, account: ewoq }),
    });
    const chunks = predicateChunks(fromP).map((c) => `0x${hex(c)}` as Hex);
    const hash = await wallet.sendTransaction({
      to: deployed.contractAddress!,
      data: encodeFunctionData({ abi, functionName: 'receiveMessage' }),
      accessList: [{ address: WARP, storageKeys: chunks }],
      gas: 500_000n,
      chain: myl1,
      account: ewoq,
    });
    const r = await client().waitForTransactionReceipt({ hash });
    const event = decodeEventLog({ abi, data: r.logs[0]!.data, topics: r.logs[0]!.topics }).args as unknown as { sourceChainID: Hex; valid: boolean };
    expect(event).toMatchObject({ sourceChainID: `0x${'00'.repeat(32)}`, valid: true });
  });
});
