// Subnet-EVM L1s given with --l1: the chain from fixtures/myl1.json (subnet-evm's tests/warp genesis)
// served under its alias and blockchain ID, through viem as a dapp uses it: Subnet-EVM's genesis
// block, header layout and fee window, its fee flow (the whole fee to the blackhole coinbase), its
// extra eth_ methods with their exact shapes and refusals, the validators API, and a restart.
// Expected values are avalanchego 1.14's graft/subnet-evm (docs/research/subnet-evm-chain.md).
import { join } from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  type Hex,
  http,
  parseEther,
  type PublicClient,
  type WalletClient,
  nonceManager,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, rpc, runCli, startTestNode, tempDir, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const BLACKHOLE = '0x0100000000000000000000000000000000000000';
const MIN_BASE_FEE = 1_000_000_000n;
/** Computed with an encoder that reproduces subnet-evm's own genesis vectors (no live node states it). */
const GENESIS_HASH = '0x7256c23627180e3986881429097fd4bfc183766f1e862a834e33ad2e43dcb95a';
const GENESIS_ROOT = '0xe294536c03b633cad9df07608de91dbc1bfcab4de381c980e83f63975808b931';
const FEE_CONFIG = {
  gasLimit: 20000000,
  targetBlockRate: 2,
  minBaseFee: 1000000000,
  targetGas: 100000000,
  baseFeeChangeDenominator: 48,
  minBlockGasCost: 0,
  maxBlockGasCost: 10000000,
  blockGasCostStep: 500000,
};

const myl1 = defineChain({
  id: 99999,
  name: 'myl1',
  nativeCurrency: { name: 'Token', symbol: 'TKN', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

async function eth(url: string, method: string, params: unknown[] = []) {
  return (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json;
}

describe('an L1 from a Subnet-EVM genesis (--l1=fixtures/myl1.json)', () => {
  let node: TestNode;
  let url: string;
  let client: PublicClient;
  let wallet: WalletClient;
  let blockchainID: string;

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    url = `${node.uri}/ext/bc/myl1/rpc`;
    client = createPublicClient({ chain: myl1, transport: http(url), cacheTime: 0 }) as PublicClient;
    wallet = createWalletClient({ chain: myl1, transport: http(url), account: privateKeyToAccount(EWOQ_KEY, { nonceManager }) });
    blockchainID = (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).json.result.blockchainID;
  });
  afterAll(() => node.stop());

  it('is served under its alias and its blockchain ID, with its own health check', async () => {
    expect(blockchainID).toMatch(/^[1-9A-HJ-NP-Za-km-z]{49,50}$/);
    for (const path of [`/ext/bc/myl1/rpc`, `/ext/bc/${blockchainID}/rpc`]) {
      expect((await post(`${node.uri}${path}`, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')).json.result).toBe('0x1869f');
    }
    expect((await eth(url, 'net_version')).result).toBe('99999');
    expect((await eth(url, 'web3_clientVersion')).result).toBe('v0.8.0');
    const health = (await (await fetch(`${node.uri}/ext/health`)).json()) as { healthy: boolean; checks: Record<string, { error?: unknown }> };
    expect(health.healthy).toBe(true);
    expect(Object.keys(health.checks)).toContain('myl1');
  });

  it("builds Subnet-EVM's genesis block: its header layout, base fee and the warp stub", async () => {
    const g = await eth(url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(g.result.hash).toBe(GENESIS_HASH);
    expect(g.result.stateRoot).toBe(GENESIS_ROOT);
    expect(g.result.size).toBe('0x231');
    expect(g.result.baseFeePerGas).toBe('0x3b9aca00');
    expect(g.result.extDataHash).toBeUndefined();
    expect(g.result.blockExtraData).toBeUndefined();
    expect(await client.getBalance({ address: EWOQ })).toBe(100_000_000n * 10n ** 18n);
    expect(await client.getCode({ address: '0x0200000000000000000000000000000000000005' })).toBe('0x01');
  });

  it('mines a transfer with the fee window in extraData, minBaseFee, and the whole fee to the blackhole', async () => {
    const before = await client.getBalance({ address: BLACKHOLE });
    const hash = await wallet.sendTransaction({
      to: '0x1111111111111111111111111111111111111111',
      value: parseEther('1'),
      chain: myl1,
      account: wallet.account!,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.baseFeePerGas).toBe(MIN_BASE_FEE);
    expect(block.gasLimit).toBe(20_000_000n);
    expect(block.miner).toBe(BLACKHOLE);
    expect(block.difficulty).toBe(1n);
    // 80 bytes of window, then the empty predicate results (6 bytes).
    expect(block.extraData.length).toBe(2 + 86 * 2);
    const raw = await eth(url, 'eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false]);
    expect(raw.result.blockGasCost).toBe('0x0');
    expect(BigInt(raw.result.timestampMilliseconds) / 1000n).toBe(BigInt(raw.result.timestamp));
    expect((await client.getBalance({ address: BLACKHOLE })) - before).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
  });

  it('deploys a contract compiled with solc and reads its events', async () => {
    const token = fixture('TestToken');
    const account = wallet.account!;
    const deploy = await wallet.deployContract({
      abi: token.abi as Abi,
      bytecode: token.bytecode as Hex,
      args: ['L1 Token', 'L1T', 1_000n],
      chain: myl1,
      account,
    });
    const address = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    const tx = await wallet.writeContract({
      address,
      abi: token.abi as Abi,
      functionName: 'transfer',
      args: ['0x2222222222222222222222222222222222222222', 5n],
      chain: myl1,
      account,
    });
    const receipt = await client.waitForTransactionReceipt({ hash: tx });
    const event = decodeEventLog({ abi: token.abi as Abi, data: receipt.logs[0]!.data, topics: receipt.logs[0]!.topics });
    expect(event.eventName).toBe('Transfer');
    expect(await client.readContract({ address, abi: token.abi as Abi, functionName: 'balanceOf', args: ['0x2222222222222222222222222222222222222222'] })).toBe(
      5n,
    );
  });

  it("answers Subnet-EVM's eth_ extras with their exact shapes", async () => {
    expect((await eth(url, 'eth_feeConfig')).result).toEqual({ feeConfig: FEE_CONFIG, lastChangedAt: 0 });
    expect((await eth(url, 'eth_feeConfig', ['latest'])).result.lastChangedAt).toBe(0);
    const config = (await post(url, '{"jsonrpc":"2.0","id":1,"method":"eth_getChainConfig"}')).text;
    expect(config).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"berlinBlock":0,"byzantiumBlock":0,"cancunTime":1607144400,"chainId":99999,"constantinopleBlock":0,"durangoTimestamp":1607144400,"eip150Block":0,"eip155Block":0,"eip158Block":0,"etnaTimestamp":1607144400,"feeConfig":{"gasLimit":20000000,"targetBlockRate":2,"minBaseFee":1000000000,"targetGas":100000000,"baseFeeChangeDenominator":48,"minBlockGasCost":0,"maxBlockGasCost":10000000,"blockGasCostStep":500000},"graniteTimestamp":1607144400,"heliconTimestamp":253399622400,"homesteadBlock":0,"istanbulBlock":0,"londonBlock":0,"muirGlacierBlock":0,"petersburgBlock":0,"shanghaiTime":1607144400,"subnetEVMTimestamp":0,"warpConfig":{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false},"upgrades":{}}}\n',
    );
    const rules = (await eth(url, 'eth_getActiveRulesAt', [1607144400])).result;
    expect(rules.ethRules).toMatchObject({ ChainID: 99999, IsCancun: true, IsPrague: false });
    expect(rules.avalancheRules).toEqual({ IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsFortuna: false, IsGranite: true, IsHelicon: false });
    expect(rules.precompiles).toEqual({ warpConfig: { timestamp: 1607144400 } });
    expect((await eth(url, 'eth_getActiveRulesAt', [1607144399])).result.precompiles).toEqual({});
    // geth's rpc decodes a *uint64: a JSON number only, as the real node (the avalanche SDK's "latest" is refused there too).
    expect((await eth(url, 'eth_getActiveRulesAt', ['latest'])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64',
    });
    expect((await eth(url, 'eth_getActivePrecompilesAt')).result).toEqual({
      warpConfig: { blockTimestamp: 1607144400, quorumNumerator: 0, requirePrimaryNetworkSigners: false },
    });
    // coreth's extras are not Subnet-EVM's.
    expect((await eth(url, 'eth_suggestPriceOptions')).error.code).toBe(-32601);
    expect((await eth(`${node.uri}/ext/bc/C/rpc`, 'eth_feeConfig')).error.code).toBe(-32601);
  });

  it('refuses a fee cap under minBaseFee with the pool minimum in the text', async () => {
    const account = privateKeyToAccount(EWOQ_KEY);
    const nonce = await client.getTransactionCount({ address: EWOQ });
    const raw = await account.signTransaction({
      chainId: 99999,
      nonce,
      to: EWOQ,
      value: 0n,
      gas: 21000n,
      maxFeePerGas: MIN_BASE_FEE - 1n,
      maxPriorityFeePerGas: 0n,
    });
    expect((await eth(url, 'eth_sendRawTransaction', [raw])).error).toEqual({
      code: -32000,
      message: `transaction underpriced: address ${EWOQ} have gas fee cap (${MIN_BASE_FEE - 1n}) < pool minimum fee cap (${MIN_BASE_FEE})`,
    });
  });

  it('lists the node as the L1 validator at /validators (gorilla dialect)', async () => {
    const r = await rpc(`${node.uri}/ext/bc/myl1/validators`, 'validators.getCurrentValidators', {});
    const [v] = r.json.result.validators;
    expect(Object.keys(v)).toEqual([
      'validationID',
      'nodeID',
      'weight',
      'startTimestamp',
      'isActive',
      'isL1Validator',
      'isConnected',
      'uptimePercentage',
      'uptimeSeconds',
    ]);
    expect(v).toMatchObject({
      nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
      weight: 100,
      isActive: true,
      isL1Validator: true,
      isConnected: true,
      uptimePercentage: 100,
    });
    expect(
      (await rpc(`${node.uri}/ext/bc/myl1/validators`, 'validators.getCurrentValidators', { nodeIDs: ['NodeID-111111111111111111116DBWJs'] })).json.result
        .validators,
    ).toEqual([]);
    expect((await rpc(`${node.uri}/ext/bc/C/validators`, 'validators.getCurrentValidators', {})).status).toBe(404);
  });
});

describe('L1 start-up errors and restarts', () => {
  const genesisWith = (edit: (g: Record<string, any>) => void) => {
    const g = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    edit(g);
    const dir = tempDir();
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify(g));
    return path;
  };
  const start = (path: string) => runCli(['--db-type=memdb', '--http-port=0', `--data-dir=${tempDir()}`, `--l1=${path}`]);

  it("refuses a genesis Subnet-EVM refuses, with subnet-evm's texts", async () => {
    const mismatch = await start(genesisWith((g) => (g.gasLimit = '0x1')));
    expect(mismatch.code).toBe(1);
    expect(mismatch.stdout).toContain('failed to verify genesis: gas limit in fee config (20000000) does not match gas limit in header (1)');
    const fee = await start(genesisWith((g) => (g.config.feeConfig.targetGas = 0)));
    expect(fee.stdout).toContain('failed to verify genesis: invalid fee config: targetGas cannot be less than or equal to 0: targetGas = 0');
    const warp = await start(genesisWith((g) => (g.config.warpConfig = { blockTimestamp: 1607144400, quorumNumerator: 20 })));
    expect(warp.stdout).toContain('invalid warp quorum ratio: cannot specify numerator (20) < min numerator (33)');
    const missing = await start(genesisWith((g) => delete g.alloc));
    expect(missing.stdout).toContain("parsing genesis: missing required field 'alloc' for Genesis");
  });

  it('keeps the L1 across a restart on the same data dir, under the same IDs and aliases (with --chain-aliases-file)', async () => {
    const dataDir = tempDir();
    const aliasesFile = join(tempDir(), 'aliases.json');
    let node = await startTestNode({ dataDir, l1: [FIXTURE] });
    const url = (n: TestNode) => `${n.uri}/ext/bc/myl1/rpc`;
    const id = (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).json.result.blockchainID;
    const account = privateKeyToAccount(EWOQ_KEY);
    const raw = await account.signTransaction({
      chainId: 99999,
      nonce: 0,
      to: EWOQ,
      value: 1n,
      gas: 21000n,
      maxFeePerGas: 2n * MIN_BASE_FEE,
      maxPriorityFeePerGas: 1n,
    });
    const hash = (await eth(url(node), 'eth_sendRawTransaction', [raw])).result;
    await node.stop();
    mkdirSync(join(aliasesFile, '..'), { recursive: true });
    writeFileSync(aliasesFile, JSON.stringify({ [id]: ['devnet'] }));
    node = await startTestNode({ dataDir, l1: [FIXTURE], chainAliasesFile: aliasesFile });
    try {
      expect((await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).json.result.blockchainID).toBe(id);
      expect((await eth(url(node), 'eth_getTransactionReceipt', [hash])).result.status).toBe('0x1');
      expect((await eth(`${node.uri}/ext/bc/devnet/rpc`, 'eth_blockNumber')).result).toBe('0x1');
    } finally {
      await node.stop();
    }
  });
});

describe("an L1's upgrade.json (--chain-config-dir/<alias>/upgrade.json)", () => {
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  const sign = (account: typeof ewoq, nonce: number, to: Hex = EWOQ, value = 0n) =>
    account.signTransaction({ chainId: 99999, nonce, to, value, gas: 21_000n, maxFeePerGas: 10n * MIN_BASE_FEE, maxPriorityFeePerGas: 1n });
  /** Waits until the clock is past `t` (seconds). */
  const until = async (t: number) => {
    while (Date.now() / 1000 < t + 0.05) await new Promise((r) => setTimeout(r, 50));
  };

  it('enables a precompile at a timestamp, disables it later, and applies a state upgrade, each in the first block past its time', async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    const now = Math.floor(Date.now() / 1000);
    const on = now + 2;
    const off = now + 4;
    const upgrade = {
      precompileUpgrades: [
        { txAllowListConfig: { blockTimestamp: on, adminAddresses: [EWOQ] } },
        { txAllowListConfig: { blockTimestamp: off, disable: true } },
      ],
      stateUpgrades: [
        {
          blockTimestamp: on,
          accounts: { '0x6666666666666666666666666666666666666666': { code: '0x6001', storage: { '0x01': '0x02' }, balanceChange: '0x64' } },
        },
      ],
    };
    writeFileSync(join(configDir, 'myl1', 'upgrade.json'), JSON.stringify(upgrade));
    const node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE], chainConfigDir: configDir });
    const url = `${node.uri}/ext/bc/myl1/rpc`;
    const stranger = privateKeyToAccount('0x1111111111111111111111111111111111111111111111111111111111111111');
    let ewoqNonce = 0;
    const sendFromEwoq = async (to: Hex = EWOQ, value = 0n) => (await eth(url, 'eth_sendRawTransaction', [await sign(ewoq, ewoqNonce++, to, value)])).result;
    try {
      const config = (await eth(url, 'eth_getChainConfig')).result;
      expect(config.upgrades).toEqual({
        stateUpgrades: [
          {
            blockTimestamp: on,
            accounts: { '0x6666666666666666666666666666666666666666': { code: '0x6001', storage: { '0x01': '0x02' }, balanceChange: '0x64' } },
          },
        ],
        precompileUpgrades: [
          { txAllowListConfig: { adminAddresses: [EWOQ.toLowerCase()], blockTimestamp: on } },
          { txAllowListConfig: { blockTimestamp: off, disable: true } },
        ],
      });
      await sendFromEwoq(stranger.address, 10n ** 18n);
      expect(await eth(url, 'eth_getCode', ['0x0200000000000000000000000000000000000002', 'latest'])).toMatchObject({ result: '0x' });
      await until(on);
      // The first block past the time activates it (and runs the state upgrade).
      await sendFromEwoq();
      expect((await eth(url, 'eth_getCode', ['0x0200000000000000000000000000000000000002', 'latest'])).result).toBe('0x01');
      expect((await eth(url, 'eth_getCode', ['0x6666666666666666666666666666666666666666', 'latest'])).result).toBe('0x6001');
      expect((await eth(url, 'eth_getStorageAt', ['0x6666666666666666666666666666666666666666', '0x1', 'latest'])).result).toBe(`0x${'2'.padStart(64, '0')}`);
      expect((await eth(url, 'eth_getBalance', ['0x6666666666666666666666666666666666666666', 'latest'])).result).toBe('0x64');
      expect((await eth(url, 'eth_getActiveRulesAt', [on])).result.precompiles).toMatchObject({ txAllowListConfig: { timestamp: on } });
      expect((await eth(url, 'eth_sendRawTransaction', [await sign(stranger, 0)])).error.message).toBe(
        `cannot issue transaction from non-allow listed address: ${stranger.address}`,
      );
      await until(off);
      await sendFromEwoq();
      expect((await eth(url, 'eth_getCode', ['0x0200000000000000000000000000000000000002', 'latest'])).result).toBe('0x');
      expect((await eth(url, 'eth_sendRawTransaction', [await sign(stranger, 0)])).result).toMatch(/^0x[0-9a-f]{64}$/);
    } finally {
      await node.stop();
    }
  });

  it('applies a state upgrade once, though rounds past its time built no block (a queued tx waits for its gap)', async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    const on = Math.floor(Date.now() / 1000) + 2;
    const target = '0x7777777777777777777777777777777777777777';
    const upgrade = { stateUpgrades: [{ blockTimestamp: on, accounts: { [target]: { balanceChange: '0x64' } } }] };
    writeFileSync(join(configDir, 'myl1', 'upgrade.json'), JSON.stringify(upgrade));
    const node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE], chainConfigDir: configDir });
    const url = `${node.uri}/ext/bc/myl1/rpc`;
    try {
      const head = (await eth(url, 'eth_blockNumber')).result;
      await until(on);
      // Txs past a nonce gap: each send runs a round that can include nothing, so builds no block.
      for (const nonce of [1, 2]) {
        expect((await eth(url, 'eth_sendRawTransaction', [await sign(ewoq, nonce)])).result).toMatch(/^0x[0-9a-f]{64}$/);
        await new Promise((r) => setTimeout(r, 150));
        expect((await eth(url, 'eth_blockNumber')).result).toBe(head);
      }
      expect((await eth(url, 'eth_getBalance', [target, 'latest'])).result).toBe('0x0');
      // The gap filled, the block takes the three txs and the upgrade, once.
      const hash = (await eth(url, 'eth_sendRawTransaction', [await sign(ewoq, 0)])).result;
      const receipt = (await eth(url, 'eth_getTransactionReceipt', [hash])).result;
      expect(receipt.status).toBe('0x1');
      expect((await eth(url, 'eth_getBalance', [target, 'latest'])).result).toBe('0x64');
      expect((await eth(url, 'eth_getBalance', [target, receipt.blockNumber])).result).toBe('0x64');
    } finally {
      await node.stop();
    }
  });

  it("refuses an upgrade.json subnet-evm refuses, with subnet-evm's texts", async () => {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'myl1'));
    const start = () => runCli(['--db-type=memdb', '--http-port=0', `--data-dir=${tempDir()}`, `--l1=${FIXTURE}`, `--chain-config-dir=${configDir}`]);
    writeFileSync(
      join(configDir, 'myl1', 'upgrade.json'),
      JSON.stringify({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1900000000, disable: true } }] }),
    );
    expect((await start()).stdout).toContain(
      'failed to verify genesis: invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be false',
    );
    writeFileSync(join(configDir, 'myl1', 'upgrade.json'), JSON.stringify({ precompileUpgrades: [{ txAllowListConfig: {}, feeManagerConfig: {} }] }));
    expect((await start()).stdout).toContain('failed to parse upgrade bytes: PrecompileUpgrade must have exactly one key, got 2');
  });
});
