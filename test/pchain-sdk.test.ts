// @avalanche-sdk/client's P-Chain API and its C-Chain atomic API against a started node: every
// platform method the client has answers with the shapes it parses, and an atomic P → C transfer
// goes through its cChain.issueTx, getAtomicTx and getAtomicTxStatus.
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './helpers.js';
import { A, EWOQ_KEY, Wallet } from './support/pvm.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';

describe('@avalanche-sdk/client against the P-Chain and the C-Chain atomic API', () => {
  let node: TestNode;
  let client: any;
  let w: Wallet;
  beforeAll(async () => {
    node = await startTestNode();
    client = createAvalancheClient({ chain: { ...avalancheLocal, rpcUrls: { default: { http: [`${node.uri}/ext/bc/C/rpc`] } } }, transport: { type: 'http' } });
    w = await new Wallet(node.uri).init();
  });
  afterAll(() => node.stop());

  it('answers every platform method of the client', async () => {
    const p = client.pChain;
    const subnetID = await w.issueP(A.pvm.e.newCreateSubnetTx({ ...(await w.common()), subnetOwners: [w.addr] }, w.ctx));
    expect(await p.getHeight()).toEqual({ height: '1' });
    expect(await p.getProposedHeight()).toEqual({ height: '1' });
    expect((await p.getBalance({ addresses: [w.pAddr] })).balance).toBe(30_000_000_000_000_000n - 5139n);
    expect((await p.getUTXOs({ addresses: [w.pAddr] })).numFetched).toBe('2');
    expect((await p.getCurrentValidators({})).validators).toHaveLength(5);
    expect(Object.keys(await p.getValidatorsAt({ height: 0 }))).toHaveLength(5);
    const all = await p.getAllValidatorsAt({ height: 1 });
    expect(all.validatorSets[PRIMARY].totalWeight).toBe('10000000000000000');
    expect(all.validatorSets[PRIMARY].validators).toHaveLength(5);
    expect((await p.getCurrentSupply({})).supply).toBe(361196333750752149n);
    expect((await p.getSubnets({})).subnets.map((s: any) => s.id)).toEqual([subnetID, PRIMARY]);
    expect((await p.getSubnet({ subnetID })).isPermissioned).toBe(true);
    expect((await p.getBlockchains()).blockchains).toHaveLength(2);
    expect(await p.getBlockchainStatus({ blockchainID: 'C' })).toEqual({ status: 'Validating' });
    expect((await p.getTimestamp()).timestamp).toMatch(/^\d{4}-/);
    expect((await p.getStakingAssetID({ subnetID: PRIMARY })).assetID).toBe(w.ctx.avaxAssetID);
    expect(await p.getMinStake({ subnetID: PRIMARY })).toEqual({ minValidatorStake: 2_000_000_000_000n, minDelegatorStake: 25_000_000_000n });
    expect((await p.getTotalStake({ subnetID: PRIMARY })).weight).toBe('10000000000000000');
    expect((await p.getFeeConfig()).maxCapacity).toBe(1_000_000n);
    expect((await p.getFeeState()).price).toBe(1n);
    const { block } = await p.getBlockByHeight({ height: 1, encoding: 'hex' });
    const id = (await p.getBlockByHeight({ height: 1, encoding: 'json' })).block.id;
    expect((await p.getBlock({ blockID: id, encoding: 'hex' })).block).toBe(block);
    expect((await p.getTx({ txID: subnetID, encoding: 'hex' })).tx).toMatch(/^0x/);
    expect(await p.getTxStatus({ txID: subnetID })).toEqual({ status: 'Committed' });
    // The genesis stake of X-local1g65uqn6…: five outputs of 2,000,000 AVAX.
    const stake = await p.getStake({ addresses: ['P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2'], validatorsOnly: true, encoding: 'hex' });
    expect(stake.staked).toBe('10000000000000000');
    expect(stake.stakedOutputs).toHaveLength(5);
    expect(await p.getRewardUTXOs({ txID: subnetID, encoding: 'hex' })).toEqual({ numFetched: '0', utxos: [], encoding: 'hex' });
    const sample = await p.sampleValidators({ size: 2, subnetID: PRIMARY });
    expect(sample.validators).toHaveLength(2);
    expect([...sample.validators].sort()).toEqual(sample.validators);
    expect(await p.validates({ subnetID })).toEqual({ blockchainIDs: [] });
    expect(await p.validatedBy({ blockchainID: w.ctx.cBlockchainID })).toEqual({ subnetID: PRIMARY });
    await expect(p.getL1Validator({ validationID: subnetID })).rejects.toThrow(`fetching L1 validator "${subnetID}" failed: not found`);
    const tx = A.pvm.e.newBaseTx({ ...(await w.common()), outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 1_000n, [w.addr])] }, w.ctx);
    const { txID } = await p.issueTx({ tx: await w.sign(tx), encoding: 'hex' });
    expect(await p.getTxStatus({ txID })).toEqual({ status: 'Committed' });
  });

  it('moves AVAX P → C through cChain.getUTXOs, issueTx, getAtomicTx and getAtomicTxStatus', async () => {
    const exportTx = A.pvm.e.newExportTx(
      {
        ...(await w.common()),
        destinationChainId: w.ctx.cBlockchainID,
        outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 4_000_000_000n, [w.addr])],
      },
      w.ctx,
    );
    await client.pChain.issueTx({ tx: await w.sign(exportTx), encoding: 'hex' });
    const { utxos, numFetched } = await client.cChain.getUTXOs({ addresses: [w.cAddr], sourceChain: 'P' });
    expect(numFetched).toBe('1');
    const evmApi = new A.evm.EVMApi(node.uri);
    const { utxos: parsed } = await evmApi.getUTXOs({ addresses: [w.cAddr], sourceChain: 'P' });
    const importTx = A.evm.newImportTxFromBaseFee(
      w.ctx,
      A.utils.hexToBuffer('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'),
      [w.addr],
      parsed,
      w.ctx.pBlockchainID,
      await evmApi.getBaseFee(),
    );
    await A.addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] });
    const hex = A.utils.bufferToHex(A.utils.addChecksum(importTx.getSignedTx().toBytes()));
    const { txID } = await client.cChain.issueTx({ tx: hex, encoding: 'hex' });
    expect((await client.cChain.getAtomicTxStatus({ txID })).status).toBe('Accepted');
    expect((await client.cChain.getAtomicTx({ txID, encoding: 'hex' })).tx).toBe(hex);
    expect(utxos).toHaveLength(1);
  });
});
