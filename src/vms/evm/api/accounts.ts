// eth_accounts and eth_sendTransaction for the node's own keys, as a dev node serves them (geth's
// ethapi with an unlocked keystore; Anvil's dev accounts): with --dev, the test accounts of
// --test-accounts. The tx is completed as geth's TransactionArgs.setDefaults completes it
// (../txargs.ts: the pending nonce, an estimated gas limit, a tip from the oracle and a fee cap of
// tip + 2 × the head's base fee), signed and sent as eth_sendRawTransaction would send it. Without
// keys, coreth's answers: no accounts, and `unknown account` (eth_accounts itself only where the
// internal-account API is on).
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex, equalsBytes, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { method, RpcError } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { CallFailure } from '../callargs.js';
import type { EvmChain } from '../chain.js';
import { PoolError } from '../pooltx.js';
import { type FilledArgs, setDefaults, type TxArgs, txTypeOf, unsignedHash } from '../txargs.js';
import { checkTxFee } from '../admission.js';
import { big, uint64 } from './hexfields.js';
import { txArgs } from './fields.js';
import { formatTx } from './format.js';
import type { GasOracle } from './gas.js';
import { toHex0x } from '../../../encoding/bytes.js';

/** accounts.ErrUnknownAccount: the address is none of the node's keys. */
export const unknownAccount = () => new RpcError('unknown account');

/** The node's keys by lowercase 0x address. */
export type KeyRing = Map<string, Uint8Array>;

export const keyRing = (keys: Uint8Array[]): KeyRing => new Map(keys.map((k) => [bytesToHex(privateToAddress(k)), k]));

/** The node's first account: Anvil's sender when a tx names none. */
export function firstAccount(ring: KeyRing): Uint8Array | undefined {
  const first = ring.keys().next().value;
  return first === undefined ? undefined : hexToBytes(first as `0x${string}`);
}

/**
 * The key `from` sends with: the node's own, or none for an account sent for without its key (an
 * impersonated one). `missing` is the method's error for any other sender.
 */
export function senderKey(chain: EvmChain, ring: KeyRing, from: Uint8Array | undefined, missing: () => RpcError): Uint8Array | undefined {
  const key = from ? ring.get(bytesToHex(from)) : undefined;
  if (!key && !(from && chain.dev.isImpersonated(bytesToHex(from)))) throw missing();
  return key;
}

/**
 * The tx eth_sendTransaction sends (and Anvil's eth_signTransaction signs) for `given`: completed by
 * setDefaults, signed with `key`, or without one (an impersonated account) carrying a placeholder
 * signature.
 */
export async function completedTx(chain: EvmChain, gas: GasOracle, given: TxArgs, key: Uint8Array | undefined): Promise<TypedTransaction> {
  return txOf(chain, await setDefaults(chain, given, gas.feeSource()), key ?? 'placeholder');
}

/**
 * toTransaction's tx for completed args: signed with a key, carrying the placeholder signature of
 * an impersonated account's tx (r = s = 1), or unsigned.
 */
function txOf(chain: EvmChain, args: FilledArgs, signer: Uint8Array | 'placeholder' | 'unsigned'): TypedTransaction {
  // Initcode of any size: the pool refuses it with geth's text, not the tx's constructor. Not
  // frozen, as the pool's decoded txs: a tx with warp predicates gets its intrinsic gas set on it.
  const common = { common: chain.common, allowUnlimitedInitCodeSize: true, freeze: false };
  const base = {
    nonce: args.nonce,
    gasLimit: args.gas,
    to: args.to ? new Address(args.to) : undefined,
    value: args.value,
    data: args.data ?? new Uint8Array(),
  };
  const accessList = (args.accessList ?? []).map((e) => [e.address, e.storageKeys] as [Uint8Array, Uint8Array[]]);
  const placeholder = (v: bigint) => (signer === 'placeholder' ? { v, r: 1n, s: 1n } : {});
  // toTransaction's type: a gas price with an access list is a 2930 tx.
  const type = txTypeOf(args);
  const tx: TypedTransaction =
    type === 2
      ? createFeeMarket1559Tx(
          { ...base, maxFeePerGas: args.maxFeePerGas, maxPriorityFeePerGas: args.maxPriorityFeePerGas, accessList, ...placeholder(0n) },
          common,
        )
      : type === 1
        ? createAccessList2930Tx({ ...base, gasPrice: args.gasPrice, accessList, ...placeholder(0n) }, common)
        : createLegacyTx({ ...base, gasPrice: args.gasPrice, ...placeholder(chain.chainId * 2n + 35n) }, common);
  return signer instanceof Uint8Array ? tx.sign(signer) : tx;
}

/**
 * TransactionAPI.Resend: the args (with their nonce) are completed; the sender's pending pool tx
 * signing the same fields is signed again with the gas price and limit given (a gas price does
 * not change a dynamic-fee tx, as toTransaction keeps its fee cap) and sent. Its hash.
 */
async function resend(chain: EvmChain, gas: GasOracle, ring: KeyRing, given: TxArgs, price?: bigint, limit?: bigint): Promise<string> {
  if (given.nonce === undefined) throw new RpcError('missing transaction nonce in transaction spec');
  const args = await setDefaults(chain, given, gas.feeSource());
  const match = txOf(chain, args, 'unsigned');
  checkTxFee(price ?? args.maxFeePerGas ?? args.gasPrice ?? 0n, limit ?? args.gas);
  const from = bytesToHex(args.from ?? new Uint8Array(20));
  const want = match.getHashedMessageToSign();
  const pending = chain.pool.content().get(from)?.pending ?? [];
  if (pending.some((p) => equalsBytes(p.tx.getHashedMessageToSign(), want))) {
    const key = ring.get(from);
    if (!key) throw unknownAccount();
    const next: FilledArgs = { ...args, ...(price ? { gasPrice: price } : {}), ...(limit ? { gas: limit } : {}) };
    return toHex0x(await chain.sendRawTransaction(txOf(chain, next, key).serialize()));
  }
  throw new RpcError(`transaction ${toHex0x(unsignedHash(args))} not found`);
}

/**
 * Completes `given` and sends it (eth_sendTransaction, eth_sendUnsignedTransaction): signed with
 * `key`, or without one as from `given.from` (an impersonated or unsigned sender). Its hash.
 */
export async function sendCompleted(chain: EvmChain, gas: GasOracle, given: TxArgs, key: Uint8Array | undefined): Promise<string> {
  try {
    const tx = await completedTx(chain, gas, given, key);
    const from = new Address(given.from!);
    return toHex0x(await (key ? chain.sendSigned(tx, from) : chain.sendRawTransaction(tx.serialize(), from)));
  } catch (err) {
    sendError(err);
  }
}

/** Call failures keep their code and data; pool refusals are -32000 with the pool's text. */
export function sendError(err: unknown): never {
  if (err instanceof CallFailure) throw new RpcError(err.message, err.code, err.data ? toHex0x(err.data) : undefined);
  if (err instanceof PoolError) throw new RpcError(err.message);
  throw err;
}

/** `accountsApi`: eth_accounts is coreth's internal-account API, which its default eth-apis leave out. */
export function accountMethods(chain: EvmChain, gas: GasOracle, ring: KeyRing, accountsApi: boolean) {
  return {
    // Anvil lists the impersonated accounts after its own.
    ...(accountsApi ? { accounts: method(positional([]), () => [...new Set([...ring.keys(), ...chain.dev.impersonatedAccounts()])]) } : {}),
    // The pool's pending txs (not the queued ones) sent from the node's own keys, as pending txs show.
    pendingTransactions: method(positional([]), () =>
      [...chain.pool.content()].flatMap(([from, txs]) => (ring.has(from) ? txs.pending.map((p) => formatTx(p.tx, p.from, undefined)) : [])),
    ),
    resend: method(positional([txArgs, big, uint64], 1), async ([a, price, limit]) => {
      try {
        return await resend(chain, gas, ring, a as TxArgs, price as bigint | undefined, limit as bigint | undefined);
      } catch (err) {
        sendError(err);
      }
    }),
    sendTransaction: method(positional([txArgs]), async ([a]) => {
      const given = a as TxArgs;
      return sendCompleted(chain, gas, given, senderKey(chain, ring, given.from, unknownAccount));
    }),
  };
}
