// X-Chain state across restarts: leveldb keeps UTXOs, txs, blocks, height and balances (and the
// genesis objects come back re-parsed, as on a real node); memdb starts fresh; and --test-accounts
// funds its keys in one ordinary block without touching any genesis ID.
import { afterAll, describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { buildTx, compareBytes, outputSortKey, parseUTXO, txOutputs } from '../src/vms/avm/codec/index.js';
import { addressOfPrivateKey, signHash, txHash } from '../src/vms/avm/verify/index.js';
import type { OutputOwners, SignedTx, TransferableOutput, UnsignedTx, UTXO } from '../src/vms/avm/types.js';
import { decodeCB58, encodeCB58, idFromString } from '../src/encoding/cb58.js';
import { decodeHex, encodeHex } from '../src/encoding/hex.js';
import { formatAddress } from '../src/vms/components/avax/address.js';
import { call, callError, rpc, spawnNode, startTestNode, tempDir, type SpawnedNode, type TestNode } from './helpers.js';

const AVAX_ID = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const AVAX = idFromString(AVAX_ID);
const X = idFromString('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
const GENESIS_BLOCK_ID = '2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst';
const GENESIS_TX_HEX =
  '0x000000000001000030390000000000000000000000000000000000000000000000000000000000000000000000000000000000000028b3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d00094176616c616e6368650004415641580900000001000000000000000200000007002386f26fc1000000000000000000000000000100000001e0cfe8cae22827d032805ded484e393ce51cbedb000000070429d069189e0000000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000000ba53f2db';
const GENESIS_TX_JSON_FIRST_RUN = `{"jsonrpc":"2.0","result":{"tx":{"unsignedTx":{"networkID":12345,"blockchainID":"11111111111111111111111111111111LpoYY","outputs":[],"inputs":[],"memo":"0xb3d82b1367d362de99ab59a658165aff520cbd4db3d82b1367d362de99ab59a658165aff520cbd4d","name":"Avalanche","symbol":"AVAX","denomination":9,"initialStates":[{"fxIndex":0,"fxID":"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","outputs":[{"addresses":["X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu"],"amount":10000000000000000,"locktime":0,"threshold":1},{"addresses":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],"amount":300000000000000000,"locktime":0,"threshold":1}]}]},"credentials":null,"id":"${AVAX_ID}"},"encoding":"json"},"id":1}\n`;
const GENESIS_BLOCK_JSON_FIRST_RUN = `{"jsonrpc":"2.0","result":{"block":{"parentID":"3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY","height":0,"time":1607144400,"merkleRoot":"11111111111111111111111111111111LpoYY","txs":null,"id":"${GENESIS_BLOCK_ID}"},"encoding":"json"},"id":1}\n`;

const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
const EWOQ_KEY = fromHex('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ = fromHex('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c');
const EWOQ_ADDR = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const OTHER_KEY = sha256(utf8('x-state test key other'));
const OTHER = addressOfPrivateKey(OTHER_KEY);
const OTHER_ADDR = formatAddress('X', 'local', OTHER);
const FEE = 1_000_000n;
const GENESIS_AMOUNT = 300_000_000_000_000_000n;
const GENESIS_UTXO: UTXO = {
  utxoID: { txID: AVAX, outputIndex: 1 },
  assetID: AVAX,
  output: { type: 7, amount: GENESIS_AMOUNT, owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } },
};

const owners = (addresses: Uint8Array[]): OutputOwners => ({ locktime: 0n, threshold: 1, addresses: [...addresses].sort(compareBytes) });
const out = (amount: bigint, to: Uint8Array = EWOQ): TransferableOutput => ({ assetID: AVAX, out: { type: 7, amount, owners: owners([to]) } });
const amt = (u: UTXO): bigint => (u.output.type === 7 ? u.output.amount : 0n);
const outKey = (o: TransferableOutput) => Buffer.concat([o.assetID, outputSortKey(o.out)]);

function sign(unsigned: UnsignedTx, keys: Uint8Array[]): SignedTx {
  const hash = txHash(buildTx(unsigned, []).unsignedBytes);
  return buildTx(
    unsigned,
    keys.map((k) => ({ type: 9 as const, signatures: [signHash(hash, k)] })),
  );
}

/** A BaseTx spending one UTXO with one key. */
function pay(from: UTXO, key: Uint8Array, outs: TransferableOutput[], memo: Uint8Array = new Uint8Array()): SignedTx {
  const outputs = [...outs].sort((a, b) => Buffer.compare(outKey(a), outKey(b)));
  return sign(
    {
      type: 0,
      base: {
        networkID: 12345,
        blockchainID: X,
        inputs: [{ utxoID: from.utxoID, assetID: AVAX, input: { type: 5, amount: amt(from), sigIndices: [0] } }],
        outputs,
        memo,
      },
    },
    [key],
  );
}

async function issue(url: string, tx: SignedTx): Promise<void> {
  expect((await call(url, 'avm.issueTx', { tx: encodeHex(tx.bytes, 'hex') })).txID).toBe(encodeCB58(tx.id));
}

const ownedBy = (tx: SignedTx, who: Uint8Array): UTXO[] =>
  txOutputs(tx).utxos.filter((u) => u.output.owners.addresses.length === 1 && eq(u.output.owners.addresses[0]!, who));
/** UTXOID.InputID: sha256(u64 outputIndex ‖ txID). */
function inputIDOf(u: { txID: Uint8Array; outputIndex: number }): Uint8Array {
  const b = Buffer.alloc(40);
  b.writeBigUInt64BE(BigInt(u.outputIndex));
  Buffer.from(u.txID).copy(b, 8);
  return sha256(b);
}
const parseUTXOs = (r: { utxos: string[] }): UTXO[] => r.utxos.map((h) => parseUTXO(decodeHex(h, 'hex')));

/** Everything a client can read about the chain, for comparing across a restart. */
async function view(url: string, txIDs: string[]) {
  const height = (await call(url, 'avm.getHeight')).height as string;
  const blocks = [];
  for (let h = 0; h <= Number(height); h++) {
    const hex = await call(url, 'avm.getBlockByHeight', { height: String(h) });
    const json = h === 0 ? undefined : (await rpc(url, 'avm.getBlockByHeight', { height: String(h), encoding: 'json' })).text;
    const id = h === 0 ? GENESIS_BLOCK_ID : JSON.parse(json!).result.block.id;
    blocks.push({ hex, json, byID: await call(url, 'avm.getBlock', { blockID: id }) });
  }
  const txs = [];
  for (const txID of txIDs) {
    txs.push({
      hex: await call(url, 'avm.getTx', { txID }),
      json: (await rpc(url, 'avm.getTx', { txID, encoding: 'json' })).text,
      status: await call(url, 'avm.getTxStatus', { txID }),
    });
  }
  const balances = async (address: string) => ({
    avax: await call(url, 'avm.getBalance', { address, assetID: 'AVAX' }),
    partial: await call(url, 'avm.getBalance', { address, assetID: AVAX_ID, includePartial: true }),
    all: [...(await call(url, 'avm.getAllBalances', { address })).balances].sort((a: { asset: string }, b: { asset: string }) =>
      a.asset.localeCompare(b.asset),
    ),
  });
  return {
    height,
    blocks,
    txs,
    utxos: {
      ewoq: await call(url, 'avm.getUTXOs', { addresses: [EWOQ_ADDR] }),
      other: await call(url, 'avm.getUTXOs', { addresses: [OTHER_ADDR] }),
      both: await call(url, 'avm.getUTXOs', { addresses: [EWOQ_ADDR, OTHER_ADDR], limit: 2 }),
    },
    balances: { ewoq: await balances(EWOQ_ADDR), other: await balances(OTHER_ADDR) },
    asset: txIDs.length > 1 ? await call(url, 'avm.getAssetDescription', { assetID: txIDs[1] }) : undefined,
  };
}

describe('persistence (leveldb)', () => {
  const dataDir = tempDir('emu-xstate-');
  let node: TestNode | undefined;
  let url = '';
  let first: Awaited<ReturnType<typeof view>> | undefined;
  let ids: string[] = [];
  let t2: SignedTx;
  let t3: SignedTx;
  let change: UTXO;
  const open = async () => {
    node = await startTestNode({ dbType: 'leveldb', dataDir });
    url = `${node.uri}/ext/bc/X`;
  };
  const close = async () => {
    await node?.stop();
    node = undefined;
  };
  afterAll(close);

  it('first run: the genesis objects are the in-memory ones (nil slices serve as null); txs land in blocks', async () => {
    await open();
    expect((await rpc(url, 'avm.getTx', { txID: AVAX_ID, encoding: 'json' })).text).toBe(GENESIS_TX_JSON_FIRST_RUN);
    expect((await rpc(url, 'avm.getBlockByHeight', { height: '0', encoding: 'json' })).text).toBe(GENESIS_BLOCK_JSON_FIRST_RUN);

    const t1 = pay(
      GENESIS_UTXO,
      EWOQ_KEY,
      [out(5_000_000_000n, OTHER), out(7_000_000_000n, OTHER), out(GENESIS_AMOUNT - 12_000_000_000n - FEE)],
      utf8('first'),
    );
    await issue(url, t1);
    const c1 = ownedBy(t1, EWOQ)[0]!;
    t2 = sign(
      {
        type: 1,
        base: {
          networkID: 12345,
          blockchainID: X,
          inputs: [{ utxoID: c1.utxoID, assetID: AVAX, input: { type: 5, amount: amt(c1), sigIndices: [0] } }],
          outputs: [out(amt(c1) - FEE)],
          memo: new Uint8Array(),
        },
        name: utf8('Keep Coin'),
        symbol: utf8('KEEP'),
        denomination: 6,
        initialStates: [{ fxIndex: 0, outputs: [{ type: 7, amount: 777n, owners: owners([OTHER]) }] }],
      },
      [EWOQ_KEY],
    );
    await issue(url, t2);
    change = ownedBy(t2, EWOQ)[0]!;
    const spent = ownedBy(t1, OTHER).find((u) => amt(u) === 5_000_000_000n)!;
    t3 = pay(spent, OTHER_KEY, [out(5_000_000_000n - FEE)]);
    await issue(url, t3);

    ids = [encodeCB58(t1.id), encodeCB58(t2.id), encodeCB58(t3.id)];
    first = await view(url, ids);
    expect(first.height).toBe('3');
    // OTHER holds 7 AVAX and 777 KEEP; its 5 AVAX were spent by t3.
    expect(
      parseUTXOs(first.utxos.other)
        .map((u) => amt(u))
        .sort(),
    ).toEqual([7_000_000_000n, 777n].sort());
    expect(first.txs.map((t) => t.status.status)).toEqual(['Accepted', 'Accepted', 'Accepted']);
  });

  it('first run: balances count the UTXOs stored in leveldb', async () => {
    expect(await call(url, 'avm.getBalance', { address: EWOQ_ADDR, assetID: 'AVAX' }))
      // t3 pays its 5 AVAX (less the fee) back to ewoq: newest first, then t2's change.
      .toEqual({
        balance: String(amt(change) + 5_000_000_000n - FEE),
        utxoIDs: [
          { txID: encodeCB58(t3.id), outputIndex: 0 },
          { txID: encodeCB58(t2.id), outputIndex: 0 },
        ],
      });
    const all = (await call(url, 'avm.getAllBalances', { address: OTHER_ADDR })).balances;
    expect([...all].sort((a: { asset: string }, b: { asset: string }) => a.asset.localeCompare(b.asset))).toEqual(
      [
        { asset: 'AVAX', balance: '7000000000' },
        { asset: encodeCB58(t2.id), balance: '777' },
      ].sort((a, b) => a.asset.localeCompare(b.asset)),
    );
  });

  it('after a restart: UTXOs, txs, blocks, height and balances read the same', async () => {
    await close();
    await open();
    expect(first).toBeDefined();
    expect(await view(url, ids)).toEqual(first);
  });

  it('after a restart: the genesis tx and block, re-parsed from the database, show empty slices', async () => {
    expect((await rpc(url, 'avm.getTx', { txID: AVAX_ID, encoding: 'json' })).text).toBe(
      GENESIS_TX_JSON_FIRST_RUN.replace('"credentials":null', '"credentials":[]'),
    );
    expect((await rpc(url, 'avm.getBlockByHeight', { height: '0', encoding: 'json' })).text).toBe(
      GENESIS_BLOCK_JSON_FIRST_RUN.replace('"txs":null', '"txs":[]'),
    );
    expect(await call(url, 'avm.getTx', { txID: AVAX_ID })).toEqual({ tx: GENESIS_TX_HEX, encoding: 'hex' });
  });

  it('after a restart: spent stays spent, and the chain goes on from the persisted tip', async () => {
    const spentID = encodeCB58(inputIDOf(t3.unsigned.base.inputs[0]!.utxoID));
    expect((await callError(url, 'avm.issueTx', { tx: encodeHex(t3.bytes, 'hex') })).message).toBe(
      `failed to verify transfer: failed to get utxo ${spentID}: not found`,
    );
    const t4 = pay(change, EWOQ_KEY, [out(9_000_000_000n, OTHER), out(amt(change) - 9_000_000_000n - FEE)]);
    await issue(url, t4);
    expect((await call(url, 'avm.getHeight')).height).toBe('4');
    const tip = (await call(url, 'avm.getBlockByHeight', { height: '4', encoding: 'json' })).block;
    expect(tip.parentID).toBe(JSON.parse(first!.blocks[3]!.json!).result.block.id);
    expect(tip.txs.map((t: { id: string }) => t.id)).toEqual([encodeCB58(t4.id)]);
    // The new UTXO heads OTHER's list (newest first, across the restart).
    const other = parseUTXOs(await call(url, 'avm.getUTXOs', { addresses: [OTHER_ADDR] }));
    expect(other).toHaveLength(3);
    expect(eq(other[0]!.utxoID.txID, t4.id)).toBe(true);
  });

  it('after a restart: balances include the new UTXO', async () => {
    expect((await call(url, 'avm.getBalance', { address: OTHER_ADDR, assetID: 'AVAX' })).balance).toBe('16000000000');
  });
});

describe('memdb', () => {
  it('starts fresh every time, even on the same data dir', async () => {
    const dataDir = tempDir('emu-xmem-');
    const t1 = pay(GENESIS_UTXO, EWOQ_KEY, [out(5_000_000_000n, OTHER), out(GENESIS_AMOUNT - 5_000_000_000n - FEE)]);
    for (let run = 0; run < 2; run++) {
      const node = await startTestNode({ dbType: 'memdb', dataDir });
      const url = `${node.uri}/ext/bc/X`;
      try {
        expect((await call(url, 'avm.getHeight')).height).toBe('0');
        expect(await call(url, 'avm.getBalance', { address: EWOQ_ADDR, assetID: 'AVAX' })).toEqual({
          balance: String(GENESIS_AMOUNT),
          utxoIDs: [{ txID: AVAX_ID, outputIndex: 1 }],
        });
        expect((await callError(url, 'avm.getTx', { txID: encodeCB58(t1.id) })).message).toBe('not found');
        expect((await rpc(url, 'avm.getTx', { txID: AVAX_ID, encoding: 'json' })).text).toBe(GENESIS_TX_JSON_FIRST_RUN);
        // The same tx is valid again on every fresh run.
        await issue(url, t1);
        expect((await call(url, 'avm.getHeight')).height).toBe('1');
        expect((await call(url, 'avm.getBalance', { address: OTHER_ADDR, assetID: 'AVAX' })).balance).toBe('5000000000');
      } finally {
        await node.stop();
      }
    }
  });
});

describe('--test-accounts', () => {
  const spawned: SpawnedNode[] = [];
  afterAll(async () => {
    for (const n of spawned)
      if (n.child.exitCode === null) {
        n.child.kill('SIGKILL');
        await n.exited;
      }
  });

  async function start(dataDir: string): Promise<SpawnedNode> {
    const n = await spawnNode(['--test-accounts=3'], dataDir);
    spawned.push(n);
    const deadline = Date.now() + 10_000;
    while (!n.output().includes('Listening on') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return n;
  }

  const dataDir = tempDir('emu-xacct-');
  let url = '';
  let addresses: string[] = [];

  it('the banner lists 3 addresses with their PrivateKey-... strings', async () => {
    const n = await start(dataDir);
    url = `${n.uri}/ext/bc/X`;
    const lines = [...n.output().matchAll(/^\s*\((\d+)\) (X-local1[02-9ac-hj-np-z]+)\s+(PrivateKey-[1-9A-HJ-NP-Za-km-z]+)\s*$/gm)];
    expect(lines.map((m) => m[1])).toEqual(['0', '1', '2']);
    addresses = lines.map((m) => m[2]!);
    expect(new Set(addresses).size).toBe(3);
    expect(addresses).not.toContain(EWOQ_ADDR);
    for (const m of lines) {
      // Each printed key is the key of the printed address.
      const key = decodeCB58(m[3]!.slice('PrivateKey-'.length));
      expect(key).toHaveLength(32);
      expect(formatAddress('X', 'local', addressOfPrivateKey(key))).toBe(m[2]);
    }
  });

  it('funds them in one block from ewoq, leaving every genesis ID alone', async () => {
    expect((await call(url, 'avm.getHeight')).height).toBe('1');
    for (const a of addresses) {
      const utxos = parseUTXOs(await call(url, 'avm.getUTXOs', { addresses: [a] }));
      expect(utxos.map((u) => [amt(u), u.output.owners.locktime, u.output.owners.threshold, eq(u.assetID, AVAX)])).toEqual([
        [10_000_000_000_000n, 0n, 1, true],
      ]);
    }
    const ewoq = parseUTXOs(await call(url, 'avm.getUTXOs', { addresses: [EWOQ_ADDR] }));
    expect(ewoq.map((u) => amt(u))).toEqual([GENESIS_AMOUNT - 3n * 10_000_000_000_000n - FEE]);
    expect(await call(url, 'avm.getTx', { txID: AVAX_ID })).toEqual({ tx: GENESIS_TX_HEX, encoding: 'hex' });
    const genesis = (await call(url, 'avm.getBlockByHeight', { height: '0', encoding: 'json' })).block;
    expect(genesis.id).toBe(GENESIS_BLOCK_ID);
    const block = (await call(url, 'avm.getBlockByHeight', { height: '1', encoding: 'json' })).block;
    expect(block.parentID).toBe(GENESIS_BLOCK_ID);
    expect(block.txs).toHaveLength(1);
    const funding = block.txs[0];
    expect(funding.unsignedTx.inputs.map((i: { txID: string; outputIndex: number }) => [i.txID, i.outputIndex])).toEqual([[AVAX_ID, 1]]);
    expect(funding.unsignedTx.outputs).toHaveLength(4);
    expect((await call(url, 'avm.getTxStatus', { txID: funding.id })).status).toBe('Accepted');
  });

  it('getBalance: each account holds exactly 10000000000000 nAVAX, ewoq the rest minus one fee', async () => {
    for (const a of addresses) {
      const b = await call(url, 'avm.getBalance', { address: a, assetID: 'AVAX' });
      expect(b.balance).toBe('10000000000000');
      expect(b.utxoIDs).toHaveLength(1);
    }
    expect((await call(url, 'avm.getBalance', { address: EWOQ_ADDR, assetID: 'AVAX' })).balance).toBe(String(GENESIS_AMOUNT - 3n * 10_000_000_000_000n - FEE));
  });

  it('a restart on the same data dir does not fund them again', async () => {
    const n = spawned.at(-1)!;
    n.child.kill('SIGTERM');
    expect(await n.exited).toBe(0);
    const again = await start(dataDir);
    const url2 = `${again.uri}/ext/bc/X`;
    expect((await call(url2, 'avm.getHeight')).height).toBe('1');
    for (const a of addresses) {
      expect(parseUTXOs(await call(url2, 'avm.getUTXOs', { addresses: [a] })).map((u) => amt(u))).toEqual([10_000_000_000_000n]);
    }
    expect(parseUTXOs(await call(url2, 'avm.getUTXOs', { addresses: [EWOQ_ADDR] })).map((u) => amt(u))).toEqual([
      GENESIS_AMOUNT - 3n * 10_000_000_000_000n - FEE,
    ]);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});
