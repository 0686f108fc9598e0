// Info API: the local network's real values, as avalanchego 1.14.2 reports them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const P = '11111111111111111111111111111111LpoYY';

let node: TestNode;
let info: string;
beforeAll(async () => {
  node = await startTestNode();
  info = `${node.uri}/ext/info`;
});
afterAll(() => node.stop());

describe('info', () => {
  it('getNetworkID and getNetworkName: 12345 as a string, "local"', async () => {
    expect(await call(info, 'info.getNetworkID')).toEqual({ networkID: '12345' });
    expect(await call(info, 'info.getNetworkName')).toEqual({ networkName: 'local' });
  });

  it('getBlockchainID resolves every alias of P, X and C', async () => {
    const cases: Array<[string, string]> = [
      ['P', P],
      ['platform', P],
      ['X', X],
      ['avm', X],
      ['C', C],
      ['evm', C],
      [X, X],
      [C, C],
      [P, P],
    ];
    for (const [alias, id] of cases) expect(await call(info, 'info.getBlockchainID', { alias })).toEqual({ blockchainID: id });
    expect((await callError(info, 'info.getBlockchainID', { alias: 'Y' })).message).toBe('there is no ID with alias: Y');
    expect((await callError(info, 'info.getBlockchainID', {})).message).toBe('there is no ID with alias: ');
  });

  it('getNodeVersion reports avalanchego 1.14.2 with the primary VMs', async () => {
    expect(await call(info, 'info.getNodeVersion')).toEqual({
      version: 'avalanchego/1.14.2',
      databaseVersion: 'v1.4.5',
      rpcProtocolVersion: '45',
      gitCommit: '',
      vmVersions: { avm: 'avalanchego/1.14.2', evm: 'v1.14.2', platform: 'avalanchego/1.14.2' },
    });
  });

  it('getNodeID is local staker 1 with its genesis BLS key and proof of possession', async () => {
    const { nodeID, nodePOP } = await call(info, 'info.getNodeID');
    expect(nodeID).toBe('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg');
    expect(nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
    expect(nodePOP.publicKey.startsWith('0x900c9b119b5c82d7')).toBe(true);
  });

  it('getNodeIP is the staking address', async () => {
    expect(await call(info, 'info.getNodeIP')).toEqual({ ip: '127.0.0.1:9651' });
  });

  it('isBootstrapped: true for the primary chains, the real errors otherwise', async () => {
    for (const chain of ['P', 'X', 'C', X]) expect(await call(info, 'info.isBootstrapped', { chain })).toEqual({ isBootstrapped: true });
    expect((await callError(info, 'info.isBootstrapped', {})).message).toBe("argument 'chain' not given");
    expect((await callError(info, 'info.isBootstrapped', { chain: 'Q' })).message).toBe("there is no chain with alias/ID 'Q'");
  });

  it('peers: none, counted as a string', async () => {
    expect(await call(info, 'info.peers')).toEqual({ numPeers: '0', peers: [] });
    expect(await call(info, 'info.peers', { nodeIDs: [] })).toEqual({ numPeers: '0', peers: [] });
    expect(await call(info, 'info.peers', { nodeIDs: ['NodeID-111111111111111111116DBWJs'] })).toEqual({ numPeers: '0', peers: [] });
    // PeersArgs.NodeIDs is []ids.NodeID: one that does not parse fails the params, as gorilla reports it.
    for (const bad of ['NodeID-abc', 'garbage', 7]) {
      expect(await callError(info, 'info.peers', { nodeIDs: [bad] })).toEqual({
        code: -32000,
        message: "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
        data: null,
      });
    }
  });

  it('upgrades: upgrade.Default, in upgrade.Config field order', async () => {
    const upgrades = await call(info, 'info.upgrades');
    expect(Object.keys(upgrades)).toEqual([
      'apricotPhase1Time',
      'apricotPhase2Time',
      'apricotPhase3Time',
      'apricotPhase4Time',
      'apricotPhase4MinPChainHeight',
      'apricotPhase5Time',
      'apricotPhasePre6Time',
      'apricotPhase6Time',
      'apricotPhasePost6Time',
      'banffTime',
      'cortinaTime',
      'cortinaXChainStopVertexID',
      'durangoTime',
      'etnaTime',
      'fortunaTime',
      'graniteTime',
      'graniteEpochDuration',
      'heliconTime',
    ]);
    expect(upgrades.cortinaTime).toBe('2020-12-05T05:00:00Z');
    expect(upgrades.graniteEpochDuration).toBe(30000000000);
    expect(upgrades.heliconTime).toBe('9999-12-01T00:00:00Z');
  });

  it('uptime and acps of a lone validator', async () => {
    expect(await call(info, 'info.uptime')).toEqual({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' });
    expect(await call(info, 'info.acps')).toEqual({ acps: {} });
  });

  it('getTxFee (deprecated): the local static fees, all strings', async () => {
    expect(await call(info, 'info.getTxFee')).toEqual({
      txFee: '1000000',
      createAssetTxFee: '1000000',
      createSubnetTxFee: '100000000',
      transformSubnetTxFee: '100000000',
      createBlockchainTxFee: '100000000',
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000',
      addSubnetDelegatorFee: '1000000',
    });
  });

  it('getVMs: the primary VMs and fxs by their name-derived IDs, keys sorted', async () => {
    expect(await call(info, 'info.getVMs')).toEqual({
      vms: {
        jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
        mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
        rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT: ['platform'],
      },
      fxs: {
        qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
        rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
        spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
      },
    });
  });
});

describe('custom and disabled', () => {
  it('a custom network ID answers its own ID and name', async () => {
    const custom = await startTestNode({ networkId: '1337' });
    try {
      expect(await call(`${custom.uri}/ext/info`, 'info.getNetworkID')).toEqual({ networkID: '1337' });
      expect(await call(`${custom.uri}/ext/info`, 'info.getNetworkName')).toEqual({ networkName: 'network-1337' });
    } finally {
      await custom.stop();
    }
  });

  it('--api-info-enabled=false removes /ext/info', async () => {
    const off = await startTestNode({ apiInfoEnabled: false });
    try {
      const res = await fetch(`${off.uri}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('404 page not found\n');
    } finally {
      await off.stop();
    }
  });
});
