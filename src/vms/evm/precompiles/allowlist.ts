// Subnet-EVM's allow list (precompile/allowlist): a role per address in the precompile's storage, at
// the address left-padded to 32 bytes, and the functions every allow-list precompile has:
// readAllowList and the four setters, with their gas, checks in their order, and RoleSet events.
import type { Address } from '@ethereumjs/util';
import { knownKeccak } from '../../../crypto/keccak.js';
import {
  addressArg,
  addressWord,
  type Call,
  checksum,
  logGas,
  PrecompileError,
  type PrecompileFunction,
  READ_GAS_PER_SLOT,
  WRITE_GAS_PER_SLOT,
  wordOf,
} from './contract.js';

export enum Role {
  None = 0,
  Enabled = 1,
  Admin = 2,
  Manager = 3,
}

const ROLE_NAMES: Record<Role, string> = { [Role.None]: 'NoRole', [Role.Enabled]: 'EnabledRole', [Role.Admin]: 'AdminRole', [Role.Manager]: 'ManagerRole' };

const ROLE_SET = knownKeccak('RoleSet(uint256,address,address,uint256)', 'cdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e');
/** AllowListEventGasCost: a RoleSet log (4 topics, 32 bytes of data). */
const ROLE_SET_GAS = logGas(4, 32);

/** IsEnabled: Enabled, Manager and Admin may use the precompile. */
export const isEnabled = (role: Role): boolean => role !== Role.None;

export async function readRole(call: Pick<Call, 'read'>, address: Address): Promise<Role> {
  const value = await call.read(addressWord(address));
  const role = BigInt(`0x${Buffer.from(value).toString('hex')}`);
  return role <= 3n ? (Number(role) as Role) : Role.None;
}

/** Role.CanModify: an Admin changes anything; a Manager moves addresses between None and Enabled only. */
function canModify(caller: Role, from: Role, to: Role): boolean {
  if (caller === Role.Admin) return true;
  if (caller === Role.Manager) return (from === Role.None || from === Role.Enabled) && (to === Role.None || to === Role.Enabled);
  return false;
}

function setter(signature: string, role: Role): PrecompileFunction {
  return {
    signature,
    gas: WRITE_GAS_PER_SLOT,
    async run(call) {
      const target = addressArg(call.input, 0);
      call.writable();
      const callerRole = await readRole(call, call.caller);
      const from = await readRole(call, target);
      if (!canModify(callerRole, from, role)) {
        // The code names the caller as the "modify address" (sic).
        throw new PrecompileError(
          `cannot modify allow list: modify address: ${checksum(call.caller)}, from role: ${ROLE_NAMES[from]}, to role: ${ROLE_NAMES[role]}`,
        );
      }
      call.deduct(ROLE_SET_GAS);
      call.log([ROLE_SET, wordOf(BigInt(role)), addressWord(target), addressWord(call.caller)], wordOf(BigInt(from)));
      await call.write(addressWord(target), wordOf(BigInt(role)));
      return new Uint8Array();
    },
  };
}

export const allowListFunctions: PrecompileFunction[] = [
  {
    signature: 'readAllowList(address)',
    gas: READ_GAS_PER_SLOT,
    run: async (call) => wordOf(BigInt(await readRole(call, addressArg(call.input, 0)))),
  },
  setter('setAdmin(address)', Role.Admin),
  setter('setEnabled(address)', Role.Enabled),
  setter('setManager(address)', Role.Manager),
  setter('setNone(address)', Role.None),
];
