// The pool's journal when the same tx is sent twice at once: a send answered with the tx's hash
// keeps its journal entry (kill -9 loses no acknowledged tx) even if, while it waited for its turn,
// the first send's tx left the pool and was forgotten; and an entry nobody keeps goes once the last
// send of it ends. Sends reach the pool in arrival order, so the interleaving is forced here by
// holding the journal write of a third tx sent between the two: this runs TxAdmission itself, over
// a real store, with its chain's head and accounts under the test's control.
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, createAddressFromPrivateKey } from '@ethereumjs/util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keccak256 } from '../src/crypto/keccak.js';
import { type Database, openDatabase } from '../src/storage/db.js';
import { TxAdmission } from '../src/vms/evm/admission.js';
import { BlockRules } from '../src/vms/evm/blockrules.js';
import { corethFlavor } from '../src/vms/evm/flavor.js';
import { chainCommon } from '../src/vms/evm/rules.js';
import { tempDir } from './helpers.js';

const common = chainCommon(43112n);
const alice = Uint8Array.from(Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex'));
const bob = Uint8Array.from(Buffer.alloc(32, 7));

function signed(key: Uint8Array, nonce: bigint): Uint8Array {
  const tx = createFeeMarket1559Tx(
    { chainId: 43112n, nonce, gasLimit: 21_000n, to: `0x${'11'.repeat(20)}`, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n },
    { common },
  );
  return tx.sign(key).serialize();
}

/** A store whose puts of one key wait for the test's go-ahead; and a count of finished puts per key. */
function gated(db: Database) {
  const done = new Map<string, number>();
  let held: { key: string; release: () => void; released: Promise<void> } | undefined;
  const journal = db.prefix('pool');
  const put = journal.put.bind(journal);
  const wrapped = Object.create(journal) as Database;
  wrapped.put = async (key, value) => {
    const k = bytesToHex(key);
    if (held?.key === k) await held.released;
    await put(key, value);
    done.set(k, (done.get(k) ?? 0) + 1);
  };
  const root = Object.create(db) as Database;
  root.prefix = (name) => (name === 'pool' ? wrapped : db.prefix(name));
  return {
    root,
    journal,
    puts: (hash: string) => done.get(hash) ?? 0,
    hold(hash: string) {
      let release!: () => void;
      const released = new Promise<void>((r) => {
        release = r;
      });
      held = { key: hash, release, released };
      return release;
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
}

describe('the pool journal under sends of the same tx at once', () => {
  let db: Database;
  let admission: TxAdmission;
  let store: ReturnType<typeof gated>;
  const chain = {
    common,
    flavor: corethFlavor(),
    head: { header: { gasLimit: 15_000_000n, number: 1n, time: 0n } },
    headRules: {},
    root: new Uint8Array(32),
    nonces: new Map<string, bigint>(),
    stateRootOf() {
      return this.root;
    },
    async account(address: Uint8Array) {
      return new Account(this.nonces.get(bytesToHex(address)) ?? 0n, 10n ** 24n);
    },
    withState: () => Promise.reject(new Error('no state reads expected')),
  };

  beforeEach(async () => {
    db = await openDatabase('memdb', tempDir());
    store = gated(db);
    chain.root = new Uint8Array(32);
    chain.nonces.clear();
    const rules = new BlockRules({ precompiles: [] } as unknown as ConstructorParameters<typeof BlockRules>[0], () => 0n);
    admission = new TxAdmission(store.root, { nowNs: () => 0n }, rules, chain as never, { poolBaseFee: () => 1n, runnable: () => {} });
  });
  afterEach(async () => {
    admission.close();
    await db.close();
  });

  /** Sends `tx`, then Bob's tx with its journal write held, then `tx` again; the first send ends added. */
  async function sendTwiceAroundAHeldSend(tx: Uint8Array) {
    const bobTx = signed(bob, 0n);
    const hash = bytesToHex(keccak256(tx));
    const release = store.hold(bytesToHex(keccak256(bobTx)));
    const first = admission.send(tx);
    const held = admission.send(bobTx);
    const second = admission.send(tx);
    await first;
    expect(admission.pool.has(hash)).toBe(true);
    // The second send has written its entry and waits for its turn, behind Bob's.
    await until(() => store.puts(hash) === 2);
    return { hash, release, held, second };
  }

  it('keeps the entry of a send answered after the first copy was dropped while it waited', async () => {
    const tx = signed(alice, 0n);
    const { hash, release, held, second } = await sendTwiceAroundAHeldSend(tx);
    // anvil_dropTransaction of the first copy: it leaves the pool, and would leave the journal.
    expect(await admission.drop(Buffer.from(hash.slice(2), 'hex'))).toBe(true);
    release();
    await held;
    // The second copy is added (the pool no longer knows it) and answered with its hash...
    expect(bytesToHex((await second).hash)).toBe(hash);
    expect(admission.pool.has(hash)).toBe(true);
    // ...and is durable: in the journal, so that a restart (a reload) brings it back.
    expect(Buffer.from((await store.journal.get(Buffer.from(hash.slice(2), 'hex'))) ?? []).equals(Buffer.from(tx))).toBe(true);
    await admission.reload();
    expect(admission.pool.has(hash)).toBe(true);
  });

  it('forgets the entry once the last send of it ends refused', async () => {
    const tx = signed(alice, 0n);
    const { hash, release, held, second } = await sendTwiceAroundAHeldSend(tx);
    expect(await admission.drop(Buffer.from(hash.slice(2), 'hex'))).toBe(true);
    // A block used Alice's nonce meanwhile: the second copy is checked again, and refused.
    chain.root = new Uint8Array(32).fill(1);
    chain.nonces.set(bytesToHex(createAddressFromPrivateKey(alice).bytes), 1n);
    release();
    await held;
    await expect(second).rejects.toThrow('nonce too low');
    expect(admission.pool.has(hash)).toBe(false);
    expect(await store.journal.get(Buffer.from(hash.slice(2), 'hex'))).toBeUndefined();
  });

  it('keeps the entry when the second copy is refused as already known', async () => {
    const tx = signed(alice, 0n);
    const { hash, release, held, second } = await sendTwiceAroundAHeldSend(tx);
    release();
    await held;
    await expect(second).rejects.toThrow('already known');
    expect(Buffer.from((await store.journal.get(Buffer.from(hash.slice(2), 'hex'))) ?? []).equals(Buffer.from(tx))).toBe(true);
  });

  it("writes and forgets an impersonated tx's entry and its sender together", async () => {
    // Sent as someone else's (anvil_impersonateAccount): the bytes' signature names nobody that matters.
    const whale = new Address(Buffer.alloc(20, 0x77));
    const tx = signed(alice, 0n);
    const { hash } = await admission.send(tx, whale);
    const senders = db.prefix('pool-senders');
    expect(Buffer.from((await senders.get(hash)) ?? []).equals(whale.bytes)).toBe(true);
    expect(await store.journal.get(hash)).toBeDefined();
    // A restart's reload takes it back as the whale's.
    await admission.reload();
    expect(admission.pool.get(bytesToHex(hash))?.fromHex).toBe(whale.toString());
    expect(await admission.drop(hash)).toBe(true);
    expect(await store.journal.get(hash)).toBeUndefined();
    expect(await senders.get(hash)).toBeUndefined();
  });
});
