// geth's argument types as JSON-RPC decodes them (hexutil, common.Address/Hash, rpc.BlockNumber,
// rpc.BlockNumberOrHash, ethapi.TransactionArgs), with geth's error texts.
import { goKey, goKind, goMarshal, isJsonObject, type JsonObject, type JsonValue, numberText } from '../../../encoding/gojson.js';
import { type Field, ParamsError, textOf } from '../../../rpc/schema.js';
import { address, big, bytes, decodeIn, decodeUint64Text, fixedText, hash, structField, uint64 } from './hexfields.js';
import type { BlockOverrides, CallArgs, StateOverride } from '../callargs.js';
import type { TxArgs } from '../txargs.js';

const kind = (v: JsonValue): string => (typeof v === 'string' ? 'string' : 'non-string');

export { address, big, bytes, hash, uint, uint64 } from './hexfields.js';

/**
 * math.HexOrDecimal64: its UnmarshalJSON takes a string's contents or any other value's JSON text,
 * and ParseUint64 reads "" as 0, 0x digits as hex, other digits as decimal.
 */
export const hexOrDecimal64: Field<bigint> = {
  decode(v) {
    const t = typeof v === 'string' ? v : (numberText(v) ?? goMarshal(v));
    if (t === '') return 0n;
    const n = /^0[xX][0-9a-fA-F]+$/.test(t) ? BigInt(t) : /^\d+$/.test(t) ? BigInt(t) : undefined;
    if (n === undefined || n > 0xffffffffffffffffn) throw new ParamsError(`invalid hex or decimal integer ${JSON.stringify(t)}`);
    return n;
  },
  decodeNull() {
    return this.decode(null);
  },
  zero: () => 0n,
};
/**
 * A U256 as Anvil reads its own methods' arguments (alloy's U256): 0x hex with or without leading
 * zeros (ethers' toBeHex pads them), a decimal string, or a JSON number. geth's quantities refuse
 * leading zeros; Hardhat's helpers and ethers users send them to Anvil's methods.
 */
export const u256: Field<bigint> = {
  decode(v) {
    const t = typeof v === 'string' ? v : numberText(v);
    if (t === undefined) throw new ParamsError(`invalid type: ${kind(v)}, expected a 256-bit unsigned integer`);
    // An empty string and a bare 0x are 0 to alloy's U256, as to Anvil; leading zeros do not count.
    const hex = /^0[xX]([0-9a-fA-F]*)$/.exec(t)?.[1]?.replace(/^0+/, '');
    const n = t === '' ? 0n : hex !== undefined ? (hex.length <= 64 ? BigInt(`0x${hex || '0'}`) : undefined) : /^\d{1,78}$/.test(t) ? BigInt(t) : undefined;
    if (n === undefined || n >= 1n << 256n) throw new ParamsError(`invalid 256-bit unsigned integer ${JSON.stringify(t)}`);
    return n;
  },
  zero: () => 0n,
};

export const boolean: Field<boolean> = {
  decode: (v) => (typeof v === 'boolean' ? v : fail(`json: cannot unmarshal ${goKind(v)} into Go value of type bool`)),
  zero: () => false,
};

export const text = textOf('string');
/** A filter's or subscription's id. */
export { rpcId } from '../../../rpc/subscriptions.js';

const fail = (message: string): never => {
  throw new ParamsError(message);
};

/** rpc.BlockNumber: a tag or a hex number (negative tags: pending -2, latest -1, finalized -3, safe -4). */
export type BlockTag = bigint | 'latest' | 'pending' | 'earliest' | 'safe' | 'finalized';

/** A tag's name, or undefined: coreth reads "accepted" as "finalized" (rpc/types.go). */
function namedTag(text: string): BlockTag | undefined {
  switch (text) {
    case 'latest':
    case 'pending':
    case 'earliest':
    case 'safe':
    case 'finalized':
      return text;
    case 'accepted':
      return 'finalized';
  }
  return undefined;
}

/** hexutil.DecodeUint64 of a block number's text, `tooHigh` past int64. */
function blockNumberText(text: string, tooHigh: string): bigint {
  const n = decodeUint64Text(text);
  return n > 0x7fffffffffffffffn ? fail(tooHigh) : n;
}

/**
 * BlockNumber.UnmarshalJSON: it takes the raw JSON text and drops a string's quotes, so a JSON
 * number or null is text without the 0x prefix.
 */
function blockTag(v: JsonValue): BlockTag {
  if (typeof v !== 'string') return fail('hex string without 0x prefix');
  return namedTag(v) ?? blockNumberText(v, 'block number larger than int64');
}

export const blockNumber: Field<BlockTag> = { decode: blockTag, decodeNull: () => blockTag(null), zero: () => 'latest' };

/** `neither`: an object naming no block (or null), which coreth's backends refuse when they resolve it. */
export type BlockRef = { tag: BlockTag } | { hash: Uint8Array; requireCanonical: boolean } | { neither: true };

/** The {blockNumber, blockHash, requireCanonical} object; undefined where one of its fields does not decode. */
function blockRefObject(o: JsonObject): BlockRef | undefined {
  const number = goKey(o, 'blockNumber');
  const blockHash = goKey(o, 'blockHash');
  const canonical = goKey(o, 'requireCanonical');
  // A requireCanonical of another kind fails the struct as the other fields' errors do.
  if (canonical !== undefined && canonical !== null && typeof canonical !== 'boolean') return undefined;
  let tag: BlockTag | undefined;
  let h: Uint8Array | undefined;
  try {
    tag = number === undefined || number === null ? undefined : blockTag(number);
    h = blockHash === undefined || blockHash === null ? undefined : hash.decode(blockHash);
  } catch {
    return undefined;
  }
  if (tag !== undefined && h !== undefined) return fail('cannot specify both BlockHash and BlockNumber, choose one or the other');
  if (h) return { hash: h, requireCanonical: canonical === true };
  return tag === undefined ? { neither: true } : { tag };
}

/**
 * rpc.BlockNumberOrHash (coreth's UnmarshalJSON): first as the struct, then as a string (a tag, a
 * 66-character hash, or a hex number); an object whose fields fail is then refused as no string.
 */
export const blockRef: Field<BlockRef> = {
  decode(v) {
    if (isJsonObject(v)) {
      return blockRefObject(v) ?? fail('json: cannot unmarshal object into Go value of type string');
    }
    if (typeof v !== 'string') return fail(`json: cannot unmarshal ${goKind(v)} into Go value of type string`);
    const tag = namedTag(v);
    if (tag !== undefined) return { tag };
    if (v.length === 66) return { hash: fixedText(v, 32, 'Hash'), requireCanonical: false };
    return { tag: blockNumberText(v, 'blocknumber too high') };
  },
  // null decodes as the struct, to nothing: the backend then refuses it.
  decodeNull: () => ({ neither: true }),
  zero: () => ({ tag: 'latest' }),
};

/**
 * ethapi.TransactionArgs as JSON decodes it. An access list's entries need both fields
 * (types.AccessTuple's required `address` and `storageKeys`). "data" and "input" may disagree here:
 * input wins, and the caller decides whether that is an error.
 */
function transactionArgs(v: JsonValue): TxArgs {
  if (!isJsonObject(v)) return fail(`json: cannot unmarshal ${goKind(v)} into Go value of type ethapi.TransactionArgs`);
  const o = v;
  const data = structField(o, 'TransactionArgs', 'data', bytes);
  const input = structField(o, 'TransactionArgs', 'input', bytes);
  const accessList = o.accessList;
  if (accessList !== undefined && accessList !== null && !Array.isArray(accessList))
    fail(`json: cannot unmarshal ${goKind(accessList)} into Go struct field TransactionArgs.accessList of type types.AccessList`);
  const args: TxArgs = {
    from: structField(o, 'TransactionArgs', 'from', address),
    to: structField(o, 'TransactionArgs', 'to', address),
    gas: structField(o, 'TransactionArgs', 'gas', uint64),
    gasPrice: structField(o, 'TransactionArgs', 'gasPrice', big),
    maxFeePerGas: structField(o, 'TransactionArgs', 'maxFeePerGas', big),
    maxPriorityFeePerGas: structField(o, 'TransactionArgs', 'maxPriorityFeePerGas', big),
    value: structField(o, 'TransactionArgs', 'value', big),
    nonce: structField(o, 'TransactionArgs', 'nonce', uint64),
    data: input ?? data,
    accessList: Array.isArray(accessList)
      ? accessList.map((a) => {
          if (a !== null && !isJsonObject(a)) return fail(`json: cannot unmarshal ${goKind(a)} into Go value of type types.AccessTuple`);
          const item = (a ?? {}) as JsonObject;
          const keys = item.storageKeys;
          if (keys !== undefined && keys !== null && !Array.isArray(keys))
            return fail(`json: cannot unmarshal ${goKind(keys)} into Go struct field AccessTuple.storageKeys of type []common.Hash`);
          if (item.address === undefined || item.address === null) return fail("missing required field 'address' for AccessTuple");
          if (keys === undefined || keys === null) return fail("missing required field 'storageKeys' for AccessTuple");
          return {
            address: address.decode(item.address),
            storageKeys: (item.storageKeys as JsonValue[]).map((k) => hash.decode(k)),
          };
        })
      : undefined,
  };
  if (data && input && Buffer.compare(data, input) !== 0) args.conflictingInput = true;
  return args;
}

/**
 * ethapi.TransactionArgs, as eth_call, eth_estimateGas and debug_traceCall read it (ToMessage): a
 * "data" that differs from "input" is no error there, input is the call's data.
 */
export const callArgs: Field<CallArgs> = {
  decode(v) {
    const { conflictingInput: _, ...args } = transactionArgs(v);
    return args;
  },
  zero: () => ({}),
};

/**
 * ethapi.TransactionArgs, as setDefaults reads it (eth_fillTransaction, eth_sendTransaction,
 * eth_createAccessList): with the chain ID, and "data" and "input" left for setDefaults to refuse.
 */
export const txArgs: Field<TxArgs> = {
  decode(v) {
    const args = transactionArgs(v);
    const chainId = structField(v as JsonObject, 'TransactionArgs', 'chainId', big);
    return chainId === undefined ? args : { ...args, chainId };
  },
  zero: () => ({}),
};

/** ethapi.StateOverride: address -> {balance, nonce, code, state, stateDiff}. */
export const stateOverrides: Field<Map<string, StateOverride> | undefined> = {
  decode(v) {
    if (!isJsonObject(v)) return fail(`json: cannot unmarshal ${goKind(v)} into Go value of type ethapi.StateOverride`);
    const out = new Map<string, StateOverride>();
    for (const [key, raw] of Object.entries(v)) {
      // Map keys decode by UnmarshalText; a null account is an empty one.
      const a = Buffer.from(fixedText(key, 20, 'Address')).toString('hex');
      if (raw !== null && !isJsonObject(raw)) return fail(`json: cannot unmarshal ${goKind(raw)} into Go value of type ethapi.OverrideAccount`);
      const o = (raw ?? {}) as JsonObject;
      out.set(`0x${a}`, {
        balance: structField(o, 'OverrideAccount', 'balance', big),
        nonce: structField(o, 'OverrideAccount', 'nonce', uint64),
        code: structField(o, 'OverrideAccount', 'code', bytes),
        state: storageOverride(o, 'state'),
        stateDiff: storageOverride(o, 'stateDiff'),
      });
    }
    return out;
  },
  zero: () => undefined,
};

/** An OverrideAccount's state or stateDiff: a map[common.Hash]common.Hash (keys by UnmarshalText). */
function storageOverride(o: JsonObject, key: string): Map<string, Uint8Array> | undefined {
  const x = goKey(o, key);
  if (x === undefined || x === null) return undefined;
  if (!isJsonObject(x)) return fail(`json: cannot unmarshal ${goKind(x)} into Go struct field OverrideAccount.${key} of type map[common.Hash]common.Hash`);
  return new Map(Object.entries(x).map(([k, value]) => [Buffer.from(fixedText(k, 32, 'Hash')).toString('hex'), decodeIn('OverrideAccount', key, hash, value)]));
}

/** Any JSON value, decoded later by the method (filter criteria, tracer configs). */
export { raw } from '../../../rpc/schema.js';

/** A *uint64 as geth's rpc decodes it: a JSON number only (a hex string or "latest" is refused). */
export const goUint64: Field<number> = {
  decode(v) {
    const text = numberText(v);
    if (text === undefined) throw new ParamsError(`json: cannot unmarshal ${goKind(v)} into Go value of type uint64`);
    if (!/^\d+$/.test(text) || BigInt(text) > (1n << 64n) - 1n) throw new ParamsError(`json: cannot unmarshal number ${text} into Go value of type uint64`);
    return Number(text);
  },
  zero: () => 0,
};

/** A Go int as geth's rpc decodes it (a JSON number only, an integer within int64), as a bigint. */
export const goInt: Field<bigint> = {
  decode(v) {
    const text = numberText(v);
    if (text === undefined) throw new ParamsError(`json: cannot unmarshal ${goKind(v)} into Go value of type int`);
    const n = /^-?\d+$/.test(text) ? BigInt(text) : undefined;
    if (n === undefined || n !== BigInt.asIntN(64, n)) throw new ParamsError(`json: cannot unmarshal number ${text} into Go value of type int`);
    return n;
  },
  zero: () => 0n,
};

/** ethapi.BlockOverrides (its fields have no JSON tags: the keys are the Go names, any case). */
export const blockOverrides: Field<BlockOverrides | undefined> = {
  decode(v) {
    if (!isJsonObject(v)) return fail(`json: cannot unmarshal ${goKind(v)} into Go value of type ethapi.BlockOverrides`);
    const o = v;
    const at = <T>(name: string, f: Field<T>) => structField(o, 'BlockOverrides', name, f);
    return {
      number: at('Number', big),
      difficulty: at('Difficulty', big),
      time: at('Time', uint64),
      gasLimit: at('GasLimit', uint64),
      coinbase: at('Coinbase', address),
      baseFee: at('BaseFee', big),
      blobBaseFee: at('BlobBaseFee', big),
    };
  },
  zero: () => undefined,
};
