// eth_accounts and eth_sendTransaction for the node's own keys, as a dev node serves them (geth's
// ethapi with an unlocked keystore; Anvil's dev accounts): with --dev, the test accounts of
// --test-accounts. The tx is completed as geth's SendTxArgs.setDefaults completes it (the pending
// nonce, an estimated gas limit, a tip from the oracle and a fee cap of tip + 2 × base fee), signed
// and sent as eth_sendRawTransaction would send it. Without keys, coreth's answers: no accounts,
// and `unknown account` (eth_accounts itself only where the internal-account API is on).
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex, privateToAddress } from '@ethereumjs/util';
import { method, RpcError } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { CallFailure, estimateGas } from '../calls.js';
import type { EvmChain } from '../chain.js';
import { PoolError } from '../pool.js';
import { callArgs } from './fields.js';
import { hex } from './format.js';
import type { GasOracle } from './gas.js';

/** `accountsApi`: eth_accounts is coreth's internal-account API, which its default eth-apis leave out. */
export function accountMethods(chain: EvmChain, gas: GasOracle, keys: Uint8Array[], accountsApi: boolean) {
  const byAddress = new Map(keys.map((k) => [bytesToHex(privateToAddress(k)), k]));
  return {
    // Anvil lists the impersonated accounts after its own.
    ...(accountsApi ? { accounts: method(positional([]), () => [...new Set([...byAddress.keys(), ...chain.impersonated])]) } : {}),
    sendTransaction: method(positional([callArgs]), async ([a]) => {
      const args = a as Parameters<typeof estimateGas>[2];
      const key = args.from ? byAddress.get(bytesToHex(args.from)) : undefined;
      const impersonated = !key && args.from !== undefined && chain.isImpersonated(bytesToHex(args.from));
      if (!key && !impersonated) throw new RpcError('unknown account');
      try {
        const from = new Address(args.from!);
        const account = await chain.account(from.bytes);
        const stateNonce = account?.nonce ?? 0n;
        const nonce = args.nonce ?? stateNonce + BigInt(chain.pool.executable(from.toString(), stateNonce).length);
        const gasLimit = args.gas ?? (await estimateGas(chain, chain.head, args));
        const to = args.to ? new Address(args.to) : undefined;
        const common = { common: chain.common };
        const base = { nonce, gasLimit, to, value: args.value ?? 0n, data: args.data ?? new Uint8Array() };
        // An impersonated account's tx carries Anvil's placeholder signature (r = s = 1) and is sent as from it.
        const placeholder = (v: bigint) => ({ v, r: 1n, s: 1n });
        let tx: TypedTransaction;
        if (args.gasPrice !== undefined) {
          const data = { ...base, gasPrice: args.gasPrice };
          tx = key ? createLegacyTx(data, common).sign(key) : createLegacyTx({ ...data, ...placeholder(chain.chainId * 2n + 35n) }, common);
        } else {
          const tip = args.maxPriorityFeePerGas ?? (await gas.suggestTip());
          const feeCap = args.maxFeePerGas ?? tip + 2n * gas.nextBaseFee();
          if (tip > feeCap) throw new RpcError(`maxFeePerGas (${feeCap}) < maxPriorityFeePerGas (${tip})`);
          const data = {
            ...base,
            maxFeePerGas: feeCap,
            maxPriorityFeePerGas: tip,
            accessList: (args.accessList ?? []).map((e) => [e.address, e.storageKeys] as [Uint8Array, Uint8Array[]]),
          };
          tx = key ? createFeeMarket1559Tx(data, common).sign(key) : createFeeMarket1559Tx({ ...data, ...placeholder(0n) }, common);
        }
        return hex(await chain.sendRawTransaction(tx.serialize(), key ? undefined : from));
      } catch (err) {
        if (err instanceof CallFailure) throw new RpcError(err.message, err.code, err.data ? hex(err.data) : undefined);
        if (err instanceof PoolError) throw new RpcError(err.message);
        throw err;
      }
    }),
  };
}
