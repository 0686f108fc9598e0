// What the platform API's handlers share: the VM and the node facts they read, the service's
// errors (declared once), and the argument fields.
import type { Aliaser } from '../../../chains/aliases.js';
import type { SharedMemory } from '../../../chains/sharedmemory.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';
import { serviceErrors } from '../../../rpc/method.js';
import { formatAddress, parseServiceAddress } from '../../components/avax/address.js';
import type { PChain } from '../vm.js';
import { fromHex } from '../../../encoding/bytes.js';

export interface PlatformDeps {
  vm: PChain;
  hrp: string;
  /** The P-Chain's ID, cb58. */
  chainId: string;
  chainAliases: Aliaser;
  shared: SharedMemory;
  /** The node's own node ID (hex): it is the validator this node stands for. */
  nodeID: string;
  /** When this node started (unix s): offline validators' uptime counts from their start to here. */
  startedAt: bigint;
  now(): bigint;
  /** Whether this node runs the chain (ID or alias), as the chain manager knows it. */
  runsChain(idOrAlias: string): string | undefined;
}

export { type Encoding, encoding, id } from '../../components/avax/fields.js';

export const errors = serviceErrors({
  notFound: () => 'not found',
  noBlockWithID: (id: string) => `couldn't get block with id ${id}: not found`,
  noBlockAtHeight: (height: bigint) => `couldn't get block at height ${height}: not found`,
  txNotFound: () => "couldn't get tx: not found",
  decodingTx: (why: string) => `problem decoding transaction: ${why}`,
  encodeUTXO: (id: string, enc: string, why: string) => `couldn't encode UTXO ${id} as ${enc}: ${why}`,
  encodeRewardUTXO: (enc: string, why: string) => `couldn't encode utxo as ${enc}: ${why}`,
  encodeOutput: (asset: string, enc: string, why: string) => `couldn't encode output ${asset} as ${enc}: ${why}`,
  issuing: (why: string) => `couldn't issue tx: ${why}`,
  primaryIsNotSubnet: () => "the primary network isn't a subnet",
  notASubnet: (id: string) => `${goQuote(id)} is not a subnet`,
  noTransformation: (id: string) => `failed fetching subnet transformation for ${id}: not found`,
  supply: () => 'fetching current supply failed: not found',
  l1Validator: (id: string) => `fetching L1 validator ${goQuote(id)} failed: not found`,
  blockchainNotGiven: () => "argument 'blockchainID' not given",
  parsingBlockchain: (id: string, why: string) => `problem parsing blockchainID ${goQuote(id)}: ${why}`,
  retrievingBlockchain: (id: string) => `problem retrieving blockchain ${goQuote(id)}: not found`,
  notABlockchain: (id: string) => `${goQuote(id)} is not a blockchain`,
  retrievingSubnet: (id: string) => `problem retrieving subnet ${goQuote(id)}: not found`,
  sampling: (subnet: string, why: string) => `sampling ${subnet} errored with ${why}`,
  validatorSets: (height: bigint, current: bigint) =>
    `failed to get validator sets at ${height}: failed to fetch validator set at unfinalized height: current P-chain height (${current}) < requested P-Chain height (${height})`,
  tooManyStakeAddresses: (n: number) => `${n} addresses provided but this method can take at most 256`,
  validatorSet: (height: bigint, subnet: string, current: bigint) =>
    `failed to get validator set at ${height}: failed to fetch validator set at unfinalized height with SubnetID = ${subnet}: current P-chain height (${current}) < requested P-Chain height (${height})`,
});

export const cb58 = (h: string) => encodeCB58(fromHex(h));
export const nodeIDString = (h: string) => `NodeID-${encodeCB58(fromHex(h))}`;
export const isZero = (b: Uint8Array) => b.every((x) => x === 0);

export const pAddress = (d: PlatformDeps, addr: Uint8Array) => formatAddress('P', d.hrp, addr);
export const parseAddress = (d: PlatformDeps, text: string) => parseServiceAddress(text, { hrp: d.hrp, chainId: d.chainId, chainAliases: d.chainAliases });

export { encodeBytes } from '../../components/avax/fields.js';

/** An owner as the API shows it: locktime, threshold and P- addresses. */
export const ownerJson = (d: PlatformDeps, o: { locktime: bigint; threshold: number; addresses: string[] }) => ({
  locktime: String(o.locktime),
  threshold: String(o.threshold),
  addresses: o.addresses.map((a) => pAddress(d, fromHex(a))),
});
