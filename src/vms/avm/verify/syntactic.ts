// avm txs/executor/syntactic_verifier.go: checks that need no state. Per tx type, in the node's
// order; the first failure is the answer, so the order is as much API as the texts.
import type { BaseTxFields, FxValue, InitialState, SignedTx, TransferableInput, TransferableOutput, UnsignedTx } from '../types.js';
import { compareBytes, operationSortKey, outputSortKey, utxoInputID } from '../codec/index.js';
import { fail } from '../../components/verify/errors.js';
import { verifyAssetID, verifyFxValue, verifyOperationBody, verifyOutput, verifyTransferInput } from './values.js';
import type { ChainParams } from './params.js';
import { concatBytes, toHex } from '../../../encoding/bytes.js';

const MAX_U64 = (1n << 64n) - 1n;
const MAX_MEMO = 256;
const NUM_FXS = 3;

export function verifySyntax(tx: SignedTx, p: ChainParams): void {
  const u = tx.unsigned;
  switch (u.type) {
    case 0:
      verifyBase(u.base, p);
      verifyFlow(p.txFee, p.avaxAssetID, [u.base.inputs], [u.base.outputs]);
      break;
    case 1:
      verifyAssetDefinition(u);
      verifyBase(u.base, p);
      verifyFlow(p.createAssetTxFee, p.avaxAssetID, [u.base.inputs], [u.base.outputs]);
      u.initialStates.forEach(verifyInitialState);
      for (let i = 1; i < u.initialStates.length; i++) {
        if (u.initialStates[i - 1]!.fxIndex >= u.initialStates[i]!.fxIndex) fail('initial states not sorted and unique');
      }
      break;
    case 2:
      if (u.operations.length === 0) fail('an operationTx must have at least one operation');
      verifyBase(u.base, p);
      verifyFlow(p.txFee, p.avaxAssetID, [u.base.inputs], [u.base.outputs]);
      verifyOperations(u);
      break;
    case 3:
      if (u.importedInputs.length === 0) fail('no import inputs');
      verifyBase(u.base, p);
      verifyFlow(p.txFee, p.avaxAssetID, [u.base.inputs, u.importedInputs], [u.base.outputs]);
      break;
    case 4:
      if (u.exportedOutputs.length === 0) fail('no export outputs');
      verifyBase(u.base, p);
      verifyFlow(p.txFee, p.avaxAssetID, [u.base.inputs], [u.base.outputs, u.exportedOutputs]);
      break;
  }
  verifyCredentialCount(tx.credentials, expectedCredentials(u));
}

/** How many credentials a tx carries: one per input, imported input and operation (§2.3). */
export function expectedCredentials(u: UnsignedTx): number {
  const ins = u.base.inputs.length;
  if (u.type === 2) return ins + u.operations.length;
  if (u.type === 3) return ins + u.importedInputs.length;
  return ins;
}

function verifyCredentialCount(creds: readonly FxValue[], expected: number): void {
  creds.forEach(verifyFxValue);
  if (creds.length !== expected) fail(`wrong number of credentials: ${creds.length} != ${expected}`);
}

/** avax.BaseTx.Verify. */
function verifyBase(b: BaseTxFields, p: ChainParams): void {
  if (b.networkID !== p.networkID) fail('tx has wrong network ID');
  if (compareBytes(b.blockchainID, p.chainID) !== 0) fail('tx has wrong chain ID');
  if (b.memo.length > MAX_MEMO) fail(`memo exceeds maximum length: ${b.memo.length} > ${MAX_MEMO}`);
}

/**
 * avax.VerifyTx. Outputs before inputs, each group verified item by item and then for order.
 * A uint64 overflow is only remembered (FlowChecker collects it), so a later structural error
 * still wins over "overflow"; "insufficient funds" is only looked for when nothing overflowed.
 */
function verifyFlow(
  fee: bigint,
  feeAsset: Uint8Array,
  insGroups: readonly (readonly TransferableInput[])[],
  outsGroups: readonly (readonly TransferableOutput[])[],
): void {
  const produced = new Map<string, bigint>();
  const consumed = new Map<string, bigint>();
  let overflow = false;
  const add = (m: Map<string, bigint>, asset: Uint8Array, amount: bigint): void => {
    const key = Buffer.from(asset).toString('hex');
    const sum = (m.get(key) ?? 0n) + amount;
    if (sum > MAX_U64) {
      overflow = true;
      m.set(key, 0n); // math.Add returns 0 on overflow
    } else {
      m.set(key, sum);
    }
  };
  add(produced, feeAsset, fee);
  for (const outs of outsGroups) {
    for (const out of outs) {
      verifyAssetID(out.assetID);
      verifyOutput(out.out);
      add(produced, out.assetID, out.out.type === 7 ? out.out.amount : 0n);
    }
    // sort.IsSorted: equal neighbours pass, only a strict descent fails.
    const keys = outs.map((o) => concatBytes(o.assetID, outputSortKey(o.out)));
    for (let i = 1; i < keys.length; i++) {
      if (compareBytes(keys[i]!, keys[i - 1]!) < 0) fail('outputs not sorted');
    }
  }
  for (const ins of insGroups) {
    for (const input of ins) {
      verifyAssetID(input.assetID);
      verifyTransferInput(input.input);
      add(consumed, input.assetID, input.input.amount);
    }
    for (let i = 1; i < ins.length; i++) {
      if (compareUTXOIDs(ins[i - 1]!.utxoID, ins[i]!.utxoID) >= 0) fail('inputs not sorted and unique');
    }
  }
  if (overflow) fail('overflow');
  for (const [asset, amount] of produced) {
    if (amount > (consumed.get(asset) ?? 0n)) fail('insufficient funds');
  }
}

/** UTXOID.Compare: txID bytes, then output index. */
export function compareUTXOIDs(a: { txID: Uint8Array; outputIndex: number }, b: { txID: Uint8Array; outputIndex: number }): number {
  return compareBytes(a.txID, b.txID) || a.outputIndex - b.outputIndex;
}

/** The CreateAssetTx checks that run before BaseTx.Verify. Lengths are in bytes. */
function verifyAssetDefinition(u: Extract<UnsignedTx, { type: 1 }>): void {
  const { name, symbol } = u;
  if (name.length < 1) fail('name is too short, minimum size is 1');
  if (name.length > 128) fail('name is too long, maximum size is 128');
  if (symbol.length < 1) fail('symbol is too short, minimum size is 1');
  if (symbol.length > 4) fail('symbol is too long, maximum size is 4');
  if (u.initialStates.length === 0) fail('assets must support at least one Fx');
  if (u.denomination > 32) fail('denomination is too large');
  if (startsWithSpace(name) || endsWithSpace(name)) fail('unexpected whitespace provided');
  // Every byte ≥ 0x80 belongs to a rune above MaxASCII (or to U+FFFD for invalid UTF-8), so
  // the per-rune checks reduce to per-byte ASCII classes.
  for (const b of name) {
    if (!(isAsciiLetter(b) || (b >= 0x30 && b <= 0x39) || b === 0x20)) fail("asset's name must be made up of only letters and numbers");
  }
  for (const b of symbol) {
    if (!(b >= 0x41 && b <= 0x5a)) fail("asset's symbol must be all upper case letters");
  }
}

function isAsciiLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/**
 * strings.TrimSpace(name) != name, i.e. the first or last rune is unicode.IsSpace. The non-ASCII
 * spaces are all valid UTF-8 sequences whose inner bytes are continuation bytes, so a prefix /
 * suffix byte match is exactly what Go's first-rune / last-rune decoding would find.
 */
const ASCII_SPACES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);
const UNICODE_SPACES: readonly number[][] = [
  [0xc2, 0x85], // U+0085
  [0xc2, 0xa0], // U+00A0
  [0xe1, 0x9a, 0x80], // U+1680
  ...Array.from({ length: 11 }, (_, i) => [0xe2, 0x80, 0x80 + i]), // U+2000..U+200A
  [0xe2, 0x80, 0xa8], // U+2028
  [0xe2, 0x80, 0xa9], // U+2029
  [0xe2, 0x80, 0xaf], // U+202F
  [0xe2, 0x81, 0x9f], // U+205F
  [0xe3, 0x80, 0x80], // U+3000
];

function startsWithSpace(s: Uint8Array): boolean {
  if (ASCII_SPACES.has(s[0]!)) return true;
  return UNICODE_SPACES.some((seq) => seq.length <= s.length && seq.every((b, i) => s[i] === b));
}

function endsWithSpace(s: Uint8Array): boolean {
  if (ASCII_SPACES.has(s[s.length - 1]!)) return true;
  return UNICODE_SPACES.some((seq) => seq.length <= s.length && seq.every((b, i) => s[s.length - seq.length + i] === b));
}

/** txs.InitialState.Verify: fx index, each output, then output order (duplicates allowed). */
function verifyInitialState(state: InitialState): void {
  if (state.fxIndex >= NUM_FXS) fail('unknown feature extension');
  state.outputs.forEach(verifyOutput);
  const keys = state.outputs.map(outputSortKey);
  for (let i = 1; i < keys.length; i++) {
    if (compareBytes(keys[i]!, keys[i - 1]!) < 0) fail('outputs not sorted');
  }
}

/**
 * The OperationTx loop: each operation is verified and then its UTXO IDs are checked against
 * every input seen so far (base inputs first), before the next operation is looked at.
 */
function verifyOperations(u: Extract<UnsignedTx, { type: 2 }>): void {
  const seen = new Set(u.base.inputs.map((i) => toHex(utxoInputID(i.utxoID))));
  for (const op of u.operations) {
    for (let i = 1; i < op.utxoIDs.length; i++) {
      if (compareUTXOIDs(op.utxoIDs[i - 1]!, op.utxoIDs[i]!) >= 0) fail('utxo IDs not sorted and unique');
    }
    verifyAssetID(op.assetID);
    verifyOperationBody(op.op);
    for (const id of op.utxoIDs) {
      const key = toHex(utxoInputID(id));
      if (seen.has(key)) fail('inputs attempt to double spend an input');
      seen.add(key);
    }
  }
  const keys = u.operations.map(operationSortKey);
  for (let i = 1; i < keys.length; i++) {
    if (compareBytes(keys[i - 1]!, keys[i]!) >= 0) fail('operations not sorted and unique');
  }
}
