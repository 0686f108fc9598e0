// Network IDs and names as avalanchego's utils/constants defines them.
import { goQuote } from '../encoding/goquote.js';
export const MAINNET_ID = 1;
export const FUJI_ID = 5;

const NAMES: Record<number, string> = { 1: 'mainnet', 2: 'cascade', 3: 'denali', 4: 'everest', 5: 'fuji', 10: 'testing', 12345: 'local' };
const HRPS: Record<number, string> = { 1: 'avax', 2: 'cascade', 3: 'denali', 4: 'everest', 5: 'fuji', 10: 'testing', 12345: 'local' };
const BY_NAME: Record<string, number> = { mainnet: 1, cascade: 2, denali: 3, everest: 4, fuji: 5, testnet: 5, testing: 10, local: 12345 };

export class NetworkError extends Error {}

/** constants.NetworkID: a known name, a decimal ID, or `network-<id>`. */
export function parseNetworkId(text: string): number {
  const lower = text.toLowerCase();
  const named = BY_NAME[lower];
  if (named !== undefined) return named;
  const digits = lower.startsWith('network-') ? lower.slice('network-'.length) : lower;
  if (/^\d+$/.test(digits) && Number(digits) <= 0xffffffff) return Number(digits);
  throw new NetworkError(`failed to parse network name: ${goQuote(lower)}`);
}

export function networkName(id: number): string {
  return NAMES[id] ?? `network-${id}`;
}

export function networkHrp(id: number): string {
  return HRPS[id] ?? 'custom';
}

/** The emulator reproduces the local genesis (and custom networks derived from it), not the public ones. */
export function refuseReason(id: number): string | undefined {
  if (id === MAINNET_ID || id === FUJI_ID) {
    return `network ${networkName(id)} (${id}) is not supported: the emulator reproduces the local network's genesis; use --network-id=local or a custom numeric ID`;
  }
  if (id === 0) return 'network ID 0 is not a valid network';
  return undefined;
}
