// The primary network genesis for any network ID: the local values from avalanchego's genesis tests,
// and custom network IDs (local config with the ID swapped in), cross-checked against an independent
// recomputation of the P-Chain CreateChainTx IDs.
import { describe, expect, it } from 'vitest';
import { encodeCB58 } from '../src/encoding/cb58.js';
import { primaryNetworkChains, xGenesisBytes, localGenesisStartTime } from '../src/genesis/primary.js';
import { LOCAL_C_CHAIN_ID, LOCAL_X_CHAIN_ID } from './support/known.js';
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY } from '../src/vms/avm/testaccounts.js';
import { addressOfPrivateKey } from '../src/vms/avm/verify/index.js';
import { call, startTestNode } from './helpers.js';

describe('primary network IDs', () => {
  it('derives the local X and C chain IDs from the P genesis CreateChainTxs', () => {
    const [, x, c] = primaryNetworkChains(12345);
    expect(encodeCB58(x!.chainID)).toBe(LOCAL_X_CHAIN_ID);
    expect(encodeCB58(c!.chainID)).toBe(LOCAL_C_CHAIN_ID);
  });

  it("knows ewoq's address as the one its key derives", () => {
    expect(Buffer.from(addressOfPrivateKey(EWOQ_PRIVATE_KEY)).equals(EWOQ_ADDRESS)).toBe(true);
  });

  it('builds the local X genesis bytes', () => {
    expect(Buffer.from(xGenesisBytes(12345)).toString('hex')).toBe(
      '000000000001000441564158000030390000000000000000000000000000000000000000000000000000000000000000000000000000000000000028b3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d00094176616c616e6368650004415641580900000001000000000000000200000007002386f26fc1000000000000000000000000000100000001e0cfe8cae22827d032805ded484e393ce51cbedb000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c',
    );
  });

  it('gives a custom network its own chain IDs and AVAX asset', async () => {
    const [, x, c] = primaryNetworkChains(1337);
    expect(encodeCB58(x!.chainID)).toBe('2huFztbeB4LijVCoLrxP8NwFbRCdtLfUyvx4VXwD5VnVxzxkMX');
    expect(encodeCB58(c!.chainID)).toBe('t7JQ8kk2KaX7YhWWHv2fnWNztt81hJ13i2FXDq2ZG1CFyWghx');
    const node = await startTestNode({ dbType: 'memdb', networkId: 1337, apiAdminEnabled: true });
    try {
      expect(await call(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'X' })).toEqual({
        blockchainID: '2huFztbeB4LijVCoLrxP8NwFbRCdtLfUyvx4VXwD5VnVxzxkMX',
      });
      expect((await call(`${node.uri}/ext/bc/X`, 'avm.getAssetDescription', { assetID: 'AVAX' })).assetID).toBe(
        '28N55gFiYRrHWTopC4mybgvTw92x4EmWiZBLCRBgjXFyBgx9UN',
      );
      const utxos = await call(`${node.uri}/ext/bc/X`, 'avm.getUTXOs', { addresses: ['X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p'] });
      expect(utxos.numFetched).toBe('1');
      expect(utxos.endIndex.address).toBe('X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p');
      const config = await call(`${node.uri}/ext/admin`, 'admin.getConfig');
      expect(config.avaxAssetID).toBe('28N55gFiYRrHWTopC4mybgvTw92x4EmWiZBLCRBgjXFyBgx9UN');
      expect(config.networkID).toBe(1337);
    } finally {
      await node.stop();
    }
  });

  it('rolls the local start time forward in 270-day periods', () => {
    expect(localGenesisStartTime(1721016000)).toBe(1721016000);
    expect(localGenesisStartTime(1795314759)).toBe(1791000000);
  });
});
