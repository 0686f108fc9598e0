// The P-Chain as a real local node serves it: the local genesis read through the platform API,
// and subnets, chains and validators created by txs that avalanchejs' pvm builders build and sign.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, rpc, startTestNode, type TestNode } from './helpers.js';
import { A, EWOQ_KEY, Wallet } from './support/pvm.js';

const P_GENESIS_STAKERS = [
  'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
  'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
  'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
  'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
  'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
];
const X_ID = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const C_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const PRIMARY = '11111111111111111111111111111111LpoYY';
const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';

describe('the P-Chain at genesis', () => {
  let node: TestNode;
  let P: string;
  beforeAll(async () => {
    node = await startTestNode();
    P = `${node.uri}/ext/bc/P`;
  });
  afterAll(() => node.stop());

  it('height 0, the genesis commit block, chain time at the genesis start', async () => {
    expect(await call(P, 'platform.getHeight')).toEqual({ height: '0' });
    const { block } = await call(P, 'platform.getBlockByHeight', { height: '0' });
    // ApricotCommitBlock{parent = genesis ID, height 0}: 46 bytes with the hex checksum.
    expect(block).toMatch(/^0x000000000002[0-9a-f]{64}0000000000000000[0-9a-f]{8}$/);
    const json = await call(P, 'platform.getBlockByHeight', { height: 0, encoding: 'json' });
    expect(Object.keys(json.block)).toEqual(['parentID', 'height', 'id']);
    expect(await call(P, 'platform.getBlock', { blockID: json.block.id })).toEqual({ block, encoding: 'hex' });
    const { timestamp } = await call(P, 'platform.getTimestamp');
    expect(timestamp).toMatch(/^20\d\d-\d\d-\d\dT04:00:00Z$/);
    expect((await callError(P, 'platform.getBlockByHeight', { height: 7 })).message).toBe("couldn't get block at height 7: not found");
  });

  it("ewoq's unlocked allocations: two UTXOs, 30,000,000 AVAX", async () => {
    const w = new Wallet(node.uri);
    const balance = await call(P, 'platform.getBalance', { addresses: [w.pAddr] });
    expect(balance).toMatchObject({ balance: '30000000000000000', unlocked: '30000000000000000', lockedStakeable: '0', lockedNotStakeable: '0' });
    expect(balance.balances).toEqual({ [AVAX]: '30000000000000000' });
    expect(balance.lockedStakeables).toEqual({});
    const { utxos, numFetched } = await call(P, 'platform.getUTXOs', { addresses: [w.pAddr] });
    expect(numFetched).toBe('2');
    // txs.Codec UTXO bytes of allocation 0 (2e16 nAVAX to ewoq), with formatting's checksum.
    expect(utxos).toContain(
      '0x0000000000000000000000000000000000000000000000000000000000000000000000000000dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db0000000700470de4df820000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c029dcc39',
    );
    expect((await call(P, 'platform.getBalance', { addresses: [] })).utxoIDs).toBeNull();
  });

  it('the five genesis stakers, by end time, with rewards and BLS keys', async () => {
    const { validators } = await call(P, 'platform.getCurrentValidators');
    expect(validators.map((v: any) => v.nodeID)).toEqual(P_GENESIS_STAKERS);
    const self = validators.at(-1);
    expect(Object.keys(self)).toEqual([
      'txID',
      'startTime',
      'endTime',
      'weight',
      'nodeID',
      'validationRewardOwner',
      'delegationRewardOwner',
      'potentialReward',
      'accruedDelegateeReward',
      'delegationFee',
      'uptime',
      'connected',
      'signer',
      'delegatorCount',
      'delegatorWeight',
    ]);
    expect(self).toMatchObject({
      weight: '2000000000000000',
      potentialReward: '239043697070926',
      delegationFee: '100.0000',
      uptime: '100.0000',
      connected: true,
    });
    expect(self.signer.publicKey).toBe('0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d');
    expect(validators.map((v: any) => v.delegationFee)).toEqual(['6.2500', '12.5000', '25.0000', '50.0000', '100.0000']);
    const at0 = await call(P, 'platform.getValidatorsAt', { height: 0 });
    expect(Object.keys(at0)).toEqual([...P_GENESIS_STAKERS].sort());
    expect(at0['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg']).toEqual({ publicKey: self.signer.publicKey, weight: '2000000000000000' });
    expect((await callError(P, 'platform.getValidatorsAt', { height: 5 })).message).toBe(
      `failed to get validator set at 5: failed to fetch validator set at unfinalized height with SubnetID = ${PRIMARY}: current P-chain height (0) < requested P-Chain height (5)`,
    );
    expect(await call(P, 'platform.getCurrentSupply')).toEqual({ supply: '361196333750752149', height: '0' });
    expect(await call(P, 'platform.getTotalStake', { subnetID: PRIMARY })).toEqual({ stake: '10000000000000000', weight: '10000000000000000' });
    // The genesis stakers' stake is held by one address: its outputs are encoded, but not as JSON
    // (GetStake encodes each output once all are found and names the first by its asset ID).
    const staker = { addresses: ['P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2'] };
    const stake = await call(P, 'platform.getStake', { ...staker, encoding: 'hex' });
    expect(stake).toMatchObject({ staked: '10000000000000000', encoding: 'hex' });
    expect(stake.stakedOutputs).toHaveLength(5);
    expect(await callError(P, 'platform.getStake', { ...staker, encoding: 'json' })).toEqual({
      code: -32000,
      message: `couldn't encode output ${Object.keys(stake.stakeds)[0]} as json: unsupported encoding in method`,
      data: null,
    });
    expect(await call(P, 'platform.getStake', { addresses: ['P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'], encoding: 'json' })).toMatchObject({
      staked: '0',
      stakedOutputs: [],
      encoding: 'json',
    });
  });

  it('the primary network: X and C created by genesis txs, fee config and state', async () => {
    expect(await call(P, 'platform.getBlockchains')).toEqual({
      blockchains: [
        { id: X_ID, name: 'X-Chain', subnetID: PRIMARY, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq' },
        { id: C_ID, name: 'C-Chain', subnetID: PRIMARY, vmID: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6' },
      ],
    });
    expect(await call(P, 'platform.getSubnets')).toEqual({ subnets: [{ id: PRIMARY, controlKeys: [], threshold: '0' }] });
    expect(await call(P, 'platform.validates', { subnetID: PRIMARY })).toEqual({ blockchainIDs: [X_ID, C_ID] });
    expect(await call(P, 'platform.validatedBy', { blockchainID: C_ID })).toEqual({ subnetID: PRIMARY });
    expect(await call(P, 'platform.getBlockchainStatus', { blockchainID: 'X' })).toEqual({ status: 'Validating' });
    expect(await call(P, 'platform.getStakingAssetID')).toEqual({ assetID: AVAX });
    expect(await call(P, 'platform.getMinStake')).toEqual({ minValidatorStake: '2000000000000', minDelegatorStake: '25000000000' });
    expect((await call(P, 'platform.getTx', { txID: C_ID })).tx).toMatch(/^0x00000000000f00003039/);
    expect(await call(P, 'platform.getTxStatus', { txID: X_ID })).toEqual({ status: 'Committed' });
    expect(await call(P, 'platform.getFeeConfig')).toEqual({
      weights: [1, 1000, 1000, 4],
      maxCapacity: 1000000,
      maxPerSecond: 100000,
      targetPerSecond: 50000,
      minPrice: 1,
      excessConversionConstant: 2164043,
    });
    expect(await call(P, 'platform.getValidatorFeeConfig')).toEqual({ capacity: 20000, target: 10000, minPrice: 1, excessConversionConstant: 865617 });
    expect((await callError(P, 'platform.getSubnet', { subnetID: PRIMARY })).message).toBe("the primary network isn't a subnet");
    expect((await callError(P, 'platform.getTx', { txID: '2EMQkbjh1YYPsgsMtjWveeQcKvtttNKwVhuR1kcjhBmrRgPcpk' })).message).toBe("couldn't get tx: not found");
  });
});

describe('subnets and chains created by avalanchejs txs', () => {
  let node: TestNode;
  let P: string;
  let w: Wallet;
  const owner2 = new Uint8Array(32).fill(7);
  let subnetID: string;
  let chainID: string;

  beforeAll(async () => {
    node = await startTestNode({ indexEnabled: true });
    P = `${node.uri}/ext/bc/P`;
    w = await new Wallet(node.uri).init();
  });
  afterAll(() => node.stop());

  it('CreateSubnetTx: the subnet ID is the tx ID, the fee is gas at price 1', async () => {
    const before = await w.pBalance();
    const tx = A.pvm.e.newCreateSubnetTx({ ...(await w.common()), subnetOwners: [w.addr] }, w.ctx);
    const fee = await w.pFee(tx);
    expect(fee).toBe(5139n);
    subnetID = await w.issueP(tx);
    expect(await w.pBalance()).toBe(before - fee);
    expect(await call(P, 'platform.getSubnet', { subnetID })).toEqual({
      isPermissioned: true,
      controlKeys: [w.pAddr],
      threshold: '1',
      locktime: '0',
      subnetTransformationTxID: PRIMARY,
      conversionID: PRIMARY,
      managerChainID: PRIMARY,
      managerAddress: null,
    });
    expect(await call(P, 'platform.getTxStatus', { txID: subnetID })).toEqual({ status: 'Committed' });
    // The signed bytes come back from getTx, and the tx sits in block 1.
    expect((await call(P, 'platform.getTx', { txID: subnetID })).tx).toBe(await w.sign(tx));
    const { block } = await call(P, 'platform.getBlockByHeight', { height: 1, encoding: 'json' });
    expect(block.txs.map((t: any) => t.id)).toEqual([subnetID]);
    expect(block.txs[0].unsignedTx.owner).toEqual({ addresses: [w.pAddr], locktime: 0, threshold: 1 });
  });

  it('CreateChainTx with a Subnet-EVM genesis: served at /ext/bc/<tx ID>/rpc when issueTx returns', async () => {
    const genesis = JSON.parse(readFileSync(new URL('../fixtures/myl1.json', import.meta.url), 'utf8'));
    const tx = A.pvm.e.newCreateChainTx(
      { ...(await w.common()), subnetId: subnetID, chainName: 'myl1', vmId: SUBNET_EVM, fxIds: [], genesisData: genesis, subnetAuth: [0] },
      w.ctx,
    );
    chainID = await w.issueP(tx, [EWOQ_KEY]);
    const reply = await rpc(`${node.uri}/ext/bc/${chainID}/rpc`, 'eth_chainId', []);
    expect(reply.json.result).toBe(`0x${BigInt(genesis.config.chainId).toString(16)}`);
    expect(await call(P, 'platform.validatedBy', { blockchainID: chainID })).toEqual({ subnetID });
    expect(await call(P, 'platform.validates', { subnetID })).toEqual({ blockchainIDs: [chainID] });
    const { blockchains } = await call(P, 'platform.getBlockchains');
    expect(blockchains[0]).toEqual({ id: chainID, name: 'myl1', subnetID, vmID: SUBNET_EVM });
    // The node runs the chain but does not validate its subnet yet.
    expect(await call(P, 'platform.getBlockchainStatus', { blockchainID: chainID })).toEqual({ status: 'Syncing' });
    const health = await call(`${node.uri}/ext/health`, 'health.health');
    expect(Object.keys(health.checks)).toContain(chainID);
  });

  it('a subnet tx without the owner signature is refused with the real text, and stays refused', async () => {
    const tx = A.pvm.e.newCreateChainTx(
      { ...(await w.common()), subnetId: subnetID, chainName: 'other', vmId: SUBNET_EVM, fxIds: [], genesisData: {}, subnetAuth: [0] },
      w.ctx,
    );
    const signed = await w.sign(tx);
    const id = A.utils.base58check.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', tx.getSignedTx().toBytes())));
    const err = await callError(P, 'platform.issueTx', { tx: signed, encoding: 'hex' });
    expect(err.message).toBe(
      `couldn't issue tx: failed verification: failed execution: standard tx ${id} failed execution: unauthorized modification: invalid signature`,
    );
    expect(await call(P, 'platform.getTxStatus', { txID: id })).toEqual({
      status: 'Dropped',
      reason: `failed execution: standard tx ${id} failed execution: unauthorized modification: invalid signature`,
    });
  });

  it('AddSubnetValidatorTx, TransferSubnetOwnershipTx, RemoveSubnetValidatorTx', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const nodeId = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
    const add = A.pvm.e.newAddSubnetValidatorTx(
      { ...(await w.common()), subnetId: subnetID, nodeId, start: now, end: now + 2n * 86400n, weight: 20n, subnetAuth: [0] },
      w.ctx,
    );
    const addID = await w.issueP(add, [EWOQ_KEY]);
    const { validators } = await call(P, 'platform.getCurrentValidators', { subnetID });
    expect(validators).toHaveLength(1);
    expect(validators[0]).toMatchObject({ txID: addID, weight: '20', nodeID: nodeId, endTime: String(now + 2n * 86400n) });
    expect(Object.keys(validators[0])).toEqual(['txID', 'startTime', 'endTime', 'weight', 'nodeID']);
    expect(await call(P, 'platform.getBlockchainStatus', { blockchainID: chainID })).toEqual({ status: 'Validating' });
    // Deprecated `stake` comes with `weight` for every subnet.
    expect(await call(P, 'platform.getTotalStake', { subnetID })).toEqual({ stake: '20', weight: '20' });
    // An accepted tx of another kind is named as such.
    expect((await callError(P, 'platform.getSubnet', { subnetID: chainID })).message).toBe(`"${chainID}" is not a subnet`);
    expect((await callError(P, 'platform.validatedBy', { blockchainID: subnetID })).message).toBe(`"${subnetID}" is not a blockchain`);
    expect((await callError(P, 'platform.validates', { subnetID: addID })).message).toBe(`"${addID}" is not a subnet`);
    const height = (await call(P, 'platform.getHeight')).height;
    expect(await call(P, 'platform.getValidatorsAt', { height, subnetID })).toEqual({
      [nodeId]: { publicKey: '0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d', weight: '20' },
    });
    // A second validator on the same node is a duplicate.
    const dup = A.pvm.e.newAddSubnetValidatorTx(
      { ...(await w.common()), subnetId: subnetID, nodeId, start: now, end: now + 2n * 86400n, weight: 5n, subnetAuth: [0] },
      w.ctx,
    );
    await expect(w.issueP(dup, [EWOQ_KEY])).rejects.toThrow(`attempted to issue duplicate validator for ${nodeId} on subnet ${subnetID}`);

    const newOwner = A.secp256k1.publicKeyBytesToAddress(A.secp256k1.getPublicKey(owner2));
    const transfer = A.pvm.e.newTransferSubnetOwnershipTx({ ...(await w.common()), subnetId: subnetID, subnetOwners: [newOwner], subnetAuth: [0] }, w.ctx);
    await w.issueP(transfer, [EWOQ_KEY]);
    expect((await call(P, 'platform.getSubnet', { subnetID })).controlKeys).toEqual([A.utils.format('P', 'local', newOwner)]);

    // ewoq no longer owns the subnet: only the new owner's key authorizes.
    const removeTx = A.pvm.e.newRemoveSubnetValidatorTx({ ...(await w.common()), subnetId: subnetID, nodeId, subnetAuth: [0] }, w.ctx);
    await expect(w.issueP(removeTx, [EWOQ_KEY])).rejects.toThrow(/unauthorized modification: wrong signature: expected signature from \w+ but got from \w+/);
    const removeTx2 = A.pvm.e.newRemoveSubnetValidatorTx({ ...(await w.common()), subnetId: subnetID, nodeId, subnetAuth: [0] }, w.ctx);
    await w.issueP(removeTx2, [owner2]);
    expect(await call(P, 'platform.getCurrentValidators', { subnetID })).toEqual({ validators: [] });
  });

  it('proposervm.getProposedHeight and getCurrentEpoch on P and C follow the P-Chain height', async () => {
    const height = (await call(P, 'platform.getHeight')).height;
    expect(await call(`${node.uri}/ext/bc/P/proposervm`, 'proposervm.getProposedHeight')).toEqual({ height });
    expect(await call(`${node.uri}/ext/bc/C/proposervm`, 'proposervm.getProposedHeight')).toEqual({ height });
    const epoch = await call(`${node.uri}/ext/bc/P/proposervm`, 'proposervm.getCurrentEpoch');
    expect(Object.keys(epoch)).toEqual(['number', 'startTime', 'pChainHeight']);
    expect(Number(epoch.number)).toBeGreaterThanOrEqual(1);
    // The C-Chain has built no block yet: its first epoch starts at its genesis, at P-Chain height 0.
    const genesis = (await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_getBlockByNumber', ['0x0', false])).json.result;
    expect(await call(`${node.uri}/ext/bc/C/proposervm`, 'proposervm.getCurrentEpoch')).toEqual({
      number: '1',
      startTime: String(BigInt(genesis.timestamp)),
      pChainHeight: '0',
    });
  });

  it('every block is indexed at /ext/index/P/block, proposervm-wrapped', async () => {
    const height = Number((await call(P, 'platform.getHeight')).height);
    const { containers } = await call(`${node.uri}/ext/index/P/block`, 'index.getContainerRange', { startIndex: 0, numToFetch: 100, encoding: 'hex' });
    expect(containers).toHaveLength(height);
    const last = await call(`${node.uri}/ext/index/P/block`, 'index.getLastAccepted', { encoding: 'hex' });
    expect(last.id).toBe(containers.at(-1).id);
    const inner = (await call(P, 'platform.getBlockByHeight', { height })).block.slice(2, -8);
    expect(last.bytes).toContain(inner);
  });
});

describe('AVAX between X and P through shared memory', () => {
  let node: TestNode;
  let w: Wallet;
  beforeAll(async () => {
    node = await startTestNode();
    w = await new Wallet(node.uri).init();
  });
  afterAll(() => node.stop());

  it('X → P: avm ExportTx, then pvm ImportTx reading platform.getUTXOs({sourceChain: "X"})', async () => {
    const [x0, p0] = [await w.xBalance(), await w.pBalance()];
    const amount = 5_000_000_000n;
    const out = A.TransferableOutput.fromNative(w.ctx.avaxAssetID, amount, [w.addr]);
    const exportTx = A.avm.newExportTx(w.ctx, w.ctx.pBlockchainID, [w.addr], await w.xUTXOs(), [out]);
    await w.issueX(exportTx);
    expect(await w.xBalance()).toBe(x0 - amount - w.ctx.baseTxFee);
    const atomic = await call(`${node.uri}/ext/bc/P`, 'platform.getUTXOs', { addresses: [w.pAddr], sourceChain: 'X' });
    expect(atomic.numFetched).toBe('1');
    const importTx = A.pvm.e.newImportTx({ ...(await w.common(w.ctx.xBlockchainID)), sourceChainId: w.ctx.xBlockchainID, toAddressesBytes: [w.addr] }, w.ctx);
    const fee = await w.pFee(importTx);
    const importID = await w.issueP(importTx);
    expect(await w.pBalance()).toBe(p0 + amount - fee);
    expect((await call(`${node.uri}/ext/bc/P`, 'platform.getUTXOs', { addresses: [w.pAddr], sourceChain: 'X' })).numFetched).toBe('0');
    // Spending the same atomic UTXO again: it is gone from shared memory.
    const again = await rpc(`${node.uri}/ext/bc/P`, 'platform.issueTx', { tx: await w.sign(importTx), encoding: 'hex' });
    expect(again.json.error.message).toContain('failed execution');
    expect(await call(`${node.uri}/ext/bc/P`, 'platform.getTxStatus', { txID: importID })).toEqual({ status: 'Committed' });
  });

  it('P → X: pvm ExportTx, then avm ImportTx reading avm.getUTXOs({sourceChain: "P"}); totals add up', async () => {
    const [x0, p0] = [await w.xBalance(), await w.pBalance()];
    const amount = 3_000_000_000n;
    const exportTx = A.pvm.e.newExportTx(
      { ...(await w.common()), destinationChainId: w.ctx.xBlockchainID, outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, amount, [w.addr])] },
      w.ctx,
    );
    const fee = await w.pFee(exportTx);
    await w.issueP(exportTx);
    expect(await w.pBalance()).toBe(p0 - amount - fee);
    const importTx = A.avm.newImportTx(w.ctx, w.ctx.pBlockchainID, await w.xUTXOs(w.ctx.pBlockchainID), [w.addr], [w.addr]);
    await w.issueX(importTx);
    expect(await w.xBalance()).toBe(x0 + amount - w.ctx.baseTxFee);
    expect(await w.xUTXOs(w.ctx.pBlockchainID)).toHaveLength(0);
  });
});

describe('AVAX between P and C', () => {
  let node: TestNode;
  let w: Wallet;
  const EWOQ_ETH = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
  const eth = async (method: string, params: unknown[]) => (await rpc(`${node.uri}/ext/bc/C/rpc`, method, params)).json.result;
  beforeAll(async () => {
    node = await startTestNode();
    w = await new Wallet(node.uri).init();
  });
  afterAll(() => node.stop());

  it('P → C: pvm ExportTx, then coreth ImportTx (avalanchejs evm builder) over avax.getUTXOs({sourceChain: "P"})', async () => {
    const amount = 7_000_000_000n;
    const exportTx = A.pvm.e.newExportTx(
      { ...(await w.common()), destinationChainId: w.ctx.cBlockchainID, outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, amount, [w.addr])] },
      w.ctx,
    );
    await w.issueP(exportTx);
    const cApi = new A.evm.EVMApi(node.uri);
    const { utxos } = await cApi.getUTXOs({ addresses: [w.cAddr], sourceChain: 'P' });
    expect(utxos).toHaveLength(1);
    const before = BigInt(await eth('eth_getBalance', [EWOQ_ETH, 'latest']));
    const importTx = A.evm.newImportTxFromBaseFee(w.ctx, A.utils.hexToBuffer(EWOQ_ETH), [w.addr], utxos, w.ctx.pBlockchainID, await cApi.getBaseFee());
    const credited = importTx.getTx().Outs.reduce((s: bigint, o: any) => s + o.amount.value(), 0n);
    await A.addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] });
    const { txID } = await cApi.issueSignedTx(importTx.getSignedTx());
    expect((await cApi.getAtomicTxStatus(txID)).status).toBe('Accepted');
    expect(BigInt(await eth('eth_getBalance', [EWOQ_ETH, 'latest']))).toBe(before + credited * 1_000_000_000n);
  });

  it('C → P: coreth ExportTx, then pvm ImportTx from C', async () => {
    const amount = 2_000_000_000n;
    const cApi = new A.evm.EVMApi(node.uri);
    const nonce = BigInt(await eth('eth_getTransactionCount', [EWOQ_ETH, 'latest']));
    const exportTx = A.evm.newExportTxFromBaseFee(w.ctx, await cApi.getBaseFee(), amount, w.ctx.pBlockchainID, A.utils.hexToBuffer(EWOQ_ETH), [w.addr], nonce);
    await A.addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
    await cApi.issueSignedTx(exportTx.getSignedTx());
    const p0 = await w.pBalance();
    const importTx = A.pvm.e.newImportTx({ ...(await w.common(w.ctx.cBlockchainID)), sourceChainId: w.ctx.cBlockchainID, toAddressesBytes: [w.addr] }, w.ctx);
    const fee = await w.pFee(importTx);
    await w.issueP(importTx);
    expect(await w.pBalance()).toBe(p0 + amount - fee);
  });
});

describe('primary-network staking', () => {
  let node: TestNode;
  let w: Wallet;
  let P: string;
  beforeAll(async () => {
    node = await startTestNode();
    P = `${node.uri}/ext/bc/P`;
    w = await new Wallet(node.uri).init();
  });
  afterAll(() => node.stop());

  it('AddPermissionlessValidatorTx and AddPermissionlessDelegatorTx lock their stake and mint their potential reward into the supply', async () => {
    const { bls12_381 } = await import('@noble/curves/bls12-381.js');
    const sk = new Uint8Array(32).fill(9);
    const pk = bls12_381.longSignatures.getPublicKey(sk).toBytes(true);
    const pop = bls12_381.longSignatures.sign(bls12_381.longSignatures.hash(pk, 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'), sk).toBytes(true);
    const nodeId = `NodeID-${A.utils.base58check.encode(new Uint8Array(20).fill(3))}`;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const stake = 2_000_000_000_000n;
    const supply0 = BigInt((await call(P, 'platform.getCurrentSupply')).supply);
    const before = await w.pBalance();
    const tx = A.pvm.e.newAddPermissionlessValidatorTx(
      {
        ...(await w.common()),
        nodeId,
        start: now,
        end: now + 30n * 86400n,
        weight: stake,
        subnetId: PRIMARY,
        shares: 20000,
        publicKey: pk,
        signature: pop,
        rewardAddresses: [w.addr],
        delegatorRewardsOwner: [w.addr],
      },
      w.ctx,
    );
    const fee = await w.pFee(tx);
    const txID = await w.issueP(tx);
    expect(await w.pBalance()).toBe(before - stake - fee);
    const { validators } = await call(P, 'platform.getCurrentValidators', { nodeIDs: [nodeId] });
    expect(validators[0]).toMatchObject({ txID, nodeID: nodeId, weight: String(stake), delegationFee: '2.0000', delegatorCount: '0', delegators: [] });
    const reward = BigInt(validators[0].potentialReward);
    expect(reward).toBeGreaterThan(0n);
    expect(BigInt((await call(P, 'platform.getCurrentSupply')).supply)).toBe(supply0 + reward);

    const delegation = A.pvm.e.newAddPermissionlessDelegatorTx(
      { ...(await w.common()), nodeId, start: now, end: now + 10n * 86400n, weight: 25_000_000_000n, subnetId: PRIMARY, rewardAddresses: [w.addr] },
      w.ctx,
    );
    await w.issueP(delegation);
    const after = (await call(P, 'platform.getCurrentValidators', { nodeIDs: [nodeId] })).validators[0];
    expect(after).toMatchObject({ delegatorCount: '1', delegatorWeight: '25000000000' });
    expect(after.delegators[0]).toMatchObject({ nodeID: nodeId, weight: '25000000000' });
    // A second validator for the node, and a stake under the minimum, are refused with their texts.
    const again = A.pvm.e.newAddPermissionlessValidatorTx(
      {
        ...(await w.common()),
        nodeId,
        start: now,
        end: now + 30n * 86400n,
        weight: stake,
        subnetId: PRIMARY,
        shares: 20000,
        publicKey: pk,
        signature: pop,
        rewardAddresses: [w.addr],
        delegatorRewardsOwner: [w.addr],
      },
      w.ctx,
    );
    await expect(w.issueP(again)).rejects.toThrow(`duplicate validator: ${nodeId} on ${PRIMARY}`);
    const small = A.pvm.e.newAddPermissionlessDelegatorTx(
      { ...(await w.common()), nodeId, start: now, end: now + 10n * 86400n, weight: 1_000_000_000n, subnetId: PRIMARY, rewardAddresses: [w.addr] },
      w.ctx,
    );
    await expect(w.issueP(small)).rejects.toThrow('weight of this validator is too low');
    const total = BigInt((await call(P, 'platform.getTotalStake', { subnetID: PRIMARY })).weight);
    expect(total).toBe(10_000_000_000_000_000n + stake + 25_000_000_000n);
  });
});

describe('one journey X → P → C → X', () => {
  it('moves AVAX around the three chains, each tx readable back byte for byte, the totals adding up to what was spent on fees', async () => {
    const node = await startTestNode();
    try {
      const w = await new Wallet(node.uri).init();
      const EWOQ_ETH = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
      const cBalance = async () => BigInt((await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_getBalance', [EWOQ_ETH, 'latest'])).json.result) / 1_000_000_000n;
      const total = async () => (await w.xBalance()) + (await w.pBalance()) + (await cBalance());
      const start = await total();
      let fees = 0n;
      const amount = 9_000_000_000n;

      // X → P
      const xExport = A.avm.newExportTx(w.ctx, w.ctx.pBlockchainID, [w.addr], await w.xUTXOs(), [
        A.TransferableOutput.fromNative(w.ctx.avaxAssetID, amount, [w.addr]),
      ]);
      const xExportID = await w.issueX(xExport);
      fees += w.ctx.baseTxFee;
      expect((await call(`${node.uri}/ext/bc/X`, 'avm.getTx', { txID: xExportID })).tx).toBe(await w.sign(xExport));
      const pImport = A.pvm.e.newImportTx({ ...(await w.common(w.ctx.xBlockchainID)), sourceChainId: w.ctx.xBlockchainID, toAddressesBytes: [w.addr] }, w.ctx);
      fees += await w.pFee(pImport);
      const pImportID = await w.issueP(pImport);
      expect((await call(`${node.uri}/ext/bc/P`, 'platform.getTx', { txID: pImportID })).tx).toBe(await w.sign(pImport));
      const { block } = await call(`${node.uri}/ext/bc/P`, 'platform.getBlockByHeight', {
        height: (await call(`${node.uri}/ext/bc/P`, 'platform.getHeight')).height,
        encoding: 'json',
      });
      expect(block.txs.map((t: any) => t.id)).toEqual([pImportID]);
      expect(await total()).toBe(start - fees);

      // P → C
      const pExport = A.pvm.e.newExportTx(
        {
          ...(await w.common()),
          destinationChainId: w.ctx.cBlockchainID,
          outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, amount / 2n, [w.addr])],
        },
        w.ctx,
      );
      fees += await w.pFee(pExport);
      await w.issueP(pExport);
      const cApi = new A.evm.EVMApi(node.uri);
      const { utxos } = await cApi.getUTXOs({ addresses: [w.cAddr], sourceChain: 'P' });
      const cImport = A.evm.newImportTxFromBaseFee(w.ctx, A.utils.hexToBuffer(EWOQ_ETH), [w.addr], utxos, w.ctx.pBlockchainID, await cApi.getBaseFee());
      const credited = cImport.getTx().Outs.reduce((s: bigint, o: any) => s + o.amount.value(), 0n);
      fees += amount / 2n - credited;
      await A.addTxSignatures({ unsignedTx: cImport, privateKeys: [EWOQ_KEY] });
      const { txID: cImportID } = await cApi.issueSignedTx(cImport.getSignedTx());
      expect((await call(`${node.uri}/ext/bc/C/avax`, 'avax.getAtomicTx', { txID: cImportID })).tx).toBe(
        A.utils.bufferToHex(A.utils.addChecksum(cImport.getSignedTx().toBytes())),
      );
      expect(await total()).toBe(start - fees);

      // C → X
      const nonce = BigInt((await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_ETH, 'latest'])).json.result);
      const cExport = A.evm.newExportTxFromBaseFee(
        w.ctx,
        await cApi.getBaseFee(),
        1_000_000_000n,
        w.ctx.xBlockchainID,
        A.utils.hexToBuffer(EWOQ_ETH),
        [w.addr],
        nonce,
      );
      fees += cExport.getTx().ins[0].amount.value() - 1_000_000_000n;
      await A.addTxSignatures({ unsignedTx: cExport, privateKeys: [EWOQ_KEY] });
      await cApi.issueSignedTx(cExport.getSignedTx());
      const xImport = A.avm.newImportTx(w.ctx, w.ctx.cBlockchainID, await w.xUTXOs(w.ctx.cBlockchainID), [w.addr], [w.addr]);
      fees += w.ctx.baseTxFee;
      await w.issueX(xImport);
      expect(await total()).toBe(start - fees);
    } finally {
      await node.stop();
    }
  });
});

describe('the end of staking periods (emulator.advanceClock)', () => {
  it('returns every stake; rewards what the node saw up (commit) and takes back the rest (abort)', async () => {
    const node = await startTestNode({ indexEnabled: true });
    try {
      const P = `${node.uri}/ext/bc/P`;
      const w = await new Wallet(node.uri).init();
      const SELF = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
      const { bls12_381 } = await import('@noble/curves/bls12-381.js');
      const sk = new Uint8Array(32).fill(11);
      const pk = bls12_381.longSignatures.getPublicKey(sk).toBytes(true);
      const pop = bls12_381.longSignatures.sign(bls12_381.longSignatures.hash(pk, 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'), sk).toBytes(true);
      const other = `NodeID-${A.utils.base58check.encode(new Uint8Array(20).fill(5))}`;
      const now = BigInt(Math.floor(Date.now() / 1000));
      const end = now + 2n * 86400n;
      const vTx = A.pvm.e.newAddPermissionlessValidatorTx(
        {
          ...(await w.common()),
          nodeId: other,
          start: now,
          end,
          weight: 2_000_000_000_000n,
          subnetId: PRIMARY,
          shares: 20000,
          publicKey: pk,
          signature: pop,
          rewardAddresses: [w.addr],
          delegatorRewardsOwner: [w.addr],
        },
        w.ctx,
      );
      const vID = await w.issueP(vTx);
      const dTx = A.pvm.e.newAddPermissionlessDelegatorTx(
        { ...(await w.common()), nodeId: SELF, start: now, end, weight: 25_000_000_000n, subnetId: PRIMARY, rewardAddresses: [w.addr] },
        w.ctx,
      );
      const dID = await w.issueP(dTx);
      const validators = (await call(P, 'platform.getCurrentValidators')).validators;
      const vReward = BigInt(validators.find((v: any) => v.nodeID === other).potentialReward);
      const dReward = BigInt((await call(P, 'platform.getCurrentValidators', { nodeIDs: [SELF] })).validators[0].delegators[0].potentialReward);
      const supply = BigInt((await call(P, 'platform.getCurrentSupply')).supply);
      const balance = await w.pBalance();
      const height = BigInt((await call(P, 'platform.getHeight')).height);

      await call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: 3 * 86400 });
      // Two proposal blocks, each with its option: the delegator (its validator, the node, was up) commits, the other validator aborts.
      expect(BigInt((await call(P, 'platform.getHeight')).height)).toBe(height + 4n);
      const blocks = await Promise.all(
        [1n, 2n, 3n, 4n].map(async (i) => (await call(P, 'platform.getBlockByHeight', { height: String(height + i), encoding: 'json' })).block),
      );
      expect(blocks.map((b) => Object.keys(b).includes('tx'))).toEqual([true, false, true, false]);
      expect(blocks[0].tx.unsignedTx).toEqual({ txID: dID });
      expect(blocks[2].tx.unsignedTx).toEqual({ txID: vID });
      expect(await call(P, 'platform.getTxStatus', { txID: blocks[0].tx.id })).toEqual({ status: 'Committed' });
      expect(await call(P, 'platform.getTxStatus', { txID: blocks[2].tx.id })).toEqual({ status: 'Aborted' });
      // Both stakes are back; the delegator's whole reward went to the node (delegation fee 100%).
      expect(await w.pBalance()).toBe(balance + 2_000_000_000_000n + 25_000_000_000n);
      expect(BigInt((await call(P, 'platform.getCurrentSupply')).supply)).toBe(supply - vReward);
      const self = (await call(P, 'platform.getCurrentValidators', { nodeIDs: [SELF] })).validators[0];
      expect(self.accruedDelegateeReward).toBe(String(dReward));
      expect(self.delegatorCount).toBe('0');
      expect((await call(P, 'platform.getCurrentValidators', { nodeIDs: [other] })).validators).toEqual([]);
      // The options are proposervm option blocks (type 1) in the index.
      const { containers } = await call(`${node.uri}/ext/index/P/block`, 'index.getContainerRange', { startIndex: 0, numToFetch: 100, encoding: 'hex' });
      expect(containers.at(-1).bytes.slice(0, 14)).toBe('0x000000000001');

      // A year on, the genesis stakers end: the node's own validation commits with its reward and the delegatee share.
      await call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: 400 * 86400 });
      expect((await call(P, 'platform.getCurrentValidators')).validators).toEqual([]);
      const genesisTx = self.txID;
      const rewards = await call(P, 'platform.getRewardUTXOs', { txID: genesisTx });
      expect(rewards.numFetched).toBe('2');
      const total = BigInt(self.potentialReward) + dReward;
      expect(await w.pBalance()).toBe(balance + 2_000_000_000_000n + 25_000_000_000n + total);
    } finally {
      await node.stop();
    }
  });
});

describe('platform.issueTx under mutated bytes', () => {
  it('answers every mutation of a signed tx with a JSON-RPC error (no 5xx), accepts none, and still accepts the original', async () => {
    const node = await startTestNode();
    try {
      const w = await new Wallet(node.uri).init();
      const tx = A.pvm.e.newBaseTx({ ...(await w.common()), outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 12_345n, [w.addr])] }, w.ctx);
      await A.addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const bytes: Uint8Array = tx.getSignedTx().toBytes();
      let seed = 20261123;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const height = (await call(`${node.uri}/ext/bc/P`, 'platform.getHeight')).height;
      for (let i = 0; i < 300; i++) {
        const m = Uint8Array.from(bytes);
        const kind = rand(3);
        if (kind === 0) m[rand(m.length)] ^= 1 << rand(8);
        else if (kind === 1) {
          const at = rand(m.length);
          m[at] = (m[at]! + 1 + rand(255)) % 256; // another byte than the original
        }
        const cut = kind === 2 ? m.subarray(0, rand(m.length)) : m;
        const reply = await rpc(`${node.uri}/ext/bc/P`, 'platform.issueTx', { tx: A.utils.bufferToHex(A.utils.addChecksum(cut)), encoding: 'hex' });
        expect(reply.status).toBe(200);
        expect(reply.json.error?.message, `mutation ${i} was accepted`).toMatch(/^(couldn't issue tx|couldn't parse tx|problem decoding transaction)/);
      }
      expect((await call(`${node.uri}/ext/bc/P`, 'platform.getHeight')).height).toBe(height);
      await w.issueP(tx);
    } finally {
      await node.stop();
    }
  });
});
