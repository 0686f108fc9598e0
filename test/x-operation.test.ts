// OperationTx end to end over HTTP: an asset created with a secp256k1fx mint output, then minted
// by an OperationTx that spends the mint output and recreates it beside the new supply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTx, compareBytes, outputSortKey, parseUTXO } from '../src/vms/avm/codec/index.js';
import type { FxValue, Output, TransferableOutput, UnsignedTx, UTXO } from '../src/vms/avm/types.js';
import { signHash, txHash } from '../src/vms/avm/verify/index.js';
import { encodeCB58, idFromString } from '../src/encoding/cb58.js';
import { encodeHex } from '../src/encoding/hex.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const EWOQ = Buffer.from('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c', 'hex');
const EWOQ_ADDR = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const OTHER = Buffer.from('e0cfe8cae22827d032805ded484e393ce51cbedb', 'hex');
const OTHER_ADDR = 'X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu';
const X = idFromString('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
const AVAX = idFromString('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe');
const FEE = 1_000_000n;
const owners = (addr: Uint8Array) => ({ locktime: 0n, threshold: 1, addresses: [addr] });

let node: TestNode;
let x: string;
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  x = `${node.uri}/ext/bc/X`;
});
afterAll(() => node.stop());

async function ewoqAvax(): Promise<UTXO> {
  const { utxos } = await call(x, 'avm.getUTXOs', { addresses: [EWOQ_ADDR], encoding: 'hexnc' });
  return utxos.map((u: string) => parseUTXO(Buffer.from(u.slice(2), 'hex'))).find((u: UTXO) => Buffer.from(u.assetID).equals(AVAX))!;
}

/** Signs every credential with the ewoq key (one signature per credential). */
function signed(unsigned: UnsignedTx, credentials: number): Uint8Array {
  const sig = signHash(txHash(buildTx(unsigned, []).unsignedBytes), KEY);
  const creds: FxValue[] = Array.from({ length: credentials }, () => ({ type: 9 as const, signatures: [sig] }));
  return buildTx(unsigned, creds).bytes;
}

const issue = (bytes: Uint8Array) => call(x, 'avm.issueTx', { tx: encodeHex(bytes, 'hex') });

describe('OperationTx (secp256k1fx mint)', () => {
  let assetID: Uint8Array;
  let mintUTXO: UTXO;

  it('creates an asset whose initial state holds a mint output and 100 units', async () => {
    const avax = await ewoqAvax();
    const amount = (avax.output as { amount: bigint }).amount;
    const states: Output[] = [
      { type: 6, owners: owners(EWOQ) },
      { type: 7, amount: 100n, owners: owners(EWOQ) },
    ];
    states.sort((a, b) => compareBytes(outputSortKey(a), outputSortKey(b)));
    const unsigned: UnsignedTx = {
      type: 1,
      base: {
        networkID: 12345,
        blockchainID: X,
        outputs: [{ assetID: AVAX, out: { type: 7, amount: amount - FEE, owners: owners(EWOQ) } }],
        inputs: [{ utxoID: avax.utxoID, assetID: AVAX, input: { type: 5, amount, sigIndices: [0] } }],
        memo: new Uint8Array(),
      },
      name: Buffer.from('Mintable'),
      symbol: Buffer.from('MNT'),
      denomination: 0,
      initialStates: [{ fxIndex: 0, outputs: states }],
    };
    const { txID } = await issue(signed(unsigned, 1));
    assetID = idFromString(txID);
    const { utxos } = await call(x, 'avm.getUTXOs', { addresses: [EWOQ_ADDR], encoding: 'hexnc' });
    mintUTXO = utxos.map((u: string) => parseUTXO(Buffer.from(u.slice(2), 'hex'))).find((u: UTXO) => u.output.type === 6)!;
    expect(encodeCB58(mintUTXO.assetID)).toBe(txID);
    expect(await call(x, 'avm.getBalance', { address: EWOQ_ADDR, assetID: txID })).toMatchObject({ balance: '100' });
  });

  it('mints 250 units to another address and recreates the mint output', async () => {
    const avax = await ewoqAvax();
    const amount = (avax.output as { amount: bigint }).amount;
    const outputs: TransferableOutput[] = [{ assetID: AVAX, out: { type: 7, amount: amount - FEE, owners: owners(EWOQ) } }];
    const unsigned: UnsignedTx = {
      type: 2,
      base: {
        networkID: 12345,
        blockchainID: X,
        outputs,
        inputs: [{ utxoID: avax.utxoID, assetID: AVAX, input: { type: 5, amount, sigIndices: [0] } }],
        memo: new Uint8Array(),
      },
      operations: [
        {
          assetID,
          utxoIDs: [mintUTXO.utxoID],
          op: { type: 8, mintInput: [0], mintOutput: owners(EWOQ), transferOutput: { amount: 250n, owners: owners(OTHER) } },
        },
      ],
    };
    const { txID } = await issue(signed(unsigned, 2));
    const asset = encodeCB58(assetID);
    expect(await call(x, 'avm.getBalance', { address: OTHER_ADDR, assetID: asset })).toEqual({ balance: '250', utxoIDs: [{ txID, outputIndex: 2 }] });
    // The old mint output is spent; the new one is output 1 of the OperationTx (after the AVAX change).
    const { utxos } = await call(x, 'avm.getUTXOs', { addresses: [EWOQ_ADDR], encoding: 'hexnc' });
    const mints = utxos.map((u: string) => parseUTXO(Buffer.from(u.slice(2), 'hex'))).filter((u: UTXO) => u.output.type === 6);
    expect(mints.map((u: UTXO) => `${encodeCB58(u.utxoID.txID)}:${u.utxoID.outputIndex}`)).toEqual([`${txID}:1`]);
    const json = await call(x, 'avm.getTx', { txID, encoding: 'json' });
    expect(json.tx.unsignedTx.operations[0].operation.transferOutput.amount).toBe(250);
    expect(json.tx.unsignedTx.operations[0].fxID).toBe('spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ');
  });

  it('refuses to mint from the spent mint output again', async () => {
    const avax = await ewoqAvax();
    const amount = (avax.output as { amount: bigint }).amount;
    const unsigned: UnsignedTx = {
      type: 2,
      base: {
        networkID: 12345,
        blockchainID: X,
        outputs: [{ assetID: AVAX, out: { type: 7, amount: amount - FEE, owners: owners(EWOQ) } }],
        inputs: [{ utxoID: avax.utxoID, assetID: AVAX, input: { type: 5, amount, sigIndices: [0] } }],
        memo: new Uint8Array(),
      },
      operations: [
        {
          assetID,
          utxoIDs: [mintUTXO.utxoID],
          op: { type: 8, mintInput: [0], mintOutput: owners(EWOQ), transferOutput: { amount: 1n, owners: owners(OTHER) } },
        },
      ],
    };
    const err = await callError(x, 'avm.issueTx', { tx: encodeHex(signed(unsigned, 2), 'hex') });
    expect(err.message).toBe('not found');
    expect((await call(x, 'avm.getBalance', { address: OTHER_ADDR, assetID: encodeCB58(assetID) })).balance).toBe('250');
  });
});
