// Converting a subnet to an L1 and managing its validators with the txs a validator manager drives:
// ConvertSubnetToL1Tx, RegisterL1ValidatorTx and SetL1ValidatorWeightTx (carrying warp messages
// signed by the L1's validators), IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx, all built by
// avalanchejs; and the P-Chain's own messages (SubnetToL1Conversion, L1ValidatorRegistration,
// L1ValidatorWeight) signed by the L1's validators through emulator.aggregateSignatures.
import { readFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';
import { A, EWOQ_KEY, nodeAsL1Validator, Wallet } from './support/pvm.js';

const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
/** The node's BLS key: avalanchego's staking/local/signer1.key. */
const NODE_SK = new Uint8Array(Buffer.from('AvalancheLocalNetworkValidator01'));
const bls = bls12_381.longSignatures;

const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const withLen = (b: Uint8Array) => Buffer.concat([u32(b.length), b]);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const cb58 = (b: Uint8Array) => A.utils.base58check.encode(b);
const idBytes = (s: string) => A.utils.base58check.decode(s) as Uint8Array;
const addressedCall = (source: Uint8Array, payload: Uint8Array) => Buffer.concat([u32(0).subarray(2), u32(1), withLen(source), withLen(payload)]);
const unsignedMessage = (source: Uint8Array, payload: Uint8Array) => Buffer.concat([Buffer.alloc(2), u32(12345), source, withLen(payload)]);
/**
 * Signed by the node alone, its bit set at its index in the L1's canonical validator order (the
 * set's keys sorted by uncompressed bytes): enough while it holds 67% of the weight.
 */
function signedByNode(unsigned: Uint8Array, setKeys: Uint8Array[] = []): Buffer {
  const nodePk = bls.getPublicKey(NODE_SK);
  const order = [nodePk.toBytes(false), ...setKeys.map((k) => bls12_381.G1.Point.fromBytes(k).toBytes(false))].sort(Buffer.compare);
  const index = order.findIndex((k) => Buffer.from(k).equals(Buffer.from(nodePk.toBytes(false))));
  return Buffer.concat([unsigned, u32(0), u32(1), Uint8Array.of(1 << index), bls.sign(bls.hash(unsigned, SIG_DST), NODE_SK).toBytes(true)]);
}
const owner = (addr: Uint8Array) => Buffer.concat([u32(1), u32(1), addr]);

function newBlsKey(seed: number) {
  const sk = new Uint8Array(32).fill(seed);
  const pk = bls.getPublicKey(sk).toBytes(true);
  return { pk, pop: bls.sign(bls.hash(pk, POP_DST), sk).toBytes(true) };
}

describe('an L1 from ConvertSubnetToL1Tx, its validators managed through warp messages', () => {
  let node: TestNode;
  let P: string;
  let w: Wallet;
  let subnetID: string;
  let chainID: string;
  let nodeValidationID: string;
  let manager: Uint8Array;
  let registeredID: string;
  let registeredKey: Uint8Array;

  beforeAll(async () => {
    node = await startTestNode();
    P = `${node.uri}/ext/bc/P`;
    w = await new Wallet(node.uri).init();
    subnetID = await w.issueP(A.pvm.e.newCreateSubnetTx({ ...(await w.common()), subnetOwners: [w.addr] }, w.ctx));
    const genesis = JSON.parse(readFileSync(new URL('../fixtures/myl1.json', import.meta.url), 'utf8'));
    const chainTx = A.pvm.e.newCreateChainTx(
      { ...(await w.common()), subnetId: subnetID, chainName: 'myl1', vmId: SUBNET_EVM, fxIds: [], genesisData: genesis, subnetAuth: [0] },
      w.ctx,
    );
    chainID = await w.issueP(chainTx, [EWOQ_KEY]);
    // The validator manager: ewoq's EVM address sends the L1's warp messages in this test.
    manager = A.utils.hexToBuffer('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
  });
  afterAll(() => node.stop());

  it("the chain a CreateChainTx makes at run time gets ICM's messenger and registry once it runs", async () => {
    const url = `${node.uri}/ext/bc/${chainID}/rpc`;
    const code = (address: string) => call(url, 'eth_getCode', [address, 'latest']);
    expect((await code('0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf')).length).toBeGreaterThan(1000);
    expect((await code('0xF86Cb19Ad8405AEFa7d09C778215D2Cb6eBfB228')).length).toBeGreaterThan(1000);
    const info = await call(`${node.uri}/ext/emulator`, 'emulator.icmInfo');
    expect(info.chains.map((c: { blockchainID: string }) => c.blockchainID)).toContain(chainID);
  });

  it('ConvertSubnetToL1Tx with the node (its key from info.getNodeID) as the first validator', async () => {
    const { nodeID, nodePOP } = await call(`${node.uri}/ext/info`, 'info.getNodeID');
    const vdr = await nodeAsL1Validator(w);
    const tx = A.pvm.e.newConvertSubnetToL1Tx(
      { ...(await w.common()), subnetId: subnetID, chainId: chainID, address: manager, validators: [vdr], subnetAuth: [0] },
      w.ctx,
    );
    const before = await w.pBalance();
    const fee = await w.pFee(tx);
    await w.issueP(tx, [EWOQ_KEY]);
    // The validator's balance leaves the wallet with the fee.
    expect(await w.pBalance()).toBe(before - fee - 1_000_000_000n);
    const subnet = await call(P, 'platform.getSubnet', { subnetID });
    expect(subnet).toMatchObject({ isPermissioned: false, managerChainID: chainID, managerAddress: `0x${hex(manager)}` });
    nodeValidationID = cb58(sha256(Buffer.concat([idBytes(subnetID), u32(0)])));
    const v = await call(P, 'platform.getL1Validator', { validationID: nodeValidationID });
    expect(Object.keys(v)).toEqual([
      'nodeID',
      'weight',
      'startTime',
      'validationID',
      'publicKey',
      'remainingBalanceOwner',
      'deactivationOwner',
      'minNonce',
      'balance',
      'subnetID',
      'height',
    ]);
    expect(v).toMatchObject({ nodeID, weight: '1000', publicKey: nodePOP.publicKey, minNonce: '0', subnetID });
    expect(BigInt(v.balance)).toBeLessThanOrEqual(1_000_000_000n);
    const { validators } = await call(P, 'platform.getCurrentValidators', { subnetID });
    expect(validators.map((x: any) => x.validationID)).toEqual([nodeValidationID]);
    expect(await call(P, 'platform.getBlockchainStatus', { blockchainID: chainID })).toEqual({ status: 'Validating' });
    // Conversion is once: the subnet is immutable to PoA txs now.
    const again = A.pvm.e.newCreateChainTx(
      { ...(await w.common()), subnetId: subnetID, chainName: 'more', vmId: SUBNET_EVM, fxIds: [], genesisData: {}, subnetAuth: [0] },
      w.ctx,
    );
    await expect(w.issueP(again, [EWOQ_KEY])).rejects.toThrow(`"${subnetID}" is immutable`);
  });

  it("the P-Chain's SubnetToL1Conversion message, signed by the L1's validators", async () => {
    const { conversionID } = await call(P, 'platform.getSubnet', { subnetID });
    const payload = Buffer.concat([Buffer.alloc(2), u32(0), idBytes(conversionID)]);
    const unsigned = unsignedMessage(new Uint8Array(32), addressedCall(new Uint8Array(), payload));
    const { signedMessage } = await call(`${node.uri}/ext/emulator`, 'emulator.aggregateSignatures', {
      message: `0x${hex(unsigned)}`,
      justification: `0x${hex(idBytes(subnetID))}`,
      signingSubnetID: subnetID,
    });
    const signed = A.utils.hexToBuffer(signedMessage);
    expect(hex(signed.subarray(0, unsigned.length))).toBe(hex(unsigned));
    expect(hex(signed.subarray(unsigned.length, unsigned.length + 9))).toBe('000000000000000101');
    const sig = bls12_381.G2.Point.fromBytes(signed.subarray(unsigned.length + 9));
    expect(bls.verify(sig, bls.hash(unsigned, SIG_DST), bls.getPublicKey(NODE_SK))).toBe(true);
    // Another conversion ID is refused as avalanchego's verifier refuses it.
    const wrong = unsignedMessage(new Uint8Array(32), addressedCall(new Uint8Array(), Buffer.concat([Buffer.alloc(2), u32(0), new Uint8Array(32).fill(1)])));
    const err = await callError(`${node.uri}/ext/emulator`, 'emulator.aggregateSignatures', {
      message: `0x${hex(wrong)}`,
      justification: `0x${hex(idBytes(subnetID))}`,
      signingSubnetID: subnetID,
    });
    expect(err.message).toBe(`failed to verify message: provided conversionID ${cb58(new Uint8Array(32).fill(1))} != expected conversionID ${conversionID}`);
  });

  it('RegisterL1ValidatorTx: the message from the manager, signed by the L1, registers the validator once', async () => {
    const key = newBlsKey(5);
    const newNode = new Uint8Array(20).fill(0x42);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const register = Buffer.concat([
      Buffer.alloc(2),
      u32(1),
      idBytes(subnetID),
      withLen(newNode),
      key.pk,
      u64(now + 3600n),
      owner(w.addr),
      owner(w.addr),
      u64(50n),
    ]);
    const message = signedByNode(unsignedMessage(idBytes(chainID), addressedCall(manager, register)));
    const tx = A.pvm.e.newRegisterL1ValidatorTx({ ...(await w.common()), balance: 2_000_000_000n, blsSignature: key.pop, message }, w.ctx);
    await w.issueP(tx);
    registeredID = cb58(sha256(register));
    registeredKey = key.pk;
    expect(await call(P, 'platform.getL1Validator', { validationID: registeredID })).toMatchObject({
      nodeID: `NodeID-${cb58(newNode)}`,
      weight: '50',
      publicKey: `0x${hex(key.pk)}`,
      subnetID,
    });
    const height = (await call(P, 'platform.getHeight')).height;
    const set = await call(P, 'platform.getValidatorsAt', { height, subnetID });
    expect(Object.values(set).map((v: any) => v.weight)).toEqual(expect.arrayContaining(['1000', '50']));
    // The same message again, signed for today's set (the node holds 1000 of 1050): replay protection by its expiry entry.
    const again = signedByNode(unsignedMessage(idBytes(chainID), addressedCall(manager, register)), [key.pk]);
    const replay = A.pvm.e.newRegisterL1ValidatorTx({ ...(await w.common()), balance: 2_000_000_000n, blsSignature: key.pop, message: again }, w.ctx);
    await expect(w.issueP(replay)).rejects.toThrow(`warp message already issued for validationID ${registeredID}`);
    // A message signed by a key outside the L1 fails the P-Chain's warp check.
    // The P-Chain signs L1ValidatorRegistration(validationID, true) once the validator exists.
    const reg = Buffer.concat([Buffer.alloc(2), u32(2), idBytes(registeredID), Uint8Array.of(1)]);
    const regMsg = unsignedMessage(new Uint8Array(32), addressedCall(new Uint8Array(), reg));
    const { signedMessage } = await call(`${node.uri}/ext/emulator`, 'emulator.aggregateSignatures', {
      message: `0x${hex(regMsg)}`,
      signingSubnetID: subnetID,
    });
    expect(signedMessage.length).toBeGreaterThan(2 * regMsg.length);
  });

  it('SetL1ValidatorWeightTx changes the weight with the next nonce; a stale nonce is refused', async () => {
    const weight = (nonce: bigint, w8: bigint) => Buffer.concat([Buffer.alloc(2), u32(3), idBytes(registeredID), u64(nonce), u64(w8)]);
    const msg = (p: Uint8Array) => signedByNode(unsignedMessage(idBytes(chainID), addressedCall(manager, p)), [registeredKey]);
    await w.issueP(A.pvm.e.newSetL1ValidatorWeightTx({ ...(await w.common()), message: msg(weight(0n, 70n)) }, w.ctx));
    expect(await call(P, 'platform.getL1Validator', { validationID: registeredID })).toMatchObject({ weight: '70', minNonce: '1' });
    const stale = A.pvm.e.newSetL1ValidatorWeightTx({ ...(await w.common()), message: msg(weight(0n, 60n)) }, w.ctx);
    await expect(w.issueP(stale)).rejects.toThrow('warp message contains stale nonce 0 must be at least 1');
    // The P-Chain signs L1ValidatorWeight for the current weight and nonce.
    const echo = unsignedMessage(new Uint8Array(32), addressedCall(new Uint8Array(), weight(0n, 70n)));
    await call(`${node.uri}/ext/emulator`, 'emulator.aggregateSignatures', { message: `0x${hex(echo)}`, signingSubnetID: subnetID });
  });

  it('IncreaseL1ValidatorBalanceTx adds balance; DisableL1ValidatorTx refunds what is left to the owner', async () => {
    const before = BigInt((await call(P, 'platform.getL1Validator', { validationID: registeredID })).balance);
    await w.issueP(A.pvm.e.newIncreaseL1ValidatorBalanceTx({ ...(await w.common()), balance: 500_000_000n, validationId: registeredID }, w.ctx));
    const increased = BigInt((await call(P, 'platform.getL1Validator', { validationID: registeredID })).balance);
    expect(increased).toBeGreaterThan(before + 500_000_000n - 10n);
    const p0 = await w.pBalance();
    const disable = A.pvm.e.newDisableL1ValidatorTx({ ...(await w.common()), validationId: registeredID, disableAuth: [0] }, w.ctx);
    const fee = await w.pFee(disable);
    await w.issueP(disable, [EWOQ_KEY]);
    const after = await call(P, 'platform.getL1Validator', { validationID: registeredID });
    expect(after.balance).toBe('0');
    const refunded = (await w.pBalance()) - (p0 - fee);
    expect(refunded).toBeGreaterThan(increased - 10n);
    expect(refunded).toBeLessThanOrEqual(increased);
    // Inactive weight is listed under the empty node ID, without a key.
    const height = (await call(P, 'platform.getHeight')).height;
    const set = await call(P, 'platform.getValidatorsAt', { height, subnetID });
    expect(set['NodeID-111111111111111111116DBWJs']).toEqual({ publicKey: null, weight: '70' });
  });
});

describe('an L1 validator whose balance runs out', () => {
  it('is deactivated when the P-Chain reaches the time its balance pays for, and the L1 reports it inactive', async () => {
    const node = await startTestNode();
    try {
      const P = `${node.uri}/ext/bc/P`;
      const w = await new Wallet(node.uri).init();
      const subnetID = await w.issueP(A.pvm.e.newCreateSubnetTx({ ...(await w.common()), subnetOwners: [w.addr] }, w.ctx));
      const genesis = JSON.parse(readFileSync(new URL('../fixtures/myl1.json', import.meta.url), 'utf8'));
      const chainID = await w.issueP(
        A.pvm.e.newCreateChainTx(
          { ...(await w.common()), subnetId: subnetID, chainName: 'myl1', vmId: SUBNET_EVM, fxIds: [], genesisData: genesis, subnetAuth: [0] },
          w.ctx,
        ),
        [EWOQ_KEY],
      );
      const { nodeID, nodePOP } = await call(`${node.uri}/ext/info`, 'info.getNodeID');
      const pop = new A.pvmSerial.ProofOfPossession(A.utils.hexToBuffer(nodePOP.publicKey), A.utils.hexToBuffer(nodePOP.proofOfPossession));
      // 3,600 nAVAX at 1 nAVAX a second: an hour of validation.
      const vdr = A.L1Validator.fromNative(nodeID, 10n, 3_600n, pop, A.PChainOwner.fromNative([w.addr], 1), A.PChainOwner.fromNative([w.addr], 1));
      await w.issueP(
        A.pvm.e.newConvertSubnetToL1Tx(
          { ...(await w.common()), subnetId: subnetID, chainId: chainID, address: new Uint8Array(20), validators: [vdr], subnetAuth: [0] },
          w.ctx,
        ),
        [EWOQ_KEY],
      );
      const validationID = cb58(sha256(Buffer.concat([idBytes(subnetID), u32(0)])));
      const l1View = async () => (await call(`${node.uri}/ext/bc/${chainID}/validators`, 'validators.getCurrentValidators', {})).validators;
      expect(await l1View()).toEqual([expect.objectContaining({ validationID, isActive: true })]);
      const height = BigInt((await call(P, 'platform.getHeight')).height);
      await call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: 7200 });
      // The P-Chain builds a block of its own at the time the balance runs out.
      expect(BigInt((await call(P, 'platform.getHeight')).height)).toBe(height + 1n);
      const { block } = await call(P, 'platform.getBlockByHeight', { height: String(height + 1n), encoding: 'json' });
      expect(block.txs).toEqual([]);
      expect((await call(P, 'platform.getL1Validator', { validationID })).balance).toBe('0');
      expect(await l1View()).toEqual([expect.objectContaining({ validationID, isActive: false })]);
    } finally {
      await node.stop();
    }
  });
});

describe('the L1s of --l1, created by P-Chain txs', () => {
  it('get the IDs of their CreateSubnetTx and CreateChainTx, keep them across a restart, and follow the P-Chain for their validators', async () => {
    const fixture = new URL('../fixtures/myl1.json', import.meta.url).pathname;
    const dataDir = (await import('./helpers.js')).tempDir();
    let node = await startTestNode({ dataDir, l1: [fixture] });
    const P = () => `${node.uri}/ext/bc/P`;
    try {
      const { blockchainID } = await call(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' });
      const { subnetID } = await call(P(), 'platform.validatedBy', { blockchainID });
      // The chain's CreateChainTx carries the file's bytes as its genesis, under the file's name.
      const { tx } = await call(P(), 'platform.getTx', { txID: blockchainID, encoding: 'json' });
      expect(tx.unsignedTx).toMatchObject({ subnetID, chainName: 'myl1', vmID: SUBNET_EVM });
      expect(Buffer.from(tx.unsignedTx.genesisData, 'base64').equals(readFileSync(fixture))).toBe(true);
      const subnet = await call(P(), 'platform.getSubnet', { subnetID });
      expect(subnet).toMatchObject({ isPermissioned: false, managerChainID: blockchainID, managerAddress: '0x0feedc0de0000000000000000000000000000000' });
      const [v] = (await call(P(), 'platform.getCurrentValidators', { subnetID })).validators;
      expect(v).toMatchObject({ nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', weight: '100' });
      const l1View = async () => (await call(`${node.uri}/ext/bc/myl1/validators`, 'validators.getCurrentValidators', {})).validators;
      expect(await l1View()).toEqual([
        expect.objectContaining({ validationID: v.validationID, nodeID: v.nodeID, weight: 100, isActive: true, isL1Validator: true }),
      ]);
      const height = (await call(P(), 'platform.getHeight')).height;
      await node.stop();

      node = await startTestNode({ dataDir, l1: [fixture] });
      expect((await call(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).blockchainID).toBe(blockchainID);
      expect((await call(P(), 'platform.getHeight')).height).toBe(height);
      // Disabling the validator on the P-Chain is what the L1 then reports.
      const w = await new Wallet(node.uri).init();
      await w.issueP(A.pvm.e.newDisableL1ValidatorTx({ ...(await w.common()), validationId: v.validationID, disableAuth: [0] }, w.ctx), [EWOQ_KEY]);
      expect(await l1View()).toEqual([expect.objectContaining({ validationID: v.validationID, isActive: false })]);
    } finally {
      await node.stop();
    }
  });
});
