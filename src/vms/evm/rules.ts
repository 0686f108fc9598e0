// The EVM rules of an Avalanche EVM chain on @ethereumjs: Cancun from genesis on (coreth 1.14 turns
// every Ethereum fork through Cancun on at the local network's genesis), P256VERIFY at 0x100 as
// Granite's, libsecp256k1 for every signature the chain checks and makes, and no gas refunds
// (coreth drops them since Apricot Phase 1). Notes: docs/research/cchain.md §4 and §5.
import { Common, createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { paramsBlock } from '@ethereumjs/block';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { concatBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import { noble, recoverPublicKey, signRecoverable } from '../../crypto/secp256k1.js';

/** coreth's BlackholeAddr: the coinbase of every block, which receives every fee. */
export const BLACKHOLE = Uint8Array.from(Buffer.from('0100000000000000000000000000000000000000', 'hex'));

const FORKS = [
  'chainstart',
  'homestead',
  'dao',
  'tangerineWhistle',
  'spuriousDragon',
  'byzantium',
  'constantinople',
  'petersburg',
  'istanbul',
  'muirGlacier',
  'berlin',
  'london',
  'paris',
];

/**
 * ethereumjs's ecrecover contract on libsecp256k1: v is 0/1, 27/28 or EIP-155's chainId·2+35/36;
 * the 64-byte uncompressed key comes back, as util's ecrecover returns it (and throws as it does).
 */
function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (chainId * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  const key = recoverPublicKey(msgHash, concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32)), Number(recovery), false);
  if (!key) throw new Error('Invalid signature');
  return key.subarray(1);
}

/**
 * ethereumjs's ecsign contract (a tx's sign()): the 65-byte [recovery id ‖ r ‖ s] of @noble/curves'
 * 'recovered' format, with RFC 6979's nonce alone, as geth's and Anvil's signers make it (every tx
 * class of @ethereumjs/tx 10 signs with extraEntropy false). Anything else asked of the contract
 * (added entropy, another format: no caller today) is @noble/curves' to make.
 */
function ecsign(msgHash: Uint8Array, privateKey: Uint8Array, opts?: { extraEntropy?: unknown; format?: string }): Uint8Array<ArrayBuffer> {
  if ((opts?.extraEntropy !== undefined && opts.extraEntropy !== false) || (opts?.format !== undefined && opts.format !== 'recovered')) {
    return noble().sign(msgHash, privateKey, opts as Parameters<ReturnType<typeof noble>['sign']>[2]) as Uint8Array<ArrayBuffer>;
  }
  const { signature, recid } = signRecoverable(msgHash, privateKey);
  const recovered = new Uint8Array(65);
  recovered[0] = recid;
  recovered.set(signature, 1);
  return recovered;
}

const NO_REFUNDS = { 3529: { maxRefundQuotient: 2 ** 53 } };

/**
 * What @ethereumjs merges into a chain's Common, in the order it merges them: a tx's and a block's
 * params as each is made, an EVM's and then a VM's as the VM is made (createVM), and coreth's refund
 * rule last. Each merge copies every EIP's params through JSON and rebuilds the params cache (1-2 ms
 * cold, a large share of admitting a tx; a VM's creation made six, for the builder, each reader,
 * each trace). The chain's Common merges them once; its copies share the params, so these merges
 * are skipped. Any other merge is followed by the refund rule, so no VM runs with refunds, even
 * for a moment.
 */
const PINNED = [paramsTx, paramsBlock, paramsEVM, paramsVM, NO_REFUNDS];
type Params = (typeof PINNED)[number];

/** The pinned params as one set, each EIP's merged in their order: one merge instead of five (8-9 ms of a start-up). */
let allPinned: Params | undefined;
function pinnedParams(): Params {
  if (allPinned) return allPinned;
  const all: Record<string, Record<string, unknown>> = {};
  for (const params of PINNED) for (const [eip, values] of Object.entries(params)) all[eip] = { ...all[eip], ...values };
  allPinned = all as Params;
  return allPinned;
}

function pinParams(common: Common): void {
  const merge = Common.prototype.updateParams;
  merge.call(common, pinnedParams());
  common.updateParams = function (this: Common, params) {
    if (PINNED.includes(params)) return;
    merge.call(this, params);
    merge.call(this, NO_REFUNDS);
  };
}

/** The activated EIPs of a Common (its `_activatedEIPsCache`, a new array whenever it changes) as a set. */
const eipSets = new WeakMap<readonly number[], Set<number>>();
let lastEIPs: readonly number[] | undefined;
let lastEIPSet = new Set<number>();

/**
 * Common.isActivatedEIP searches the array of some 60 activated EIPs, and the interpreter asks it
 * several times per opcode (most often for EIPs that are not active, so through the whole array):
 * a set of the same array answers the same. Copies of the Common (Object.assign) carry it.
 */
function isActivatedEIP(this: Common, eip: number): boolean {
  const list = (this as unknown as { _activatedEIPsCache: readonly number[] })._activatedEIPsCache;
  if (list !== lastEIPs) {
    let set = eipSets.get(list);
    if (!set) {
      set = new Set(list);
      eipSets.set(list, set);
    }
    lastEIPs = list;
    lastEIPSet = set;
  }
  return lastEIPSet.has(eip);
}

/** The Common of an EVM chain with `chainId`. */
export function chainCommon(chainId: bigint): Common {
  const hardforks = FORKS.map((name) => ({ name, block: 0 })) as Array<{ name: string; block: number | null; timestamp?: number }>;
  hardforks.push({ name: 'shanghai', block: null, timestamp: 0 }, { name: 'cancun', block: null, timestamp: 0 });
  const common = createCustomCommon({ name: `avalanche-${chainId}`, chainId: chainId.toString(), hardforks }, Mainnet, {
    hardfork: Hardfork.Cancun,
    eips: [7951],
    customCrypto: { ecrecover, ecsign, keccak256 },
  });
  pinParams(common);
  common.isActivatedEIP = isActivatedEIP;
  return common;
}
