// Forking an L1 whose upstream has an upgrade.json (--fork-l1): the fork takes the upgrades with the
// chain config (eth_getChainConfig's `upgrades`, the precompiles' later activations), acts on them as
// the upstream does (a tx allow list an upgrade enabled refuses a stranger), does not apply again the
// state upgrade the upstream's state already holds, leaves out networkUpgradeOverrides (folded into
// the config's times), and keeps them across restarts with the upstream stopped, with or without
// the flag.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Hex, parseGwei } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, rpc, startTestNode, type TestNode, tempDir } from './helpers.js';
import { rpcProxy } from './support/rpcproxy.js';

const MYL1 = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const UPGRADED: Hex = '0x6666666666666666666666666666666666666666';
const SINK: Hex = '0x000000000000000000000000000000000000dEaD';

/** A plain transfer signed by `from` (legacy, a fixed price), sent: the JSON-RPC reply. */
async function transfer(url: string, from: typeof ewoq, to: Hex, nonce: number) {
  const raw = await from.signTransaction({ type: 'legacy', chainId: 99999, nonce, gas: 21_000n, gasPrice: parseGwei('50'), to, value: 1n });
  return rpc(url, 'eth_sendRawTransaction', [raw]);
}

const stranger = privateKeyToAccount(generatePrivateKey());

/** That the stranger's transfer is refused by the tx allow list. */
async function refusesStranger(url: string): Promise<void> {
  const refused = await transfer(url, stranger, ewoq.address, 0);
  expect(refused.json.error?.message).toBe(`cannot issue transaction from non-allow listed address: ${stranger.address}`);
}

/** That ewoq's transfer (the allow list's admin) is mined, and then a stranger's refused. */
async function enforcesAllowList(url: string): Promise<void> {
  const nonce = Number(await call(url, 'eth_getTransactionCount', [ewoq.address, 'latest']));
  const hash = (await transfer(url, ewoq, SINK, nonce)).json.result;
  expect((await call(url, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
  await refusesStranger(url);
}

let upstream: TestNode;
let U: string;
let upgrades: unknown;
let forkBlock: bigint;
/** The forked L1's blockchain ID: without --fork-l1 a restart has no alias for it. */
let forkID: string;
const forkDir = tempDir('fork-l1-upgrades-');

beforeAll(async () => {
  const configDir = tempDir();
  mkdirSync(join(configDir, 'myl1'));
  const on = Math.floor(Date.now() / 1000) + 2;
  const upgrade = {
    precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: on, adminAddresses: [ewoq.address] } }],
    stateUpgrades: [{ blockTimestamp: on, accounts: { [UPGRADED]: { code: '0x6001', storage: { '0x01': '0x02' }, balanceChange: '0x64' } } }],
  };
  writeFileSync(join(configDir, 'myl1', 'upgrade.json'), JSON.stringify(upgrade));
  upstream = await startTestNode({ dbType: 'memdb', dev: true, l1: [MYL1], chainConfigDir: configDir });
  U = `${upstream.uri}/ext/bc/myl1/rpc`;
  upgrades = (await call(U, 'eth_getChainConfig')).upgrades;
  expect(upgrades).toMatchObject({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: on } }] });
  // The stranger is funded by a tx, before the allow list: a dev edit would make the upstream's
  // eth_getProof answer the edited state rather than its block's, which a fork cannot check.
  const funded = (
    await rpc(U, 'eth_sendRawTransaction', [
      await ewoq.signTransaction({
        type: 'legacy',
        chainId: 99999,
        nonce: 0,
        gas: 21_000n,
        gasPrice: parseGwei('50'),
        to: stranger.address,
        value: 10n ** 18n,
      }),
    ])
  ).json.result;
  expect((await call(U, 'eth_getTransactionReceipt', [funded])).status).toBe('0x1');
  while (Date.now() / 1000 < on + 0.05) await new Promise((r) => setTimeout(r, 50));
  // The first block past the time (ewoq's transfer) activates the allow list and runs the state upgrade.
  await enforcesAllowList(U);
  forkBlock = BigInt(await call(U, 'eth_blockNumber'));
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
});

const startFork = () => startTestNode({ dbType: 'leveldb', dataDir: forkDir, dev: true, forkL1: [`forked=${U}@${forkBlock}`] });

it("takes the upstream's upgrades with its chain config, acts on them and applies none again", async () => {
  const fork = await startFork();
  const F = `${fork.uri}/ext/bc/forked/rpc`;
  forkID = (await call(`${fork.uri}/ext/info`, 'info.getBlockchainID', { alias: 'forked' })).blockchainID;
  try {
    expect(await call(F, 'eth_getChainConfig')).toEqual(await call(U, 'eth_getChainConfig'));
    await enforcesAllowList(F);
    // The state upgrade is in the upstream's state at the fork block, and not applied a second time.
    expect(await call(F, 'eth_getCode', [UPGRADED, 'latest'])).toBe('0x6001');
    expect(await call(F, 'eth_getStorageAt', [UPGRADED, '0x1', 'latest'])).toBe(`0x${'0'.repeat(63)}2`);
    expect(await call(F, 'eth_getBalance', [UPGRADED, 'latest'])).toBe('0x64');
  } finally {
    await fork.stop();
  }
}, 60_000);

it('leaves out the networkUpgradeOverrides of an upstream that has some', async () => {
  // A proxy adds them to the upstream's upgrades, as an L1 that overrides an upgrade time answers.
  const proxy = await rpcProxy(U, {
    reply: (answer) => {
      if (answer.result?.upgrades) answer.result.upgrades = { ...answer.result.upgrades, networkUpgradeOverrides: { graniteTimestamp: 0 } };
      return answer;
    },
  });
  const url = proxy.url;
  try {
    const fork = await startTestNode({ dbType: 'memdb', dev: true, forkL1: [`forked=${url}@${forkBlock}`] });
    try {
      expect((await call(`${fork.uri}/ext/bc/forked/rpc`, 'eth_getChainConfig')).upgrades).toEqual(upgrades);
    } finally {
      await fork.stop();
    }
  } finally {
    proxy.close();
  }
}, 60_000);

it('keeps them across restarts with the upstream stopped, with the flag or without it', async () => {
  await upstream.stop();
  const restarts = [
    { start: () => startTestNode({ dbType: 'leveldb', dataDir: forkDir, dev: true }), path: forkID },
    { start: startFork, path: 'forked' },
  ];
  for (const { start, path } of restarts) {
    const node = await start();
    const F = `${node.uri}/ext/bc/${path}/rpc`;
    try {
      expect((await call(F, 'eth_getChainConfig')).upgrades).toEqual(upgrades);
      // What the first run read of the upstream is in the fork cache: the stranger's role, its balance.
      await refusesStranger(F);
    } finally {
      await node.stop();
    }
  }
}, 60_000);
