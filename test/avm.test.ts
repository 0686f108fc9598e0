// AVM API over HTTP on a fresh local network: the genesis state byte for byte, every read method,
// the error rows, and routes and aliases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, post, rpc, startTestNode, type TestNode } from './helpers.js';

const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const EWOQ = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_UTXO_ID = 'Gqdc55Wu2egMkQABwJb74h6UydveDxHCMo1uEEUKeEVvPeoUc';
const GENESIS_TX_HEX =
  '0x000000000001000030390000000000000000000000000000000000000000000000000000000000000000000000000000000000000028b3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d00094176616c616e6368650004415641580900000001000000000000000200000007002386f26fc1000000000000000000000000000100000001e0cfe8cae22827d032805ded484e393ce51cbedb000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000000ba53f2db';
const EWOQ_UTXO_HEX =
  '0x0000dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29cf57b8be2';
const GENESIS_BLOCK_ID = '2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst';
const INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

let node: TestNode;
let xUrl: string;
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  xUrl = `${node.uri}/ext/bc/X`;
});
afterAll(() => node.stop());

describe('genesis state', () => {
  it('getTx of the AVAX asset returns the genesis CreateAssetTx bytes (hex with checksum)', async () => {
    expect(await call(xUrl, 'avm.getTx', { txID: AVAX })).toEqual({ tx: GENESIS_TX_HEX, encoding: 'hex' });
    const nc = await call(xUrl, 'avm.getTx', { txID: AVAX, encoding: 'hexnc' });
    expect(nc.tx).toBe(GENESIS_TX_HEX.slice(0, -8));
  });

  it('getTx json of the genesis tx is the real node first-run shape (credentials null)', async () => {
    const r = await rpc(xUrl, 'avm.getTx', { txID: AVAX, encoding: 'json' });
    expect(r.text).toBe(
      `{"jsonrpc":"2.0","result":{"tx":{"unsignedTx":{"networkID":12345,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],"memo":"0xb3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d","name":"Avalanche","symbol":"AVAX","denomination":9,"initialStates":[{"fxIndex":0,"fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","outputs":[{"addresses":["X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu"],"amount":10000000000000000,"locktime":0,"threshold":1},{"addresses":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],"amount":300000000000000000,"locktime":0,"threshold":1}]}]},"credentials":null,"id":"${AVAX}"},"encoding":"json"},"id":1}\n`,
    );
  });

  it('getUTXOs of ewoq returns its genesis UTXO byte for byte', async () => {
    const r = await call(xUrl, 'avm.getUTXOs', { addresses: [EWOQ] });
    expect(r).toEqual({ numFetched: '1', utxos: [EWOQ_UTXO_HEX], endIndex: { address: EWOQ, utxo: EWOQ_UTXO_ID }, encoding: 'hex' });
  });

  it('getAssetDescription by alias and by ID', async () => {
    const expected = { assetID: AVAX, name: 'Avalanche', symbol: 'AVAX', denomination: '9' };
    expect(await call(xUrl, 'avm.getAssetDescription', { assetID: 'AVAX' })).toEqual(expected);
    expect(await call(xUrl, 'avm.getAssetDescription', { assetID: AVAX })).toEqual(expected);
  });

  it('getBalance and getAllBalances of ewoq: 300M AVAX in one UTXO', async () => {
    expect(await call(xUrl, 'avm.getBalance', { address: EWOQ, assetID: 'AVAX' })).toEqual({
      balance: '300000000000000000',
      utxoIDs: [{ txID: AVAX, outputIndex: 1 }],
    });
    expect(await call(xUrl, 'avm.getAllBalances', { address: EWOQ })).toEqual({ balances: [{ asset: 'AVAX', balance: '300000000000000000' }] });
  });

  it('getHeight, getBlock and getBlockByHeight serve the genesis block', async () => {
    expect(await call(xUrl, 'avm.getHeight')).toEqual({ height: '0' });
    const json = await call(xUrl, 'avm.getBlockByHeight', { height: '0', encoding: 'json' });
    expect(json).toEqual({
      block: {
        parentID: '3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY',
        height: 0,
        time: 1607144400,
        merkleRoot: '11111111111111111111111111111111LpoYY',
        txs: null,
        id: GENESIS_BLOCK_ID,
      },
      encoding: 'json',
    });
    const hex = await call(xUrl, 'avm.getBlock', { blockID: GENESIS_BLOCK_ID });
    expect(hex.block).toBe(
      '0x000000000014054f478489b451cecef53155c24f04f441912cc34487db87f16b13a2f4fec8990000000000000000000000005fcb13d0000000000000000000000000000000000000000000000000000000000000000000000000f11be722',
    );
  });

  it('getTxFee and getTxStatus', async () => {
    expect(await call(xUrl, 'avm.getTxFee')).toEqual({ txFee: '1000000', createAssetTxFee: '1000000' });
    expect(await call(xUrl, 'avm.getTxStatus', { txID: AVAX })).toEqual({ status: 'Accepted' });
    expect(await call(xUrl, 'avm.getTxStatus', { txID: EWOQ_UTXO_ID })).toEqual({ status: 'Unknown' });
  });
});

describe('errors', () => {
  const rows: Array<[string, unknown, string]> = [
    ['avm.getTx', {}, 'nil transaction ID'],
    ['avm.getTx', { txID: EWOQ_UTXO_ID }, 'not found'],
    ['avm.getTxStatus', {}, 'nil transaction ID'],
    ['avm.getAssetDescription', { assetID: 'avax' }, "asset 'avax' not found"],
    ['avm.getAssetDescription', { assetID: EWOQ_UTXO_ID }, 'not found'],
    ['avm.getBlock', { blockID: AVAX }, `couldn't get block with id ${AVAX}: not found`],
    ['avm.getBlockByHeight', { height: 5 }, "couldn't get block at height 5: not found"],
    ['avm.getUTXOs', { addresses: [] }, 'no addresses provided'],
    ['avm.getUTXOs', { addresses: ['X-local1nope'] }, 'couldn\'t parse address "X-local1nope": invalid separator index 5'],
    ['avm.getUTXOs', { addresses: ['X-l1qq'] }, 'couldn\'t parse address "X-l1qq": invalid bech32 string length 4'],
    [
      'avm.getUTXOs',
      { addresses: ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96v'] },
      'couldn\'t parse address "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96v": invalid checksum (expected (bech32=00z96u, bech32m=6njfl7), got 00z96v)',
    ],
    ['avm.getUTXOs', { addresses: [EWOQ], sourceChain: 'Y' }, 'problem parsing source chainID "Y": there is no ID with alias: Y'],
    [
      'avm.getUTXOs',
      { addresses: ['X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t'] },
      'couldn\'t parse address "X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t": expected hrp "local" but got "fuji"',
    ],
    [
      'avm.getUTXOs',
      { addresses: ['local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] },
      'couldn\'t parse address "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u": no separator found in address',
    ],
    [
      'avm.getUTXOs',
      { addresses: [EWOQ.replace('X-', 'C-')] },
      `couldn't parse address "${EWOQ.replace('X-', 'C-')}": mismatched chainIDs: expected "${X}" but got "2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC"`,
    ],
    [
      'avm.getUTXOs',
      { addresses: [EWOQ], startIndex: { address: EWOQ, utxo: '0nope' } },
      "couldn't parse start index utxo: base58 decoding error: Invalid base58 digit ('0')",
    ],
    ['avm.getUTXOs', { addresses: [EWOQ], encoding: 'json' }, `couldn't encode UTXO ${EWOQ_UTXO_ID} as string: unsupported encoding in method`],
    ['avm.getBalance', { address: 'bad', assetID: 'AVAX' }, "problem parsing address 'bad': couldn't parse address \"bad\": no separator found in address"],
    ['avm.issueTx', { tx: 'abc' }, 'problem decoding transaction: missing 0x prefix to hex encoding'],
    ['avm.issueTx', { tx: '0x00000000' }, 'problem decoding transaction: invalid input checksum'],
  ];
  it.each(rows)('%s %j -> %s', async (m, params, message) => {
    expect((await callError(xUrl, m, params)).message).toBe(message);
  });

  it('rejects more than 1024 addresses and malformed IDs or encodings', async () => {
    const many = Array.from({ length: 1025 }, () => EWOQ);
    expect((await callError(xUrl, 'avm.getUTXOs', { addresses: many })).message).toBe('number of addresses given, 1025, exceeds maximum, 1024');
    expect((await callError(xUrl, 'avm.getTx', { txID: 'xyz' })).message).toBe(INVALID_ARG);
    expect((await callError(xUrl, 'avm.getTx', { txID: AVAX, encoding: 'base64' })).message).toBe(INVALID_ARG);
  });

  it('reports an unknown asset as a zero balance, as the real node does', async () => {
    expect(await call(xUrl, 'avm.getBalance', { address: EWOQ, assetID: EWOQ_UTXO_ID })).toEqual({ balance: '0', utxoIDs: [] });
  });
});

describe('routes', () => {
  it('serves the AVM at /ext/bc/X, its ID, /ext/X, /ext/avm and /ext/bc/avm', async () => {
    for (const path of ['/ext/bc/X', `/ext/bc/${X}`, '/ext/X', '/ext/avm', '/ext/bc/avm']) {
      expect((await call(`${node.uri}${path}`, 'avm.getHeight')).height).toBe('0');
    }
  });

  it('serves wallet.issueTx at /wallet only, and avm.* not there', async () => {
    const r = await rpc(`${node.uri}/ext/bc/X/wallet`, 'avm.getHeight');
    expect(r.json.error.message).toBe('rpc: can\'t find service "avm.GetHeight"');
    expect((await callError(`${node.uri}/ext/bc/X/wallet`, 'wallet.issueTx', { tx: 'abc' })).message).toBe(
      'problem decoding transaction: missing 0x prefix to hex encoding',
    );
  });

  it('serves platform.getFeeConfig at /ext/bc/P for avalanchejs', async () => {
    expect(await call(`${node.uri}/ext/bc/P`, 'platform.getFeeConfig')).toEqual({
      weights: [1, 1000, 1000, 4],
      maxCapacity: 1000000,
      maxPerSecond: 100000,
      targetPerSecond: 50000,
      minPrice: 1,
      excessConversionConstant: 2164043,
    });
  });

  it('follows an aliasChain alias with /ext/bc/<alias>', async () => {
    const admin = await startTestNode({ dbType: 'memdb', apiAdminEnabled: true });
    try {
      await call(`${admin.uri}/ext/admin`, 'admin.aliasChain', { chain: 'X', alias: 'myX' });
      expect((await call(`${admin.uri}/ext/bc/myX`, 'avm.getHeight')).height).toBe('0');
      expect(
        (await post(`${admin.uri}/ext/bc/myX/wallet`, '{"jsonrpc":"2.0","id":1,"method":"wallet.issueTx","params":{"tx":"x"}}')).json.error.message,
      ).toMatch(/^problem decoding transaction/);
    } finally {
      await admin.stop();
    }
  });
});
