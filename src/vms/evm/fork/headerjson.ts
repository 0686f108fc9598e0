// A coreth or Subnet-EVM header rebuilt from the JSON of eth_getBlockByNumber / eth_getHeaderByNumber,
// for forking: public endpoints often refuse debug_getRawHeader, so the header the fork starts from
// is read from the JSON every endpoint serves and trusted only if it re-hashes to the upstream's hash.
//
// The JSON is RPCMarshalHeader's (avalanchego graft/{coreth,subnet-evm}/internal/ethapi/api.go; the
// names are customtypes.HeaderSerializable's json tags): the fifteen Ethereum fields, `mixHash` and
// `nonce` included, and coreth's `extDataHash` are always written; each field of the optional tail
// only when the header has it. So a field that is absent, or null (as Go's decoder reads null into a
// pointer), is a tail field the header lacks, and is an error for an always-written one. The values
// are checked as Go's hexutil decodes them: "0x" then hex digits of either case; quantities without
// leading zeros (uint64 or at most 256 bits), hashes and the like at their exact lengths.
import { parseHex, toHex0x } from '../../../encoding/bytes.js';
import { type CorethHeader, type HeaderLayout, headerHash } from '../header.js';

/** A header JSON that is malformed, of another layout, or does not hash to its `hash`. One line. */
export class HeaderJsonError extends Error {
  override name = 'HeaderJsonError';
}

type Value = Uint8Array | bigint;
/** A parser: the value, or why it is malformed (after "want"). */
type Parser = (text: string) => Value | string;

/** Exactly `n` bytes: common.Hash, common.Address, types.Bloom, types.BlockNonce (hexutil.UnmarshalFixedJSON). */
const fixed =
  (n: number): Parser =>
  (text) => {
    const b = /^0[xX]/.test(text) ? parseHex(text.slice(2)) : undefined;
    return b?.length === n ? b : `${n} bytes of hex after 0x`;
  };

/** Any whole bytes: hexutil.Bytes. */
const bytes: Parser = (text) => (/^0[xX]/.test(text) ? parseHex(text.slice(2)) : undefined) ?? 'whole bytes of hex after 0x';

/** A quantity of at most `bits`: hexutil.Uint64 (64) and hexutil.Big (256), which refuse "0x", "0x01" and overflow. */
const quantity =
  (bits: number): Parser =>
  (text) => {
    const digits = /^0[xX](0|[1-9a-fA-F][0-9a-fA-F]*)$/.exec(text)?.[1];
    return digits !== undefined && digits.length <= bits / 4 ? BigInt(`0x${digits}`) : `a ${bits}-bit hex quantity without leading zeros`;
  };

const hash = fixed(32);
const u64 = quantity(64);
const big = quantity(256);

/**
 * When a field must be there: `always` (RPCMarshalHeader writes it for every header), `coreth` (written
 * for every coreth header, absent from Subnet-EVM's), or `tail` (written when the header has it).
 */
type Presence = 'always' | 'coreth' | 'tail';

interface Field {
  json: string;
  key: keyof CorethHeader;
  parse: Parser;
  presence: Presence;
  /** A field of coreth's layout only: a Subnet-EVM header with it is malformed. */
  corethOnly?: true;
}

/** The header's fields by their JSON names. `number` first, so later errors can name the block. */
const FIELDS: Field[] = [
  { json: 'number', key: 'number', parse: big, presence: 'always' },
  { json: 'parentHash', key: 'parentHash', parse: hash, presence: 'always' },
  { json: 'sha3Uncles', key: 'uncleHash', parse: hash, presence: 'always' },
  { json: 'miner', key: 'coinbase', parse: fixed(20), presence: 'always' },
  { json: 'stateRoot', key: 'stateRoot', parse: hash, presence: 'always' },
  { json: 'transactionsRoot', key: 'txHash', parse: hash, presence: 'always' },
  { json: 'receiptsRoot', key: 'receiptHash', parse: hash, presence: 'always' },
  { json: 'logsBloom', key: 'bloom', parse: fixed(256), presence: 'always' },
  { json: 'difficulty', key: 'difficulty', parse: big, presence: 'always' },
  { json: 'gasLimit', key: 'gasLimit', parse: u64, presence: 'always' },
  { json: 'gasUsed', key: 'gasUsed', parse: u64, presence: 'always' },
  { json: 'timestamp', key: 'time', parse: u64, presence: 'always' },
  { json: 'extraData', key: 'extra', parse: bytes, presence: 'always' },
  // Optional in HeaderSerializable's JSON decoder, but RPCMarshalHeader always writes them, and a
  // zero guessed for a missing one would only fail the hash check later, less clearly.
  { json: 'mixHash', key: 'mixDigest', parse: hash, presence: 'always' },
  { json: 'nonce', key: 'nonce', parse: fixed(8), presence: 'always' },
  { json: 'extDataHash', key: 'extDataHash', parse: hash, presence: 'coreth', corethOnly: true },
  // The tail. A gap (a later field without an earlier one) is kept as a gap: encodeHeader writes the
  // missing field as an empty string, as Go's generated encoder does for a nil pointer.
  { json: 'baseFeePerGas', key: 'baseFee', parse: big, presence: 'tail' },
  { json: 'extDataGasUsed', key: 'extDataGasUsed', parse: big, presence: 'tail', corethOnly: true },
  { json: 'blockGasCost', key: 'blockGasCost', parse: big, presence: 'tail' },
  { json: 'blobGasUsed', key: 'blobGasUsed', parse: u64, presence: 'tail' },
  { json: 'excessBlobGas', key: 'excessBlobGas', parse: u64, presence: 'tail' },
  { json: 'parentBeaconBlockRoot', key: 'parentBeaconRoot', parse: hash, presence: 'tail' },
  { json: 'timestampMilliseconds', key: 'timeMilliseconds', parse: u64, presence: 'tail' },
  { json: 'minDelayExcess', key: 'minDelayExcess', parse: u64, presence: 'tail' },
];

/**
 * Header fields that neither layout here encodes. Any of them would make the rebuilt header hash
 * wrong, so it is named instead of reported as a bare hash mismatch: Ethereum's own (geth's header
 * has them where coreth's and Subnet-EVM's have none), and the tail of a later avalanchego's coreth
 * (Helicon's targetExponent and minPriceExponent, then the settled* fields), after minDelayExcess.
 */
const FOREIGN: Record<string, string> = {
  withdrawalsRoot: 'an Ethereum header field that coreth and Subnet-EVM headers do not have: not a coreth or Subnet-EVM header',
  requestsHash: 'an Ethereum header field that coreth and Subnet-EVM headers do not have: not a coreth or Subnet-EVM header',
  ...Object.fromEntries(
    ['targetExponent', 'minPriceExponent', 'settledHeight', 'settledGasUnix', 'settledGasNumerator', 'settledExcess'].map((f) => [
      f,
      'a header field of a later avalanchego than the coreth layout this emulator encodes (through minDelayExcess)',
    ]),
  ),
};

/** A JSON value in a one-line message, cut short. */
function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

/** Absent and null alike: Go decodes null into a nil pointer, the same as a missing key. */
const given = (json: Record<string, unknown>, name: string): boolean => json[name] !== undefined && json[name] !== null;

/**
 * The header an eth_getBlockByNumber (or eth_getHeaderByNumber) result describes, its hash (recomputed,
 * and equal to the JSON's `hash`) and its layout: `layout` if given, else coreth's iff the JSON has an
 * extDataHash. Throws HeaderJsonError naming the field that is missing or malformed, or saying the
 * fields do not hash to `hash`.
 */
export function headerFromJson(json: unknown, layout?: HeaderLayout): { header: CorethHeader; hash: Uint8Array; layout: HeaderLayout } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HeaderJsonError(`the upstream's header is ${shown(json)}, not a JSON object${json === null ? ' (no such block)' : ''}`);
  }
  const o = json as Record<string, unknown>;
  const kind = layout ?? (given(o, 'extDataHash') ? 'coreth' : 'subnet-evm');
  let who = "the upstream's header";
  const read = (name: string, parse: Parser): Value => {
    const v = o[name];
    const out = typeof v === 'string' ? parse(v) : 'a hex string';
    if (typeof out === 'string') throw new HeaderJsonError(`${who} has a malformed ${name} ${shown(v)}: want ${out}`);
    return out;
  };

  const fields: Partial<Record<keyof CorethHeader, Value>> = {};
  for (const f of FIELDS) {
    const present = given(o, f.json);
    if (f.corethOnly && kind === 'subnet-evm' && present) throw new HeaderJsonError(`${who} has ${f.json}, which a Subnet-EVM header does not have`);
    const required = f.presence === 'always' || (f.presence === 'coreth' && kind === 'coreth');
    if (!present) {
      if (required) throw new HeaderJsonError(`${who} has no ${f.json}${f.presence === 'coreth' ? ', which every coreth header has' : ''}`);
      continue;
    }
    fields[f.key] = read(f.json, f.parse);
    if (f.key === 'number') who = `the upstream's block ${fields.number}`;
  }
  for (const [name, why] of Object.entries(FOREIGN)) if (given(o, name)) throw new HeaderJsonError(`${who} has ${name}, ${why}`);
  if (!given(o, 'hash')) throw new HeaderJsonError(`${who} has no hash`);
  const claimed = read('hash', hash) as Uint8Array;

  // The table gave every key its type (hashes and byte strings as bytes, quantities as bigints).
  const header = fields as unknown as CorethHeader;
  const computed = headerHash(header);
  if (toHex0x(computed) !== toHex0x(claimed)) {
    throw new HeaderJsonError(
      `${who} does not hash to its hash ${toHex0x(claimed)} (its fields hash to ${toHex0x(computed)} as a ${kind} header): not a coreth or Subnet-EVM header`,
    );
  }
  return { header, hash: computed, layout: kind };
}
