// The platformvm codec's type registry: Go type names by ID (for the codec's error texts) and the
// interface slots that decide which IDs may appear where. Blocks and txs share one numbering;
// txs.Codec leaves the block IDs (0-4, 29-32) and secp256k1fx's mint types (6, 8) unregistered.
import type { Reader } from '../../../encoding/packer.js';
import { readSlotTypeID, type Slot } from '../../components/avax/codec.js';

const NAMES: Record<number, string> = {
  0: '*block.ApricotProposalBlock',
  1: '*block.ApricotAbortBlock',
  2: '*block.ApricotCommitBlock',
  3: '*block.ApricotStandardBlock',
  4: '*block.ApricotAtomicBlock',
  5: '*secp256k1fx.TransferInput',
  7: '*secp256k1fx.TransferOutput',
  9: '*secp256k1fx.Credential',
  10: '*secp256k1fx.Input',
  11: '*secp256k1fx.OutputOwners',
  12: '*txs.AddValidatorTx',
  13: '*txs.AddSubnetValidatorTx',
  14: '*txs.AddDelegatorTx',
  15: '*txs.CreateChainTx',
  16: '*txs.CreateSubnetTx',
  17: '*txs.ImportTx',
  18: '*txs.ExportTx',
  19: '*txs.AdvanceTimeTx',
  20: '*txs.RewardValidatorTx',
  21: '*stakeable.LockIn',
  22: '*stakeable.LockOut',
  23: '*txs.RemoveSubnetValidatorTx',
  24: '*txs.TransformSubnetTx',
  25: '*txs.AddPermissionlessValidatorTx',
  26: '*txs.AddPermissionlessDelegatorTx',
  27: '*signer.Empty',
  28: '*signer.ProofOfPossession',
  29: '*block.BanffProposalBlock',
  30: '*block.BanffAbortBlock',
  31: '*block.BanffCommitBlock',
  32: '*block.BanffStandardBlock',
  33: '*txs.TransferSubnetOwnershipTx',
  34: '*txs.BaseTx',
  35: '*txs.ConvertSubnetToL1Tx',
  36: '*txs.RegisterL1ValidatorTx',
  37: '*txs.SetL1ValidatorWeightTx',
  38: '*txs.IncreaseL1ValidatorBalanceTx',
  39: '*txs.DisableL1ValidatorTx',
};

const BLOCK_TYPES = new Set([0, 1, 2, 3, 4, 29, 30, 31, 32]);

export const SLOTS = {
  unsignedTx: { name: 'txs.UnsignedTx', accepts: new Set([12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24, 25, 26, 33, 34, 35, 36, 37, 38, 39]) },
  transferableOut: { name: 'avax.TransferableOut', accepts: new Set([7, 22]) },
  transferableIn: { name: 'avax.TransferableIn', accepts: new Set([5, 21]) },
  owner: { name: 'fx.Owner', accepts: new Set([11]) },
  signer: { name: 'signer.Signer', accepts: new Set([27, 28]) },
  // Every registered type with a Verify() error method.
  verifiable: { name: 'verify.Verifiable', accepts: new Set([5, 7, 9, 10, 11, 21, 22, 27, 28]) },
  block: { name: 'block.Block', accepts: new Set([0, 1, 2, 3, 4, 29, 30, 31, 32]) },
} as const satisfies Record<string, Slot>;

/** linearcodec's interface prefix: a type ID registered in this codec and implementing the slot. */
export const readTypeID = (r: Reader, slot: Slot, blocks = false): number =>
  readSlotTypeID(r, slot, (id) => (!blocks && BLOCK_TYPES.has(id) ? undefined : NAMES[id]));

/** The Go name of a type ID, for texts that name a tx's type. */
export const typeName = (id: number): string => NAMES[id] ?? `type ${id}`;
