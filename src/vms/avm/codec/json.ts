// Tx and block JSON exactly as avm.getTx / avm.getBlock return them with encoding "json": Go's
// encoding/json over avalanchego's structs. Structs keep field order with embedded structs
// inlined; every output type marshals through OutputOwners' MarshalJSON into a Go map, so its
// keys come out sorted; uint64s are exact decimal numbers. The text is built by hand so that no
// integer passes through a JS double.
import { bech32 } from '@scure/base';
import { encodeCB58, EMPTY_ID } from '../../../encoding/cb58.js';
import { FX_IDS } from '../../../chains/ids.js';
import type {
  FxValue,
  Operation,
  Output,
  OutputOwners,
  SignedTx,
  StandardBlock,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  UnsignedTx,
} from '../types.js';
import { fxIndexOfType } from '../types.js';
import { goJsonString } from '../../../encoding/gostring.js';
import { quotedHex0x } from '../../../encoding/bytes.js';

export interface JsonContext {
  /** Bech32 HRP of the network (`local`, `avax`, `fuji`, `custom`, ...). */
  hrp: string;
  /** `"credentials":null`: the genesis tx as a fresh node holds it (built in memory, never parsed). */
  credentialsNull?: boolean;
  /** `"txs":null`: the genesis block as a fresh node holds it. */
  txsNull?: boolean;
}

type AddressFormat = (address: Uint8Array) => string;

/** fxs[i].ID: the fx names zero-padded to 32 bytes. */
const FX_ID_BY_INDEX = [FX_IDS.secp256k1fx, FX_IDS.nftfx, FX_IDS.propertyfx];

const idText = (bytes: Uint8Array) => `"${encodeCB58(bytes)}"`;
const list = <T>(items: readonly T[], item: (t: T) => string) => `[${items.map(item).join(',')}]`;
/** The typeToFxIndex lookup of tx_init.go: an fx value's fxID follows its Go type. */
const fxIdOfType = (type: number) => `"${FX_ID_BY_INDEX[fxIndexOfType(type)!]}"`;

/** A Go map[string]any: keys sorted bytewise (all keys here are ASCII). */
function goMap(entries: [string, string][]): string {
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `"${k}":${v}`).join(',')}}`;
}

function ownersEntries(o: OutputOwners, fmt: AddressFormat): [string, string][] {
  return [
    ['addresses', list(o.addresses, (a) => `"${fmt(a)}"`)],
    ['locktime', o.locktime.toString()],
    ['threshold', String(o.threshold)],
  ];
}

const ownersJson = (o: OutputOwners, fmt: AddressFormat) => goMap(ownersEntries(o, fmt));

function outputJson(out: Output, fmt: AddressFormat): string {
  const entries = ownersEntries(out.owners, fmt);
  if (out.type === 7) entries.push(['amount', out.amount.toString()]);
  if (out.type === 10 || out.type === 11) entries.push(['groupID', String(out.groupID)]);
  if (out.type === 11) entries.push(['payload', quotedHex0x(out.payload)]);
  return goMap(entries);
}

/** secp256k1fx.Input has no MarshalJSON: a plain struct. */
const inputJson = (sigIndices: readonly number[]) => `{"signatureIndices":[${sigIndices.join(',')}]}`;
/** secp256k1fx.TransferInput: Amt, then the embedded Input inlined. */
const transferInputJson = (v: TransferInput) => `{"amount":${v.amount},"signatureIndices":[${v.sigIndices.join(',')}]}`;

function fxValueJson(v: FxValue, fmt: AddressFormat): string {
  switch (v.type) {
    case 5:
      return transferInputJson(v);
    case 6:
    case 7:
    case 10:
    case 11:
    case 15:
    case 16:
      return outputJson(v, fmt);
    case 8:
      return (
        `{"mintInput":${inputJson(v.mintInput)},"mintOutput":${ownersJson(v.mintOutput, fmt)},` +
        `"transferOutput":${outputJson({ type: 7, ...v.transferOutput }, fmt)}}`
      );
    case 12:
      return (
        `{"mintInput":${inputJson(v.mintInput)},"groupID":${v.groupID},"payload":${quotedHex0x(v.payload)},` +
        `"outputs":${list(v.outputs, (o) => ownersJson(o, fmt))}}`
      );
    case 13:
      return `{"input":${inputJson(v.input)},"output":${outputJson({ type: 11, ...v.output }, fmt)}}`;
    case 17:
      return `{"mintInput":${inputJson(v.mintInput)},"mintOutput":${ownersJson(v.mintOutput, fmt)},` + `"ownedOutput":${ownersJson(v.ownedOutput, fmt)}}`;
    case 18:
      return inputJson(v.input); // BurnOperation embeds Input
    case 9:
    case 14:
    case 19:
      return `{"signatures":${list(v.signatures, quotedHex0x)}}`;
  }
}

function transferableOutputJson(o: TransferableOutput, fmt: AddressFormat): string {
  return `{"assetID":${idText(o.assetID)},"fxID":${fxIdOfType(o.out.type)},"output":${outputJson(o.out, fmt)}}`;
}

function transferableInputJson(i: TransferableInput): string {
  return (
    `{"txID":${idText(i.utxoID.txID)},"outputIndex":${i.utxoID.outputIndex},"assetID":${idText(i.assetID)},` +
    `"fxID":${fxIdOfType(i.input.type)},"input":${transferInputJson(i.input)}}`
  );
}

function operationJson(op: Operation, fmt: AddressFormat): string {
  const inputIDs = list(op.utxoIDs, (u) => `{"txID":${idText(u.txID)},"outputIndex":${u.outputIndex}}`);
  return `{"assetID":${idText(op.assetID)},"inputIDs":${inputIDs},"fxID":${fxIdOfType(op.op.type)},` + `"operation":${fxValueJson(op.op, fmt)}}`;
}

function unsignedJson(u: UnsignedTx, fmt: AddressFormat): string {
  const b = u.base;
  let s =
    `{"networkID":${b.networkID},"blockchainID":${idText(b.blockchainID)},` +
    `"outputs":${list(b.outputs, (o) => transferableOutputJson(o, fmt))},` +
    `"inputs":${list(b.inputs, transferableInputJson)},"memo":${quotedHex0x(b.memo)}`;
  switch (u.type) {
    case 1: {
      // An initial state's fxID comes from its fxIndex, not from its outputs' types. An index
      // past the known fxs cannot pass verification; the ID's zero value stands in.
      const states = list(u.initialStates, (st) => {
        const fxID = FX_ID_BY_INDEX[st.fxIndex] ?? EMPTY_ID;
        return `{"fxIndex":${st.fxIndex},"fxID":"${fxID}","outputs":${list(st.outputs, (o) => outputJson(o, fmt))}}`;
      });
      s += `,"name":${goJsonString(u.name)},"symbol":${goJsonString(u.symbol)},"denomination":${u.denomination},` + `"initialStates":${states}`;
      break;
    }
    case 2:
      s += `,"operations":${list(u.operations, (op) => operationJson(op, fmt))}`;
      break;
    case 3:
      s += `,"sourceChain":${idText(u.sourceChain)},"importedInputs":${list(u.importedInputs, transferableInputJson)}`;
      break;
    case 4:
      s += `,"destinationChain":${idText(u.destinationChain)},` + `"exportedOutputs":${list(u.exportedOutputs, (o) => transferableOutputJson(o, fmt))}`;
      break;
  }
  return `${s}}`;
}

export function txJson(tx: SignedTx, ctx: JsonContext): string {
  // InitCtx reaches every output of the unsigned tx, so their addresses read `X-<hrp>1...`. Nothing
  // initializes values sitting in credential slots: their addresses print as cb58 ShortIDs.
  const fmt: AddressFormat = (a) => `X-${bech32.encode(ctx.hrp, bech32.toWords(a))}`;
  const credentials = ctx.credentialsNull ? 'null' : list(tx.credentials, (c) => `{"fxID":${fxIdOfType(c.type)},"credential":${fxValueJson(c, encodeCB58)}}`);
  return `{"unsignedTx":${unsignedJson(tx.unsigned, fmt)},"credentials":${credentials},"id":${idText(tx.id)}}`;
}

export function blockJson(block: StandardBlock, ctx: JsonContext): string {
  const txCtx: JsonContext = { hrp: ctx.hrp }; // a block's txs are parsed: never null credentials
  const txs = ctx.txsNull ? 'null' : list(block.txs, (tx) => txJson(tx, txCtx));
  return (
    `{"parentID":${idText(block.parentID)},"height":${block.height},"time":${block.time},` +
    `"merkleRoot":${idText(block.merkleRoot)},"txs":${txs},"id":${idText(block.id)}}`
  );
}

export { goJsonString } from '../../../encoding/gostring.js';
