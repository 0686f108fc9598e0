// Signing with the node's own keys (the test accounts of --test-accounts, with --dev), as a dev node
// signs: eth_sign (geth's TransactionAPI.Sign: EIP-191's personal message), eth_signTransaction,
// and Anvil's personal_sign and eth_signTypedData_v4 (EIP-712). Signatures are deterministic
// (RFC 6979), r ‖ s ‖ v with v 27 or 28: the bytes Anvil, ethers and viem make for the same key.
// Without keys (a node without --dev) coreth's answers: eth_sign is `unknown account`, and
// eth_signTransaction checks what geth's SignTransaction checks first.
import { createRequire } from 'node:module';
import { bytesToHex } from '@ethereumjs/util';
import { method, RpcError } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { isJsonObject, type JsonValue, parseGoJson, RawNumber } from '../../../encoding/gojson.js';
import type { EvmChain } from '../chain.js';
import { setDefaults, type TxArgs } from '../txargs.js';
import { checkTxFee } from '../admission.js';
import { completedTx, firstAccount, type KeyRing, sendError, unknownAccount } from './accounts.js';
import { address, bytes, raw, txArgs } from './fields.js';
import type { GasOracle } from './gas.js';
import { toHex0x } from '../../../encoding/bytes.js';

export const signingErrors = {
  unknownAccount,
  /** Anvil's answer for an address it holds no key of (its own methods). */
  noSigner: () => new RpcError('No Signer available', -32602),
  typedData: (reason: string) => new RpcError(`invalid typed data: ${reason}`, -32602),
};

interface Signer {
  eip191Signer: { sign(message: Uint8Array, key: Uint8Array, extraEntropy: boolean): string };
  signTyped(typed: unknown, key: Uint8Array, extraEntropy: boolean): string;
}

let signer: Signer | undefined;

/**
 * micro-eth-signer (a dependency already, for KZG), loaded on the first signature, through require
 * as kzg.ts loads it. `extraEntropy: false` keeps RFC 6979's deterministic nonce.
 */
function signerLib(): Signer {
  signer ??= createRequire(import.meta.url)('micro-eth-signer') as Signer;
  return signer;
}

/** The key of `who`, or the error the method answers when the node holds none. */
function keyOf(ring: KeyRing, who: Uint8Array, missing: () => RpcError): Uint8Array {
  const key = ring.get(bytesToHex(who));
  if (!key) throw missing();
  return key;
}

const personalSignature = (key: Uint8Array, data: Uint8Array): string => signerLib().eip191Signer.sign(data, key, false);

/** EIP-712 typed data as eth_signTypedData_v4 takes it: the object, or its JSON in a string. */
function typedDataOf(v: JsonValue): unknown {
  let value = v;
  if (typeof v === 'string') {
    try {
      value = parseGoJson(Buffer.from(v)).value;
    } catch (err) {
      throw signingErrors.typedData((err as Error).message);
    }
  }
  if (!isJsonObject(value)) throw signingErrors.typedData('not an object');
  return plain(value);
}

/** A decoded JSON value as plain data, a number kept as its text (the EIP-712 encoder reads numeric strings). */
function plain(v: JsonValue): unknown {
  if (v instanceof RawNumber) return v.raw;
  if (Array.isArray(v)) return v.map(plain);
  if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return typeof v === 'number' ? String(v) : v;
}

/**
 * geth's SignTransaction: what it checks before it looks for the key (the node without keys ends
 * there). Its refusal of blob fields is not made: the args' decoder does not keep them.
 */
function checkSignable(a: TxArgs): void {
  if (a.gas === undefined) throw new RpcError('gas not specified');
  if (a.gasPrice === undefined && (a.maxPriorityFeePerGas === undefined || a.maxFeePerGas === undefined)) {
    throw new RpcError('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas');
  }
  if (a.nonce === undefined) throw new RpcError('nonce not specified');
}

/** The eth_ signing methods; `dev` adds Anvil's eth_signTypedData_v4 and its shapes. */
export function signingMethods(chain: EvmChain, gas: GasOracle, ring: KeyRing, dev: boolean) {
  return {
    sign: method(positional([address, bytes]), ([who, data]) =>
      personalSignature(keyOf(ring, who as Uint8Array, signingErrors.unknownAccount), data as Uint8Array),
    ),
    // Anvil's: completed as eth_sendTransaction completes it, answered as the raw signed tx. Without
    // --dev, geth's checks, then its defaults, then the key it does not have.
    signTransaction: method(positional([txArgs]), async ([a]) => {
      const given = a as TxArgs;
      try {
        if (!dev) {
          checkSignable(given);
          const filled = await setDefaults(chain, given, gas.feeSource());
          checkTxFee(filled.gasPrice ?? filled.maxFeePerGas ?? 0n, filled.gas);
          throw signingErrors.unknownAccount();
        }
        // Anvil signs for its first account when no `from` is given (none: no signer).
        const from = given.from ?? firstAccount(ring);
        if (!from) throw signingErrors.noSigner();
        const key = keyOf(ring, from, signingErrors.noSigner);
        return toHex0x((await completedTx(chain, gas, { ...given, from }, key)).serialize());
      } catch (err) {
        sendError(err);
      }
    }),
    ...(dev
      ? {
          // The data is read before the signer is looked for, as Anvil does.
          signTypedData_v4: method(positional([address, raw]), ([who, typed]) => {
            const data = typedDataOf(typed as JsonValue);
            const key = keyOf(ring, who as Uint8Array, signingErrors.noSigner);
            try {
              return signerLib().signTyped(data, key, false);
            } catch (err) {
              throw signingErrors.typedData((err as Error).message);
            }
          }),
        }
      : {}),
  };
}

/** Anvil's personal_sign: eth_sign's signature, the data first. */
export function personalService(ring: KeyRing) {
  return {
    name: 'personal',
    methods: {
      sign: method(positional([bytes, address]), ([data, who]) =>
        personalSignature(keyOf(ring, who as Uint8Array, signingErrors.noSigner), data as Uint8Array),
      ),
    },
  };
}
