// P-Chain dynamic fees (ACP-103; vms/platformvm/txs/fee, vms/components/gas) with the local
// network's config: a tx's complexity in four dimensions, weighted into gas, priced by the fee
// state as it stands once advanced to the block's time. Complexities follow complexity.go.
import { calculatePrice } from '../components/gas.js';
import type { BaseTxFields, FxValue, OwnersValue, Signer, TransferableInput, TransferableOutput, UnsignedTx } from './types.js';
import { parseSignedMessage } from '../components/warp/message.js';
import { numSigners } from '../components/warp/signature.js';

/** genesis.LocalParams' dynamic fee config (gas.Config). */
export const FEE_CONFIG = {
  weights: [1n, 1000n, 1000n, 4n] as const,
  maxCapacity: 1_000_000n,
  maxPerSecond: 100_000n,
  targetPerSecond: 50_000n,
  minPrice: 1n,
  excessConversionConstant: 2_164_043n,
};

/** The L1 validator fee config (validators/fee.Config) of the local network. */
export const VALIDATOR_FEE_CONFIG = { capacity: 20_000n, target: 10_000n, minPrice: 1n, excessConversionConstant: 865_617n };

export class FeeError extends Error {}

type Dims = [bigint, bigint, bigint, bigint];
const add = (...ds: Dims[]): Dims => ds.reduce((a, d) => [a[0] + d[0], a[1] + d[1], a[2] + d[2], a[3] + d[3]], [0n, 0n, 0n, 0n]);
const n = (x: number) => BigInt(x);

const BASE_BANDWIDTH = 2n + 4n + 4n + 32n + 4n + 4n + 4n + 4n;
const VALIDATOR_BANDWIDTH = 20n + 8n + 8n + 8n;
const SIGNATURE_BANDWIDTH = 4n + 65n;
const SIGNATURE_COMPUTE = 200n;
const POP_COMPUTE = 50n + 1000n;

const INTRINSIC: Record<number, Dims> = {
  34: [BASE_BANDWIDTH, 0n, 0n, 0n],
  13: [BASE_BANDWIDTH + VALIDATOR_BANDWIDTH + 32n + 4n + 4n, 3n, 3n, 0n],
  15: [BASE_BANDWIDTH + 32n + 2n + 32n + 4n + 4n + 4n + 4n, 3n, 1n, 0n],
  16: [BASE_BANDWIDTH + 4n, 0n, 1n, 0n],
  17: [BASE_BANDWIDTH + 32n + 4n, 0n, 0n, 0n],
  18: [BASE_BANDWIDTH + 32n + 4n, 0n, 0n, 0n],
  23: [BASE_BANDWIDTH + 20n + 32n + 4n + 4n, 1n, 3n, 0n],
  25: [BASE_BANDWIDTH + VALIDATOR_BANDWIDTH + 32n + 4n * 5n, 1n, 3n, 0n],
  26: [BASE_BANDWIDTH + VALIDATOR_BANDWIDTH + 32n + 4n + 4n, 1n, 2n, 0n],
  33: [BASE_BANDWIDTH + 32n + 4n * 3n, 1n, 1n, 0n],
  35: [BASE_BANDWIDTH + 32n + 32n + 4n * 4n, 3n, 2n, 0n],
  36: [BASE_BANDWIDTH + 8n + 96n + 4n, 5n, 6n, POP_COMPUTE],
  37: [BASE_BANDWIDTH + 4n, 3n, 5n, 0n],
  38: [BASE_BANDWIDTH + 32n + 8n, 1n, 5n, 0n],
  39: [BASE_BANDWIDTH + 32n + 4n + 4n, 1n, 6n, 0n],
};

function outputs(outs: readonly TransferableOutput[]): Dims {
  return add(
    ...outs.map((o): Dims => {
      const inner = o.out.type === 22 ? o.out.out : o.out;
      return [32n + 4n + 8n + 16n + (o.out.type === 22 ? 12n : 0n) + 20n * n(inner.owners.addresses.length), 0n, 1n, 0n];
    }),
  );
}

function inputs(ins: readonly TransferableInput[]): Dims {
  return add(
    ...ins.map((i): Dims => {
      const inner = i.input.type === 21 ? i.input.in : i.input;
      const sigs = n(inner.sigIndices.length);
      return [32n + 4n + 32n + 4n + 4n + 8n + 8n + (i.input.type === 21 ? 12n : 0n) + sigs * SIGNATURE_BANDWIDTH, 1n, 1n, sigs * SIGNATURE_COMPUTE];
    }),
  );
}

const base = (b: BaseTxFields): Dims => add(outputs(b.outputs), inputs(b.inputs), [n(b.memo.length), 0n, 0n, 0n]);
const owner = (o: OwnersValue): Dims => [16n + 20n * n(o.owners.addresses.length), 0n, 0n, 0n];
const signer = (s: Signer): Dims => (s.type === 28 ? [144n, 0n, 0n, POP_COMPUTE] : [0n, 0n, 0n, 0n]);

function auth(a: FxValue): Dims {
  if (a.type !== 10) throw new FeeError('unsupported auth type');
  const sigs = n(a.sigIndices.length);
  return [8n + sigs * SIGNATURE_BANDWIDTH, 0n, 0n, sigs * SIGNATURE_COMPUTE];
}

function warp(message: Uint8Array): Dims {
  const signers = numSigners(parseSignedMessage(message).signers);
  return [n(message.length), 23n, 0n, 1000n + 5n * n(signers)];
}

/** fee.TxComplexity. */
export function txComplexity(tx: UnsignedTx): Dims {
  const intrinsic = INTRINSIC[tx.type];
  if (!intrinsic || tx.type === 20) throw new FeeError('unsupported transaction type');
  const b = base(tx.base);
  switch (tx.type) {
    case 34:
    case 38:
      return add(intrinsic, b);
    case 13:
    case 23:
    case 39:
      return add(intrinsic, b, auth(tx.auth));
    case 15:
      return add(intrinsic, b, auth(tx.auth), [32n * n(tx.fxIDs.length) + n(tx.chainName.length) + n(tx.genesis.length), 0n, 0n, 0n]);
    case 16:
      return add(intrinsic, b, owner(tx.owner));
    case 17:
      return add(intrinsic, b, inputs(tx.importedInputs));
    case 18:
      return add(intrinsic, b, outputs(tx.exportedOutputs));
    case 25:
      return add(intrinsic, b, signer(tx.signer), outputs(tx.stakeOuts), owner(tx.validatorRewardsOwner), owner(tx.delegatorRewardsOwner));
    case 26:
      return add(intrinsic, b, owner(tx.delegationRewardsOwner), outputs(tx.stakeOuts));
    case 33:
      return add(intrinsic, b, auth(tx.auth), owner(tx.owner));
    case 35:
      return add(
        intrinsic,
        b,
        ...tx.validators.map(
          (v): Dims => [
            36n + n(v.nodeID.length) + 144n + 20n * n(v.remainingBalanceOwner.addresses.length + v.deactivationOwner.addresses.length),
            0n,
            4n,
            POP_COMPUTE,
          ],
        ),
        auth(tx.auth),
        [n(tx.address.length), 0n, 0n, 0n],
      );
    case 36:
    case 37:
      return add(intrinsic, b, warp(tx.message));
  }
}

/** Dimensions.ToGas with the local weights. */
export const toGas = (d: Dims): bigint => d.reduce((sum, v, i) => sum + v * FEE_CONFIG.weights[i]!, 0n);

export interface FeeState {
  capacity: bigint;
  excess: bigint;
}

/** gas.State.AdvanceTime: capacity refills, excess drains, over `seconds`. */
export function advanceFeeState(s: FeeState, seconds: bigint): FeeState {
  const capacity = s.capacity + FEE_CONFIG.maxPerSecond * seconds;
  const drained = FEE_CONFIG.targetPerSecond * seconds;
  return {
    capacity: capacity > FEE_CONFIG.maxCapacity ? FEE_CONFIG.maxCapacity : capacity,
    excess: s.excess > drained ? s.excess - drained : 0n,
  };
}

export const gasPrice = (s: FeeState): bigint => calculatePrice(FEE_CONFIG.minPrice, s.excess, FEE_CONFIG.excessConversionConstant);

/** The L1 validator fee per second at `excess` (validators/fee). */
export const validatorFeePrice = (excess: bigint): bigint =>
  calculatePrice(VALIDATOR_FEE_CONFIG.minPrice, excess, VALIDATOR_FEE_CONFIG.excessConversionConstant);
