// The X-Chain's data model: transactions, fx outputs/inputs/operations/credentials, UTXOs and
// blocks, as avalanchego's codec (linear codec v0) lays them out. Type IDs are the codec's.
// IDs and addresses stay raw bytes here (32 and 20 bytes); text forms are for the API layer.

import type * as avax from '../components/avax/types.js';
import type { OutputOwners } from '../components/secp256k1fx/fx.js';

export type { Bytes, UTXOID } from '../components/avax/types.js';
export type { OutputOwners };
type Bytes = avax.Bytes;

/** Outputs that can sit in a UTXO or an initial state (verify.State). */
export type Output =
  | { type: 6; owners: OutputOwners } // secp256k1fx MintOutput
  | { type: 7; amount: bigint; owners: OutputOwners } // secp256k1fx TransferOutput
  | { type: 10; groupID: number; owners: OutputOwners } // nftfx MintOutput
  | { type: 11; groupID: number; payload: Bytes; owners: OutputOwners } // nftfx TransferOutput
  | { type: 15; owners: OutputOwners } // propertyfx MintOutput
  | { type: 16; owners: OutputOwners }; // propertyfx OwnedOutput

export type TransferOutput = Extract<Output, { type: 7 }>;

/** secp256k1fx TransferInput (5): the only input type. `sigIndices` index the UTXO's addresses. */
export interface TransferInput {
  type: 5;
  amount: bigint;
  sigIndices: number[];
}

/** Operations (fxs.FxOperation). `*Input` fields are secp256k1fx.Input: signature indices. */
export type OperationBody =
  | { type: 8; mintInput: number[]; mintOutput: OutputOwners; transferOutput: { amount: bigint; owners: OutputOwners } }
  | { type: 12; mintInput: number[]; groupID: number; payload: Bytes; outputs: OutputOwners[] }
  | { type: 13; input: number[]; output: { groupID: number; payload: Bytes; owners: OutputOwners } }
  | { type: 17; mintInput: number[]; mintOutput: OutputOwners; ownedOutput: OutputOwners }
  | { type: 18; input: number[] };

/** Credentials (9 secp, 14 nft, 19 property): 65-byte [r ‖ s ‖ v] signatures. */
export interface CredentialBody {
  type: 9 | 14 | 19;
  signatures: Bytes[];
}

/**
 * Any value the codec accepts in a credential slot (verify.Verifiable): a real credential, or any
 * other fx type (5..19), which parses and then fails verification as on the real node.
 */
export type FxValue = CredentialBody | TransferInput | Output | OperationBody;

/** Only a TransferOutput (7) parses as its `out`. */
export type TransferableOutput = avax.TransferableOutput<Output>;
export type TransferableInput = avax.TransferableInput<TransferInput>;

export interface Operation {
  assetID: Bytes;
  utxoIDs: avax.UTXOID[];
  op: OperationBody;
}

export interface InitialState {
  fxIndex: number;
  outputs: Output[];
}

export type BaseTxFields = avax.BaseTxFields<Output, TransferInput>;

export type UnsignedTx =
  | { type: 0; base: BaseTxFields }
  | { type: 1; base: BaseTxFields; name: Bytes; symbol: Bytes; denomination: number; initialStates: InitialState[] }
  | { type: 2; base: BaseTxFields; operations: Operation[] }
  | { type: 3; base: BaseTxFields; sourceChain: Bytes; importedInputs: TransferableInput[] }
  | { type: 4; base: BaseTxFields; destinationChain: Bytes; exportedOutputs: TransferableOutput[] };

export type SignedTx = avax.SignedTx<UnsignedTx, FxValue>;
export type UTXO = avax.UTXO<Output>;

/** StandardBlock (20). */
export interface StandardBlock {
  parentID: Bytes;
  height: bigint;
  time: bigint; // unix seconds
  merkleRoot: Bytes;
  txs: SignedTx[];
  bytes: Bytes;
  id: Bytes;
}

/** Fx index of a codec type ID: 0 secp256k1fx (5..9), 1 nftfx (10..14), 2 propertyfx (15..19). */
export function fxIndexOfType(type: number): number | undefined {
  if (type >= 5 && type <= 9) return 0;
  if (type >= 10 && type <= 14) return 1;
  if (type >= 15 && type <= 19) return 2;
  return undefined;
}
