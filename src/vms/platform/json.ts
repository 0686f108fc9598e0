// P-Chain txs and blocks as platform.getTx / getBlock return them with encoding "json": Go's
// encoding/json over platformvm's structs after InitCtx (outputs' and inputs' fxID is secp256k1fx,
// owners print P- addresses). Embedded structs are inlined; owners and TransferOutputs marshal
// through Go maps (sorted keys); [N]byte arrays print as arrays of numbers, []byte as base64 and
// JSONByteSlice as 0x-hex. Built as text so no uint64 passes through a double.
import { bech32 } from '@scure/base';
import { FX_IDS } from '../../chains/ids.js';
import { encodeCB58 } from '../../encoding/cb58.js';
import { goJsonString } from '../../encoding/gostring.js';
import type { Block, FxValue, Owners, Signer, SignedTx, TransferableInput, TransferableOutput, UnsignedTx } from './types.js';
import { quotedHex0x } from '../../encoding/bytes.js';

type Fmt = (a: Uint8Array) => string;

const id = (b: Uint8Array) => `"${encodeCB58(b)}"`;
const nodeID = (b: Uint8Array) => `"NodeID-${encodeCB58(b)}"`;
const list = <T>(items: readonly T[], f: (t: T) => string) => `[${items.map(f).join(',')}]`;
const byteArray = (b: Uint8Array) => `[${[...b].join(',')}]`;
const SECP = `"${FX_IDS.secp256k1fx}"`;

function goMap(entries: Array<[string, string]>): string {
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `"${k}":${v}`).join(',')}}`;
}

const ownerEntries = (o: Owners, fmt: Fmt): Array<[string, string]> => [
  ['addresses', list(o.addresses, (a) => `"${fmt(a)}"`)],
  ['locktime', o.locktime.toString()],
  ['threshold', String(o.threshold)],
];

function fxJson(v: FxValue, fmt: Fmt): string {
  switch (v.type) {
    case 5:
      return `{"amount":${v.amount},"signatureIndices":[${v.sigIndices.join(',')}]}`;
    case 7:
      return goMap([...ownerEntries(v.owners, fmt), ['amount', v.amount.toString()]]);
    case 9:
      return `{"signatures":${list(v.signatures, quotedHex0x)}}`;
    case 10:
      return `{"signatureIndices":[${v.sigIndices.join(',')}]}`;
    case 11:
      return goMap(ownerEntries(v.owners, fmt));
    case 21:
      return `{"locktime":${v.locktime},"input":${fxJson(v.in, fmt)}}`;
    case 22:
      return `{"locktime":${v.locktime},"output":${fxJson(v.out, fmt)}}`;
  }
}

const outputJson = (o: TransferableOutput, fmt: Fmt) => `{"assetID":${id(o.assetID)},"fxID":${SECP},"output":${fxJson(o.out, fmt)}}`;
const inputJson = (i: TransferableInput, fmt: Fmt) =>
  `{"txID":${id(i.utxoID.txID)},"outputIndex":${i.utxoID.outputIndex},"assetID":${id(i.assetID)},"fxID":${SECP},"input":${fxJson(i.input, fmt)}}`;

const signerJson = (s: Signer) => (s.type === 27 ? '{}' : `{"publicKey":${quotedHex0x(s.publicKey)},"proofOfPossession":${quotedHex0x(s.proofOfPossession)}}`);
const pOwner = (o: { threshold: number; addresses: Uint8Array[] }) => `{"threshold":${o.threshold},"addresses":${list(o.addresses, id)}}`;
const validator = (v: { nodeID: Uint8Array; start: bigint; end: bigint; weight: bigint }) =>
  `"nodeID":${nodeID(v.nodeID)},"start":${v.start},"end":${v.end},"weight":${v.weight}`;

function unsignedJson(u: UnsignedTx, fmt: Fmt): string {
  if (u.type === 20) return `{"txID":${id(u.txID)}}`;
  const b = u.base;
  let s =
    `{"networkID":${b.networkID},"blockchainID":${id(b.blockchainID)},"outputs":${list(b.outputs, (o) => outputJson(o, fmt))},` +
    `"inputs":${list(b.inputs, (i) => inputJson(i, fmt))},"memo":${quotedHex0x(b.memo)}`;
  switch (u.type) {
    case 13:
      s += `,"validator":{${validator(u)},"subnetID":${id(u.subnetID)}},"subnetAuthorization":${fxJson(u.auth, fmt)}`;
      break;
    case 15:
      s +=
        `,"subnetID":${id(u.subnetID)},"chainName":${goJsonString(u.chainName)},"vmID":${id(u.vmID)},"fxIDs":${list(u.fxIDs, id)},` +
        `"genesisData":"${Buffer.from(u.genesis).toString('base64')}","subnetAuthorization":${fxJson(u.auth, fmt)}`;
      break;
    case 16:
      s += `,"owner":${fxJson(u.owner, fmt)}`;
      break;
    case 17:
      s += `,"sourceChain":${id(u.sourceChain)},"importedInputs":${list(u.importedInputs, (i) => inputJson(i, fmt))}`;
      break;
    case 18:
      s += `,"destinationChain":${id(u.destinationChain)},"exportedOutputs":${list(u.exportedOutputs, (o) => outputJson(o, fmt))}`;
      break;
    case 23:
      s += `,"nodeID":${nodeID(u.nodeID)},"subnetID":${id(u.subnetID)},"subnetAuthorization":${fxJson(u.auth, fmt)}`;
      break;
    case 25:
      s +=
        `,"validator":{${validator(u)}},"subnetID":${id(u.subnetID)},"signer":${signerJson(u.signer)},"stake":${list(u.stakeOuts, (o) => outputJson(o, fmt))},` +
        `"validationRewardsOwner":${fxJson(u.validatorRewardsOwner, fmt)},"delegationRewardsOwner":${fxJson(u.delegatorRewardsOwner, fmt)},"shares":${u.delegationShares}`;
      break;
    case 26:
      s += `,"validator":{${validator(u)}},"subnetID":${id(u.subnetID)},"stake":${list(u.stakeOuts, (o) => outputJson(o, fmt))},"rewardsOwner":${fxJson(u.delegationRewardsOwner, fmt)}`;
      break;
    case 33:
      s += `,"subnetID":${id(u.subnetID)},"subnetAuthorization":${fxJson(u.auth, fmt)},"newOwner":${fxJson(u.owner, fmt)}`;
      break;
    case 35:
      s += `,"subnetID":${id(u.subnetID)},"chainID":${id(u.chainID)},"address":${quotedHex0x(u.address)},"validators":${list(
        u.validators,
        (v) =>
          `{"nodeID":${quotedHex0x(v.nodeID)},"weight":${v.weight},"balance":${v.balance},"signer":${signerJson({ type: 28, publicKey: v.publicKey, proofOfPossession: v.proofOfPossession })},` +
          `"remainingBalanceOwner":${pOwner(v.remainingBalanceOwner)},"deactivationOwner":${pOwner(v.deactivationOwner)}}`,
      )},"subnetAuthorization":${fxJson(u.auth, fmt)}`;
      break;
    case 36:
      s += `,"balance":${u.balance},"proofOfPossession":${byteArray(u.proofOfPossession)},"message":${quotedHex0x(u.message)}`;
      break;
    case 37:
      s += `,"message":${quotedHex0x(u.message)}`;
      break;
    case 38:
      s += `,"validationID":${id(u.validationID)},"balance":${u.balance}`;
      break;
    case 39:
      s += `,"validationID":${id(u.validationID)},"disableAuthorization":${fxJson(u.auth, fmt)}`;
      break;
  }
  return `${s}}`;
}

export function txJson(tx: SignedTx, ctx: { hrp: string }): string {
  const fmt: Fmt = (a) => `P-${bech32.encode(ctx.hrp, bech32.toWords(a))}`;
  return `{"unsignedTx":${unsignedJson(tx.unsigned, fmt)},"credentials":${list(tx.credentials, (c) => fxJson(c, encodeCB58))},"id":${id(tx.id)}}`;
}

export function blockJson(block: Block, ctx: { hrp: string }): string {
  switch (block.type) {
    case 2:
      return `{"parentID":${id(block.parentID)},"height":0,"id":${id(block.id)}}`;
    case 29:
      return `{"time":${block.time},"txs":${list(block.decisionTxs, (tx) => txJson(tx, ctx))},"parentID":${id(block.parentID)},"height":${block.height},"id":${id(block.id)},"tx":${txJson(block.tx, ctx)}}`;
    case 32:
      return `{"time":${block.time},"parentID":${id(block.parentID)},"height":${block.height},"id":${id(block.id)},"txs":${list(block.txs, (tx) => txJson(tx, ctx))}}`;
    default:
      return `{"time":${block.time},"parentID":${id(block.parentID)},"height":${block.height},"id":${id(block.id)}}`;
  }
}
