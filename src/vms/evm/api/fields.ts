// geth's argument types as JSON-RPC decodes them (hexutil, common.Address/Hash, rpc.BlockNumber,
// rpc.BlockNumberOrHash, ethapi.TransactionArgs), with geth's error texts.
import { goKind, type JsonObject, type JsonValue, numberText, RawNumber } from '../../../encoding/gojson.js';
import { type Field, ParamsError } from '../../../rpc/schema.js';
import type { CallArgs, StateOverride } from '../callargs.js';
import type { TxArgs } from '../txargs.js';

const kind = (v: JsonValue): string => (typeof v === 'string' ? 'string' : 'non-string');

function hexDigits(text: string, what: string): string {
  if (!/^0[xX]/.test(text)) throw new ParamsError(text === '' ? 'empty hex string' : 'hex string without 0x prefix');
  const digits = text.slice(2);
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new ParamsError('invalid hex string');
  void what;
  return digits;
}

function quantityOf(bits: number, type: string): Field<bigint> {
  return {
    decode(v) {
      if (typeof v !== 'string') throw new ParamsError(`json: cannot unmarshal ${kind(v)} into Go value of type ${type}`);
      const digits = hexDigits(v, type);
      if (digits === '') throw new ParamsError('hex string "0x"');
      if (digits.length > 1 && digits[0] === '0') throw new ParamsError('hex number with leading zero digits');
      if (digits.length > bits / 4) throw new ParamsError(`hex number > ${bits} bits`);
      return BigInt(`0x${digits}`);
    },
    zero: () => 0n,
  };
}

export const big = quantityOf(256, '*hexutil.Big');

/** math.HexOrDecimal64: a JSON number, a decimal string or a 0x string. */
export const hexOrDecimal64: Field<bigint> = {
  decode(v) {
    const t = v instanceof RawNumber ? v.raw : typeof v === 'number' ? String(v) : v;
    if (typeof t !== 'string') throw new ParamsError(`json: cannot unmarshal ${kind(v)} into Go value of type math.HexOrDecimal64`);
    const n = /^0[xX][0-9a-fA-F]+$/.test(t) ? BigInt(t) : /^\d+$/.test(t) ? BigInt(t) : undefined;
    if (n === undefined || n > 0xffffffffffffffffn) throw new ParamsError(`invalid hex or decimal integer ${JSON.stringify(t)}`);
    return n;
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
    const t = v instanceof RawNumber ? v.raw : typeof v === 'number' ? String(v) : v;
    if (typeof t !== 'string') throw new ParamsError(`invalid type: ${kind(v)}, expected a 256-bit unsigned integer`);
    const n = /^0[xX][0-9a-fA-F]{1,64}$/.test(t) ? BigInt(t) : /^\d{1,78}$/.test(t) ? BigInt(t) : undefined;
    if (n === undefined || n >= 1n << 256n) throw new ParamsError(`invalid 256-bit unsigned integer ${JSON.stringify(t)}`);
    return n;
  },
  zero: () => 0n,
};
export const uint64 = quantityOf(64, 'hexutil.Uint64');
export const uint = quantityOf(64, 'hexutil.Uint');

function fixedBytes(length: number, type: string): Field<Uint8Array> {
  return {
    decode(v) {
      if (typeof v !== 'string') throw new ParamsError(`json: cannot unmarshal ${kind(v)} into Go value of type ${type}`);
      const digits = hexDigits(v, type);
      if (digits.length % 2 !== 0) throw new ParamsError('hex string of odd length');
      if (digits.length !== length * 2) throw new ParamsError(`hex string has length ${digits.length}, want ${length * 2} for ${type}`);
      return new Uint8Array(Buffer.from(digits, 'hex'));
    },
    zero: () => new Uint8Array(length),
  };
}

export const address = fixedBytes(20, 'common.Address');
export const hash = fixedBytes(32, 'common.Hash');

export const bytes: Field<Uint8Array> = {
  decode(v) {
    if (typeof v !== 'string') throw new ParamsError(`json: cannot unmarshal ${kind(v)} into Go value of type hexutil.Bytes`);
    const digits = hexDigits(v, 'hexutil.Bytes');
    if (digits.length % 2 !== 0) throw new ParamsError('hex string of odd length');
    return new Uint8Array(Buffer.from(digits, 'hex'));
  },
  zero: () => new Uint8Array(),
};

export const boolean: Field<boolean> = {
  decode: (v) => (typeof v === 'boolean' ? v : fail(`json: cannot unmarshal ${kind(v)} into Go value of type bool`)),
  zero: () => false,
};

export const text: Field<string> = {
  decode: (v) => (typeof v === 'string' ? v : fail(`json: cannot unmarshal ${kind(v)} into Go value of type string`)),
  zero: () => '',
};

const fail = (message: string): never => {
  throw new ParamsError(message);
};

/** rpc.BlockNumber: a tag or a hex number (negative tags: pending -2, latest -1, finalized -3, safe -4). */
export type BlockTag = bigint | 'latest' | 'pending' | 'earliest' | 'safe' | 'finalized';

function blockTag(v: JsonValue): BlockTag {
  if (typeof v !== 'string') {
    if (typeof v === 'number' || v instanceof RawNumber) return fail('json: cannot unmarshal number into Go value of type string');
    return fail(`json: cannot unmarshal ${kind(v)} into Go value of type string`);
  }
  switch (v) {
    case 'latest':
    case 'pending':
    case 'earliest':
    case 'safe':
    case 'finalized':
      return v;
  }
  const digits = hexDigits(v, 'rpc.BlockNumber');
  if (digits === '') return fail('hex string "0x"');
  if (digits.length > 1 && digits[0] === '0') return fail('hex number with leading zero digits');
  if (digits.length > 16) return fail('hex number > 64 bits');
  const n = BigInt(`0x${digits}`);
  if (n > 0x7fffffffffffffffn) return fail('block number larger than int64');
  return n;
}

export const blockNumber: Field<BlockTag> = { decode: blockTag, zero: () => 'latest' };

export type BlockRef = { tag: BlockTag } | { hash: Uint8Array; requireCanonical: boolean };

/** rpc.BlockNumberOrHash: a tag, a number, a 32-byte hash, or {blockNumber} / {blockHash, requireCanonical}. */
export const blockRef: Field<BlockRef> = {
  decode(v) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RawNumber)) {
      const o = v as JsonObject;
      if (o.blockHash !== undefined && o.blockNumber !== undefined) return fail('cannot specify both BlockHash and BlockNumber, choose one or the other');
      if (o.blockHash !== undefined) return { hash: hash.decode(o.blockHash), requireCanonical: o.requireCanonical === true };
      if (o.blockNumber !== undefined) return { tag: blockTag(o.blockNumber) };
      return fail('either BlockHash or BlockNumber must be specified');
    }
    if (typeof v === 'string' && v.length === 66 && /^0x/i.test(v)) return { hash: hash.decode(v), requireCanonical: false };
    return { tag: blockTag(v) };
  },
  zero: () => ({ tag: 'latest' }),
};

function optionalIn<T>(o: JsonObject, key: string, f: Field<T>): T | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : f.decode(v);
}

/**
 * ethapi.TransactionArgs as JSON decodes it. An access list's entries need both fields
 * (types.AccessTuple's required `address` and `storageKeys`). "data" and "input" may disagree here:
 * input wins, and the caller decides whether that is an error.
 */
function transactionArgs(v: JsonValue): TxArgs {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof RawNumber)
    return fail('json: cannot unmarshal non-object into Go value of type ethapi.TransactionArgs');
  const o = v as JsonObject;
  const data = optionalIn(o, 'data', bytes);
  const input = optionalIn(o, 'input', bytes);
  const accessList = o.accessList;
  if (accessList !== undefined && accessList !== null && !Array.isArray(accessList))
    fail(`json: cannot unmarshal ${goKind(accessList)} into Go struct field TransactionArgs.accessList of type types.AccessList`);
  const args: TxArgs = {
    from: optionalIn(o, 'from', address),
    to: optionalIn(o, 'to', address),
    gas: optionalIn(o, 'gas', uint64),
    gasPrice: optionalIn(o, 'gasPrice', big),
    maxFeePerGas: optionalIn(o, 'maxFeePerGas', big),
    maxPriorityFeePerGas: optionalIn(o, 'maxPriorityFeePerGas', big),
    value: optionalIn(o, 'value', big),
    nonce: optionalIn(o, 'nonce', uint64),
    data: input ?? data,
    accessList: Array.isArray(accessList)
      ? accessList.map((a) => {
          if (a !== null && (typeof a !== 'object' || Array.isArray(a) || a instanceof RawNumber))
            return fail(`json: cannot unmarshal ${goKind(a)} into Go value of type types.AccessTuple`);
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

/** ethapi.TransactionArgs, as eth_call and eth_estimateGas read it. */
export const callArgs: Field<CallArgs> = {
  decode(v) {
    const { conflictingInput, ...args } = transactionArgs(v);
    if (conflictingInput) throw new ParamsError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
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
    const chainId = optionalIn(v as JsonObject, 'chainId', big);
    return chainId === undefined ? args : { ...args, chainId };
  },
  zero: () => ({}),
};

/** ethapi.StateOverride: address -> {balance, nonce, code, state, stateDiff}. */
export const stateOverrides: Field<Map<string, StateOverride> | undefined> = {
  decode(v) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof RawNumber)
      return fail('json: cannot unmarshal non-object into Go value of type ethapi.StateOverride');
    const out = new Map<string, StateOverride>();
    for (const [key, raw] of Object.entries(v as JsonObject)) {
      const a = Buffer.from(address.decode(key)).toString('hex');
      const o = raw as JsonObject;
      const slots = (x: JsonValue | undefined) =>
        x === undefined || x === null
          ? undefined
          : new Map(Object.entries(x as JsonObject).map(([k, val]) => [Buffer.from(hash.decode(k)).toString('hex'), hash.decode(val)]));
      out.set(`0x${a}`, {
        balance: optionalIn(o, 'balance', big),
        nonce: optionalIn(o, 'nonce', uint64),
        code: optionalIn(o, 'code', bytes),
        state: slots(o.state),
        stateDiff: slots(o.stateDiff),
      });
    }
    return out;
  },
  zero: () => undefined,
};

/** Any JSON value, decoded later by the method (filter criteria, tracer configs). */
export const raw: Field<JsonValue | undefined> = { decode: (v) => v, zero: () => undefined };

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
