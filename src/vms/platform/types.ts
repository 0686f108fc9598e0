// The P-Chain's data model (vms/platformvm/txs, block, stakeable, signer) as the linear codec lays it
// out. Type IDs are the platformvm codec's, which share one numbering with its blocks; the fx types
// keep secp256k1fx's IDs 5/7/9 but its Input and OutputOwners are 10 and 11 here.
// IDs, node IDs and addresses stay raw bytes; text forms belong to the API layer.

import type * as avax from '../components/avax/types.js';
import type { OutputOwners } from '../components/secp256k1fx/fx.js';
import type * as secp from '../components/secp256k1fx/types.js';

export type { Credential, OwnersValue, TransferInput, TransferOutput } from '../components/secp256k1fx/types.js';
type TransferInput = secp.TransferInput;
type TransferOutput = secp.TransferOutput;
type Credential = secp.Credential;
type OwnersValue = secp.OwnersValue;

export type { Bytes, UTXOID } from '../components/avax/types.js';
type Bytes = avax.Bytes;

/** secp256k1fx.OutputOwners: locktime (unix s), threshold, 20-byte addresses (sorted, unique). */
export type Owners = OutputOwners;

/** stakeable.LockOut: a TransferOutput that can only be staked before `locktime`. */
export interface LockOut {
  type: 22;
  locktime: bigint;
  out: TransferOutput;
}

export type Output = TransferOutput | LockOut;

/** stakeable.LockIn: spends a LockOut. */
export interface LockIn {
  type: 21;
  locktime: bigint;
  in: TransferInput;
}

export type Input = TransferInput | LockIn;

/** secp256k1fx.Input (10): the signature indices of a subnet or deactivation authorization. */
export type AuthInput = secp.Input;

/**
 * What parses in a verify.Verifiable slot (credentials, subnet auth): any fx value. A wrong kind
 * parses, then fails verification, as on the real node.
 */
export type FxValue = TransferInput | TransferOutput | Credential | AuthInput | OwnersValue | LockIn | LockOut;

export type TransferableOutput = avax.TransferableOutput<Output>;
export type TransferableInput = avax.TransferableInput<Input>;
export type BaseTxFields = avax.BaseTxFields<Output, Input>;

/** signer.Empty (27) or signer.ProofOfPossession (28): a BLS public key (48 B) and its PoP (96 B). */
export type Signer = { type: 27 } | { type: 28; publicKey: Bytes; proofOfPossession: Bytes };

/** A validator of ConvertSubnetToL1Tx. `remainingBalanceOwner` and `deactivationOwner` are PChainOwners (no locktime). */
export interface ConvertValidator {
  nodeID: Bytes;
  weight: bigint;
  balance: bigint;
  publicKey: Bytes;
  proofOfPossession: Bytes;
  remainingBalanceOwner: { threshold: number; addresses: Bytes[] };
  deactivationOwner: { threshold: number; addresses: Bytes[] };
}

interface Staker {
  nodeID: Bytes;
  start: bigint;
  end: bigint;
  weight: bigint;
}

export type UnsignedTx =
  | ({ type: 13; base: BaseTxFields; subnetID: Bytes; auth: FxValue } & Staker)
  | {
      type: 15;
      base: BaseTxFields;
      subnetID: Bytes;
      chainName: Bytes;
      vmID: Bytes;
      fxIDs: Bytes[];
      genesis: Bytes;
      auth: FxValue;
    }
  | { type: 16; base: BaseTxFields; owner: OwnersValue }
  | { type: 17; base: BaseTxFields; sourceChain: Bytes; importedInputs: TransferableInput[] }
  | { type: 18; base: BaseTxFields; destinationChain: Bytes; exportedOutputs: TransferableOutput[] }
  | { type: 20; txID: Bytes }
  | { type: 23; base: BaseTxFields; nodeID: Bytes; subnetID: Bytes; auth: FxValue }
  | ({
      type: 25;
      base: BaseTxFields;
      subnetID: Bytes;
      signer: Signer;
      stakeOuts: TransferableOutput[];
      validatorRewardsOwner: OwnersValue;
      delegatorRewardsOwner: OwnersValue;
      delegationShares: number;
    } & Staker)
  | ({ type: 26; base: BaseTxFields; subnetID: Bytes; stakeOuts: TransferableOutput[]; delegationRewardsOwner: OwnersValue } & Staker)
  | { type: 33; base: BaseTxFields; subnetID: Bytes; auth: FxValue; owner: OwnersValue }
  | { type: 34; base: BaseTxFields }
  | { type: 35; base: BaseTxFields; subnetID: Bytes; chainID: Bytes; address: Bytes; validators: ConvertValidator[]; auth: FxValue }
  | { type: 36; base: BaseTxFields; balance: bigint; proofOfPossession: Bytes; message: Bytes }
  | { type: 37; base: BaseTxFields; message: Bytes }
  | { type: 38; base: BaseTxFields; validationID: Bytes; balance: bigint }
  | { type: 39; base: BaseTxFields; validationID: Bytes; auth: FxValue };

export type TxType = UnsignedTx['type'];
export type TxOf<T extends TxType> = Extract<UnsignedTx, { type: T }>;

export type SignedTx = avax.SignedTx<UnsignedTx, FxValue>;
export type UTXO = avax.UTXO<Output>;

/** BanffStandardBlock (32): the only block this VM builds (no staker ends within a test's reach). */
export interface StandardBlock {
  type: 32;
  time: bigint;
  parentID: Bytes;
  height: bigint;
  txs: SignedTx[];
  bytes: Bytes;
  id: Bytes;
}

/** ApricotCommitBlock (2): the genesis block, whose parent is the genesis bytes' ID. */
export interface GenesisBlock {
  type: 2;
  parentID: Bytes;
  height: 0n;
  bytes: Bytes;
  id: Bytes;
}

/** BanffProposalBlock (29): a RewardValidatorTx (and decision txs) whose outcome its option decides. */
export interface ProposalBlock {
  type: 29;
  time: bigint;
  parentID: Bytes;
  height: bigint;
  decisionTxs: SignedTx[];
  tx: SignedTx;
  bytes: Bytes;
  id: Bytes;
}

/** BanffAbortBlock (30) or BanffCommitBlock (31): the option of a proposal block that was taken. */
export interface OptionBlock {
  type: 30 | 31;
  time: bigint;
  parentID: Bytes;
  height: bigint;
  bytes: Bytes;
  id: Bytes;
}

export type Block = StandardBlock | GenesisBlock | ProposalBlock | OptionBlock;
