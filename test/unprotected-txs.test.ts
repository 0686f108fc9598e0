// Txs without EIP-155 replay protection over eth_sendRawTransaction, as coreth's UnprotectedAllowed
// takes them: refused, except Nick's method (nonce 0 and r = s: a keyless deployment, which puts a
// contract at the same address on every chain, as ICM's messenger and EIP-1820's registry are
// deployed), a hash the chain config's allow-unprotected-tx-hashes lists, or any with
// allow-unprotected-txs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx, createLegacyTxFromRLP } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, rpc, startTestNode, tempDir, type TestNode } from './helpers.js';

const homestead = new Common({ chain: Mainnet, hardfork: Hardfork.Homestead });
/** A contract whose runtime is one STOP byte. */
const INIT = Uint8Array.from(Buffer.from('6001600c60003960016000f300', 'hex'));

/** A keyless deployment: signed by nobody, v = 27 and r = s, so whoever recovers as its sender pays for it. */
function keyless(seed: number): { raw: string; sender: string } {
  for (let r = BigInt(seed); ; r++) {
    const fields = [0n, 100n * 10n ** 9n, 200_000n].map(bigIntToUnpaddedBytes);
    const bytes = RLP.encode([...fields, new Uint8Array(), new Uint8Array(), INIT, Uint8Array.of(27), bigIntToUnpaddedBytes(r), bigIntToUnpaddedBytes(r)]);
    try {
      const tx = createLegacyTxFromRLP(bytes, { common: homestead });
      return { raw: bytesToHex(bytes), sender: tx.getSenderAddress().toString() };
    } catch {
      // Not every r is the x of a curve point: the next one is tried.
    }
  }
}

/** An unprotected transfer signed by `key`'s byte repeated: refused unless listed. */
const unprotected = (key: number) =>
  createLegacyTx({ nonce: 0, to: '0x000000000000000000000000000000000000dead', gasLimit: 21_000n, gasPrice: 10n ** 11n }, { common: homestead }).sign(
    Buffer.alloc(32, key),
  );

describe('unprotected txs on the C-Chain', () => {
  let node: TestNode;
  let C: string;
  const listed = unprotected(7);
  beforeAll(async () => {
    const configDir = tempDir('unprotected-');
    mkdirSync(join(configDir, 'C'), { recursive: true });
    writeFileSync(join(configDir, 'C', 'config.json'), JSON.stringify({ 'allow-unprotected-tx-hashes': [bytesToHex(listed.hash())] }));
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, chainConfigDir: configDir });
    C = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node?.stop());

  const fund = async (to: string, wei: bigint) => {
    const [from] = await call(C, 'eth_accounts');
    await call(C, 'eth_getTransactionReceipt', [await call(C, 'eth_sendTransaction', [{ from, to, value: `0x${wei.toString(16)}` }])]);
  };

  it("takes a Nick's-method deployment and puts its contract at the keyless sender's first address", async () => {
    const { raw, sender } = keyless(0x1000);
    await fund(sender, 10n ** 17n);
    const hash = await call(C, 'eth_sendRawTransaction', [raw]);
    const receipt = await call(C, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.from).toBe(sender.toLowerCase());
    expect(await call(C, 'eth_getCode', [receipt.contractAddress, 'latest'])).toBe('0x00');
  });

  it('refuses any other unprotected tx, unless the chain config lists its hash', async () => {
    const { json } = await rpc(C, 'eth_sendRawTransaction', [bytesToHex(unprotected(9).serialize())]);
    expect(json.error).toEqual({ code: -32000, message: 'only replay-protected (EIP-155) transactions allowed over RPC' });
    await fund(listed.getSenderAddress().toString(), 10n ** 16n);
    const hash = await call(C, 'eth_sendRawTransaction', [bytesToHex(listed.serialize())]);
    expect((await call(C, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
  });
});
