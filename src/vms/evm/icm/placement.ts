// ICM's contracts on a chain, as avalanche-cli gives a local network (docs/research/icm.md §1.3):
// the messenger's runtime at its canonical address with nonce 1 and its two reentrancy-guard
// slots set to 1 (what its constructor sets), the keyless deployer's nonce at 1 so the v1.0.0
// deployment tx can never run there, and the registry at the tooling SDK's genesis address
// listing the messenger as version 1 (avalanche-cli's --icm-registry-at-genesis). Placed by a state edit, not in the genesis, so that every
// genesis hash and blockchain ID stays the real network's; skipped where code is already at the
// address (a genesis that allocates the real messenger, a fork of a chain that has it). The relayer's
// account gets its funds the same way where it has none.
import { Account, Address, unpadBytes } from '@ethereumjs/util';
import type { EvmChain } from '../chain.js';
import { MESSENGER_RUNTIME } from './messenger.js';
import { REGISTRY_ADDRESS, REGISTRY_RUNTIME, registryStorage } from './registry.js';
import { MESSENGER_ADDRESS, MESSENGER_DEPLOYER } from './teleporter.js';
import { fromHex0x, toHex0x } from '../../../encoding/bytes.js';

/**
 * What the relayer starts with on each chain where its account is empty: 1,000 of the native token,
 * or on a chain whose base fee makes that little, what a billion gas costs at three times it (a
 * delivery takes some 400,000 gas plus the message's own).
 */
export const RELAYER_FUNDS = 1_000n * 10n ** 18n;
const fundsFor = (chain: EvmChain) => {
  const byFee = (chain.head.header.baseFee ?? 0n) * 3n * 10n ** 9n;
  return byFee > RELAYER_FUNDS ? byFee : RELAYER_FUNDS;
};

export interface IcmPlacement {
  /** The messenger's runtime: the project's own unless the user supplied the real one. */
  messenger?: Uint8Array;
  /** The relayer's address, funded where its account is empty. */
  relayer?: Uint8Array;
}

const slot = (n: number) => {
  const s = new Uint8Array(32);
  s[31] = n;
  return s;
};
const ONE = Uint8Array.of(1);

/**
 * Places ICM on `chain` where the warp precompile is on: 'placed', 'present' (code was already
 * there; only the relayer may have been funded) or 'no-warp' (nothing done: the messenger cannot
 * work without warp). Durable once it resolves.
 */
export async function placeIcm(chain: EvmChain, p: IcmPlacement = {}): Promise<'placed' | 'present' | 'no-warp'> {
  if (!chain.warpActive) return 'no-warp';
  const messenger = await chain.account(MESSENGER_ADDRESS);
  const present = messenger?.isContract() === true;
  const relayer = p.relayer && (await chain.account(p.relayer));
  const fund = p.relayer !== undefined && (!relayer || (relayer.balance === 0n && relayer.nonce === 0n));
  if (present && !fund) return 'present';
  await chain.editState(async (sm) => {
    const put = async (address: Uint8Array, code: Uint8Array, storage: Array<[Uint8Array, Uint8Array]>) => {
      const a = new Address(address);
      const acc = (await sm.getAccount(a)) ?? new Account();
      acc.nonce = acc.nonce > 0n ? acc.nonce : 1n;
      await sm.putAccount(a, acc);
      await sm.putCode(a, code);
      for (const [k, v] of storage) await sm.putStorage(a, k, v);
    };
    if (!present) {
      await put(MESSENGER_ADDRESS, p.messenger ?? fromHex0x(MESSENGER_RUNTIME), [
        [slot(0), ONE],
        [slot(1), ONE],
      ]);
      const deployer = new Address(MESSENGER_DEPLOYER);
      const acc = (await sm.getAccount(deployer)) ?? new Account();
      if (acc.nonce === 0n) {
        acc.nonce = 1n;
        await sm.putAccount(deployer, acc);
      }
      const registry = registryStorage(toHex0x(MESSENGER_ADDRESS)).map(([k, v]) => [fromHex0x(k), unpadBytes(fromHex0x(v))] as [Uint8Array, Uint8Array]);
      await put(fromHex0x(REGISTRY_ADDRESS), fromHex0x(REGISTRY_RUNTIME), registry);
    }
    if (fund && p.relayer) {
      const a = new Address(p.relayer);
      const acc = (await sm.getAccount(a)) ?? new Account();
      acc.balance += fundsFor(chain);
      await sm.putAccount(a, acc);
    }
  });
  return present ? 'present' : 'placed';
}
