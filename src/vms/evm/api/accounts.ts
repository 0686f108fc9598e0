// eth_accounts and eth_sendTransaction for the node's own keys, as a dev node serves them (geth's
// ethapi with an unlocked keystore; Anvil's dev accounts): with --dev, the test accounts of
// --test-accounts. The tx is completed as geth's SendTxArgs.setDefaults completes it (the pending
// nonce, an estimated gas limit, a tip from the oracle and a fee cap of tip + 2 × base fee), signed
// and sent as eth_sendRawTransaction would send it. Without keys, coreth's answers: no accounts,
// and `unknown account` (eth_accounts itself only where the internal-account API is on).
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
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
    ...(accountsApi ? { accounts: method(positional([]), () => [...byAddress.keys()]) } : {}),
    sendTransaction: method(positional([callArgs]), async ([a]) => {
      const args = a as Parameters<typeof estimateGas>[2];
      const key = args.from ? byAddress.get(bytesToHex(args.from)) : undefined;
      if (!key) throw new RpcError('unknown account');
      try {
        const from = new Address(args.from!);
        const account = await chain.account(from.bytes);
        const stateNonce = account?.nonce ?? 0n;
        const nonce = args.nonce ?? stateNonce + BigInt(chain.pool.executable(from.toString(), stateNonce).length);
        const gasLimit = args.gas ?? (await estimateGas(chain, chain.head, args));
        const to = args.to ? new Address(args.to) : undefined;
        const common = { common: chain.common };
        const base = { nonce, gasLimit, to, value: args.value ?? 0n, data: args.data ?? new Uint8Array() };
        const tx =
          args.gasPrice !== undefined
            ? createLegacyTx({ ...base, gasPrice: args.gasPrice }, common).sign(key)
            : await (async () => {
                const tip = args.maxPriorityFeePerGas ?? (await gas.suggestTip());
                const feeCap = args.maxFeePerGas ?? tip + 2n * gas.nextBaseFee();
                if (tip > feeCap) throw new RpcError(`maxFeePerGas (${feeCap}) < maxPriorityFeePerGas (${tip})`);
                return createFeeMarket1559Tx(
                  {
                    ...base,
                    maxFeePerGas: feeCap,
                    maxPriorityFeePerGas: tip,
                    accessList: (args.accessList ?? []).map((e) => [e.address, e.storageKeys] as [Uint8Array, Uint8Array[]]),
                  },
                  common,
                ).sign(key);
              })();
        return hex(await chain.sendRawTransaction(tx.serialize()));
      } catch (err) {
        if (err instanceof CallFailure) throw new RpcError(err.message, err.code, err.data ? hex(err.data) : undefined);
        if (err instanceof PoolError) throw new RpcError(err.message);
        throw err;
      }
    }),
  };
}
