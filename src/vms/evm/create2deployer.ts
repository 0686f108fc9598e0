// Arachnid's deterministic deployment proxy (CREATE2 at 0x4e59b448…, the same address on every
// chain that ran its keyless deployment tx): Anvil has it at genesis, and forge sends a script's
// salted deploys (`new X{salt: s}(...)`) through it, failing with `missing CREATE2 deployer` where
// it is not. With --dev it is placed on every EVM chain the node starts, as Anvil has it (code only,
// nonce and balance 0). A real local network has it only once someone sends that tx; a fork takes
// its upstream's.
import { Account, Address } from '@ethereumjs/util';
import { fromHex0x } from '../../encoding/bytes.js';
import type { EvmChain } from './chain.js';

export const CREATE2_DEPLOYER = fromHex0x('0x4e59b44847b379578588920ca78fbf26c0b4956c');
const CREATE2_DEPLOYER_CODE = fromHex0x(
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3',
);

/** Places the proxy's code on `chain` where it has none (a dev state edit); whether it placed it. */
export async function placeCreate2Deployer(chain: EvmChain): Promise<boolean> {
  if (chain.forkedAt !== undefined) return false;
  const present = await chain.account(CREATE2_DEPLOYER);
  if (present?.isContract()) return false;
  await chain.editState(async (sm) => {
    const a = new Address(CREATE2_DEPLOYER);
    await sm.putAccount(a, (await sm.getAccount(a)) ?? new Account());
    await sm.putCode(a, CREATE2_DEPLOYER_CODE);
  });
  return true;
}
