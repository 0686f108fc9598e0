// What the command prints once the node serves: the network, the APIs that are on, every chain's
// address, the test accounts with the keys each kind of client takes (X/P addresses and
// PrivateKey-… for avalanchejs and the wallet APIs; 0x addresses and hex keys for ethers, viem,
// Foundry and Hardhat), and the local network's public ewoq key with what it holds, read from the
// node's own APIs so the figures are the ones a client will see.
import http from 'node:http';
import { bytesToHex as hexOf, toChecksumAddress } from '@ethereumjs/util';
import { LOCAL_NODE } from './chains/ids.js';
import { NODE_VERSION } from './chains/vms.js';
import type { NodeConfig } from './config/load.js';
import type { RunningNode } from './node/index.js';
import { formatAddress } from './vms/components/avax/index.js';
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, privateKeyString, TEST_ACCOUNT_BALANCE } from './vms/avm/index.js';
import { evmAddressOf, EWOQ_EVM_ADDRESS, MESSENGER_ADDRESS, REGISTRY_ADDRESS, TEST_ACCOUNT_WEI } from './vms/evm/index.js';
import { RELAYER_ADDRESS, RELAYER_KEY } from './relayer/key.js';

/** An amount with its decimals (9 for nAVAX, 18 for wei), thousands grouped, trailing zeros dropped. */
export function formatAmount(amount: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const whole = (amount / unit).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (amount % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function apisOf(config: NodeConfig): string {
  return [
    config.apiAdminEnabled && 'admin',
    config.apiInfoEnabled && 'info',
    config.apiHealthEnabled && 'health',
    config.apiMetricsEnabled && 'metrics',
    config.indexEnabled && 'index',
    config.apiEmulatorEnabled && 'emulator',
    config.apiDataEnabled && 'Data API (/v1)',
    config.apiDataEnabled && 'Metrics API (/v2)',
    config.dev && "dev controls (Anvil's methods, debug_*, txpool_*)",
  ]
    .filter(Boolean)
    .join(', ');
}

/** The two lines of one key: its X/P address and avalanchejs key, then its EVM address and hex key. */
function keyLines(config: NodeConfig, key: Uint8Array, address: Uint8Array, evm: Uint8Array, first: string): string[] {
  return [
    `${first}${formatAddress('X', config.hrp, address)}  ${privateKeyString(key)}`,
    `${' '.repeat(first.length)}${toChecksumAddress(hexOf(evm))}  ${hexOf(key)}`,
  ];
}

/**
 * One JSON-RPC call to the node itself, through node:http (which the server has loaded already):
 * Node's fetch would load undici for these few calls, some 40 ms of a start-up's CPU.
 */
function rpc<T>(url: string, method: string, params: unknown): Promise<T> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { result?: unknown; error?: { message: string } };
            if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
            resolve(reply.result as T);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What ewoq holds on X, P, C and each L1, as the chains' APIs report it. */
async function ewoqHoldings(node: RunningNode): Promise<string> {
  const x = formatAddress('X', node.config.hrp, EWOQ_ADDRESS);
  const evm = hexOf(EWOQ_EVM_ADDRESS);
  const [onX, onP, onC, ...onL1s] = await Promise.all([
    rpc<{ balance: string }>(`${node.uri}/ext/bc/X`, 'avm.getBalance', { address: x, assetID: 'AVAX' }).then((r) => BigInt(r.balance)),
    rpc<{ balance: string }>(`${node.uri}/ext/bc/P`, 'platform.getBalance', { addresses: [`P${x.slice(1)}`] }).then((r) => BigInt(r.balance)),
    rpc<string>(`${node.uri}/ext/bc/C/rpc`, 'eth_getBalance', [evm, 'latest']).then(BigInt),
    ...node.l1s.map((l) => rpc<string>(`${node.uri}/ext/bc/${l.blockchainID}/rpc`, 'eth_getBalance', [evm, 'latest']).then(BigInt)),
  ]);
  const l1s = node.l1s.map((l, i) => `, ${formatAmount(onL1s[i]!, 18)} on ${l.name}`).join('');
  return `holds ${formatAmount(onX!, 9)} AVAX on X, ${formatAmount(onP!, 9)} on P (locked included), ${formatAmount(onC!, 18)} on C${l1s}`;
}

/** The L1s whose native token the test accounts were given (those whose genesis funds ewoq), as their APIs report it. */
async function fundedL1s(node: RunningNode): Promise<string> {
  const [first] = node.testAccounts;
  if (!first || node.l1s.length === 0) return '';
  const evm = hexOf(evmAddressOf(first.privateKey));
  const held = await Promise.all(node.l1s.map((l) => rpc<string>(`${node.uri}/ext/bc/${l.blockchainID}/rpc`, 'eth_getBalance', [evm, 'latest']).then(BigInt)));
  const names = node.l1s.filter((_, i) => held[i]! >= TEST_ACCOUNT_WEI).map((l) => l.name);
  return names.length === 0 ? '' : `, ${formatAmount(TEST_ACCOUNT_WEI, 18)} of the native token on ${names.join(', ')}`;
}

/** ICM's addresses and the relayer's account (its key is as public as ewoq's). */
function icmLines(config: NodeConfig): string[] {
  if (!config.icm) return [];
  const state = config.icmRelayer ? 'delivers every message between them' : 'starts paused (emulator.icmResume)';
  return [
    `ICM: the messenger at ${toChecksumAddress(hexOf(MESSENGER_ADDRESS))} and the registry at ${REGISTRY_ADDRESS} on the C-Chain and every warp-enabled L1; the relayer ${state}:`,
    `      ${RELAYER_ADDRESS}  ${hexOf(RELAYER_KEY)}  (PUBLIC key; rewards to this address)`,
  ];
}

export async function banner(node: RunningNode): Promise<string> {
  const config = node.config;
  const accounts = node.testAccounts.flatMap((a, i) => keyLines(config, a.privateKey, a.address, evmAddressOf(a.privateKey), `  (${i}) `));
  const funded = `${formatAmount(TEST_ACCOUNT_BALANCE, 9)} AVAX each on the X-Chain and ${formatAmount(TEST_ACCOUNT_WEI, 18)} AVAX on the C-Chain${await fundedL1s(node)}`;
  return [
    `avalanche-emulator: a local Avalanche node (${NODE_VERSION} APIs)`,
    `  network   ${config.networkName} (${config.networkId}), HRP ${config.hrp}`,
    `  node      ${LOCAL_NODE.nodeID}`,
    `  database  ${config.dbType === 'memdb' ? 'memdb (in memory)' : `leveldb at ${config.dbPath}`}`,
    `  APIs      ${apisOf(config)}`,
    'Chains:',
    `  X  ${node.uri}/ext/bc/X`,
    `  P  ${node.uri}/ext/bc/P`,
    `  C  ${node.uri}/ext/bc/C/rpc  (EVM chain ID ${node.cChain.chainId})`,
    ...node.l1s.map((l) => `  ${l.name}  ${node.uri}/ext/bc/${l.name}/rpc  (EVM chain ID ${l.evmChainId}, blockchain ${l.blockchainID}, subnet ${l.subnetID})`),
    ...(config.apiExplorerEnabled ? [`Explorer: ${node.uri}/explorer/`] : []),
    ...(accounts.length > 0 ? [`Test accounts (${funded}; the same key signs on P):`, ...accounts] : []),
    "ewoq, the local network's PUBLIC key (anyone can spend what it holds: never use it on a real network):",
    ...keyLines(config, EWOQ_PRIVATE_KEY, EWOQ_ADDRESS, EWOQ_EVM_ADDRESS, '      '),
    `      ${await ewoqHoldings(node)}`,
    ...icmLines(config),
    `Listening on ${node.uri}`,
  ].join('\n');
}
