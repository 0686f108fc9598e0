// What the ICM tests share: ewoq's account, the messenger's address and its sendCrossChainMessage
// calldata, viem clients of an EVM chain of a started node, a blockchain ID as bytes32, and polling
// until a read holds.
import {
  type Abi,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { decodeCB58 } from '../../src/encoding/cb58.js';
import { MESSENGER_ABI } from '../../src/vms/evm/icm/messenger.js';

export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
export const ewoq = privateKeyToAccount(EWOQ_KEY);
export const MESSENGER = getAddress('0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf');
/** SendCrossChainMessage's topic0: its topic1 is the message ID. */
export const SEND_TOPIC = '0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8';

/** A CB58 blockchain ID as the bytes32 ICM names chains by. */
export const hexID = (cb58: string) => `0x${Buffer.from(decodeCB58(cb58)).toString('hex')}` as Hex;

/**
 * The messenger's sendCrossChainMessage calldata: `message` to `to` on `destination` (a CB58
 * blockchain ID, or its bytes32 hex), no fee, 100,000 gas and any relayer unless `opts` says otherwise.
 */
export function sendMessageData(destination: string, to: Hex, message: Hex, opts: { gas?: bigint; allowed?: Hex[] } = {}): Hex {
  return encodeFunctionData({
    abi: MESSENGER_ABI as unknown as Abi,
    functionName: 'sendCrossChainMessage',
    args: [
      {
        destinationBlockchainID: destination.startsWith('0x') ? destination : hexID(destination),
        destinationAddress: to,
        feeInfo: { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n },
        requiredGasLimit: opts.gas ?? 100_000n,
        allowedRelayerAddresses: opts.allowed ?? [],
        message,
      },
    ],
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `ok` holds (at most `ms`), returning the last value read. */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await sleep(20);
    v = await read();
  }
  return v;
}

type Wallet = WalletClient<Transport, Chain, PrivateKeyAccount>;

export interface EvmClients {
  url: string;
  chain: Chain;
  client: PublicClient<Transport, Chain>;
  wallet: Wallet;
  walletOf(account: PrivateKeyAccount): Wallet;
  /** viem's test client (Anvil's methods: the node's with --dev). */
  test: TestClient<'anvil', Transport, Chain>;
}

/** How the clients talk to the node: viem's defaults unless given. */
export interface ClientOptions {
  retryCount?: number;
  /** The public client's (waitForTransactionReceipt's polls, among others). */
  pollingInterval?: number;
}

/** For a --dev node, which mines at once: no retry to hide a failure, receipts polled every 20 ms. */
export const DEV_NODE: ClientOptions = { retryCount: 0, pollingInterval: 20 };

/** viem's clients of the EVM chain `alias` (EVM chain ID `id`) of the node at `uri`; the wallet signs as `account`. */
export function evmClients(uri: string, alias: string, id: number, account: PrivateKeyAccount = ewoq, options: ClientOptions = {}): EvmClients {
  const url = `${uri}/ext/bc/${alias}/rpc`;
  const chain = defineChain({ id, name: alias, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const transport = http(url, options.retryCount === undefined ? {} : { retryCount: options.retryCount });
  const polling = options.pollingInterval === undefined ? {} : { pollingInterval: options.pollingInterval };
  return {
    url,
    chain,
    client: createPublicClient({ chain, transport, cacheTime: 0, ...polling }),
    wallet: createWalletClient({ chain, transport, account }),
    walletOf: (other: PrivateKeyAccount) => createWalletClient({ chain, transport, account: other }),
    test: createTestClient({ chain, mode: 'anvil', transport, cacheTime: 0 }),
  };
}
