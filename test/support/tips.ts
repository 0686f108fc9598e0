// Blocks whose txs pay a known tip, for checks of the tip oracle (eth_maxPriorityFeePerGas): ewoq,
// impersonated (--dev), sends `count` transfers with maxPriorityFeePerGas `tip`, each mined on its own.
import { call } from '../helpers.js';

const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';

export async function sendTipped(url: string, tip: bigint, count = 3): Promise<void> {
  await call(url, 'anvil_impersonateAccount', [EWOQ]);
  for (let i = 0; i < count; i++) {
    const tx = {
      from: EWOQ,
      to: `0x${'42'.repeat(20)}`,
      value: '0x1',
      maxPriorityFeePerGas: `0x${tip.toString(16)}`,
      maxFeePerGas: `0x${(10n * tip).toString(16)}`,
    };
    await call(url, 'eth_sendTransaction', [tx]);
  }
}
