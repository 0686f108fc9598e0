// Subnet-EVM's stateful precompiles in an EVM: each active one answers at its address once the
// block's time reaches its activation (looked up beside @ethereumjs's own precompiles, so that it is
// not pre-warmed: Subnet-EVM charges the cold access on a first call); the deployer allow list
// checks tx.origin at every contract creation; the tx allow list is checked by the pool and the
// block builder (txAllowed).
import { EVMError, type EVMInterface, type ExecResult, type PrecompileFunc } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, setLengthLeft, toChecksumAddress } from '@ethereumjs/util';
import { allowListFunctions, isEnabled, Role } from './allowlist.js';
import type { PrecompileConfig } from './config.js';
import { type PrecompileFunction, statefulPrecompile } from './contract.js';
import { trackFrames, txOrigin } from './frames.js';
import { feeManagerFunctions } from './feemanager.js';
import { nativeMinterFunctions } from './nativeminter.js';
import { rewardManagerFunctions } from './rewardmanager.js';
import { type WarpContext, warpFunctions } from './warp.js';
import { toHex } from '../../../encoding/bytes.js';

/** Whether `c` is active at `time` (unix seconds): within [timestamp, until). */
export const activeAt = (c: PrecompileConfig, time: bigint): boolean =>
  !c.disable && c.timestamp !== undefined && BigInt(c.timestamp) <= time && (c.until === undefined || time < BigInt(c.until));

async function roleOf(sm: MerkleStateManager | EVMInterface['stateManager'], list: PrecompileConfig, who: Address): Promise<Role> {
  const value = await sm.getStorage(new Address(list.address), setLengthLeft(who.bytes, 32));
  const n = value.length === 0 ? 0n : BigInt(`0x${Buffer.from(value).toString('hex')}`);
  return n <= 3n ? (Number(n) as Role) : Role.None;
}

// @ethereumjs 10.1.3's EVM internals this relies on (the version is pinned exactly): the block of
// the running tx, and _executeCreate, where a creation starts once the nonce has moved.
interface EvmInternals {
  _block?: { header: { timestamp: bigint; number: bigint } };
  _executeCreate(message: { gasLimit: bigint }): Promise<{ execResult: ExecResult }>;
  getPrecompile(address: Address | string): PrecompileFunc | undefined;
}

export function installPrecompiles(evm: EVMInterface, configs: PrecompileConfig[], warp?: WarpContext): void {
  if (configs.length === 0) return;
  trackFrames(evm);
  const internals = evm as unknown as EvmInternals;
  const time = () => internals._block?.header.timestamp ?? 0n;
  const FUNCTIONS: Record<string, PrecompileFunction[]> = {
    contractDeployerAllowListConfig: allowListFunctions,
    txAllowListConfig: allowListFunctions,
    contractNativeMinterConfig: nativeMinterFunctions,
    feeManagerConfig: feeManagerFunctions(() => internals._block?.header.number ?? 0n),
    rewardManagerConfig: rewardManagerFunctions,
    ...(warp ? { warpConfig: warpFunctions(warp) } : {}),
  };
  // An address may have several periods (enabled, disabled, enabled again by upgrades).
  const byAddress = new Map<string, { config: PrecompileConfig; run: PrecompileFunc }[]>();
  for (const c of configs) {
    const functions = FUNCTIONS[c.key];
    if (!functions) continue;
    const list = byAddress.get(toHex(c.address)) ?? [];
    list.push({ config: c, run: statefulPrecompile(new Address(c.address), functions) as unknown as PrecompileFunc });
    byAddress.set(toHex(c.address), list);
  }
  const builtIn = internals.getPrecompile.bind(evm);
  // Every call and transfer asks: compared as bytes (a few addresses, most differing in the first
  // byte) rather than each address turned into hex.
  const stateful = [...byAddress.values()].map((list) => ({ bytes: Buffer.from(list[0]!.config.address), list }));
  internals.getPrecompile = (address) => {
    const found = builtIn(address);
    if (found) return found;
    const bytes = typeof address === 'string' ? Buffer.from(address.replace(/^0x/i, '').padStart(40, '0'), 'hex') : address.bytes;
    const entry = stateful.find((e) => e.bytes[0] === bytes[0] && e.bytes.equals(bytes));
    const now = time();
    return entry?.list.find((e) => activeAt(e.config, now))?.run;
  };
  if (configs.some((c) => c.key === 'contractDeployerAllowListConfig')) {
    const create = internals._executeCreate.bind(evm);
    internals._executeCreate = async (message) => {
      const origin = txOrigin(evm);
      const deployers = configs.find((c) => c.key === 'contractDeployerAllowListConfig' && activeAt(c, time()));
      if (origin && deployers && !isEnabled(await roleOf(evm.stateManager, deployers, origin))) {
        // params/hooks_libevm.go CanCreateContract: the creation fails with all its gas.
        const error = new EVMError(`tx.origin ${toChecksumAddress(origin.toString())} is not authorized to deploy a contract` as never);
        return { execResult: { returnValue: new Uint8Array(), exceptionError: error, executionGasUsed: message.gasLimit } };
      }
      return create(message);
    };
  }
}

/** The tx allow list: may `sender` send a tx at `time`? */
export async function txAllowed(sm: MerkleStateManager, configs: PrecompileConfig[], time: bigint, sender: Address): Promise<boolean> {
  const list = configs.find((c) => c.key === 'txAllowListConfig' && activeAt(c, time));
  if (!list) return true;
  return isEnabled(await roleOf(sm, list, sender));
}
