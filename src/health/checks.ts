// The checks a single local avalanchego node registers, with the messages it reports when it runs
// with sybil protection off and no peers (the emulator's situation: it is local staker 1 alone).
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIMARY_NETWORK_ID } from '../chains/ids.js';
import type { Database } from '../storage/db.js';
import { formatDuration } from '../encoding/time.js';
import { APPLICATION_TAG, type CheckFn } from './worker.js';
import type { Health } from './health.js';

const REQUIRED_DISK_PERCENT = 3n;
const WARNING_DISK_PERCENT = 10n;
const INGRESS_GRACE_MS = 10 * 60 * 1000;
const PROBE_KEY = new TextEncoder().encode('health-probe');

export function databaseCheck(db: Database): CheckFn {
  return async () => {
    if (db.status !== 'open') return { error: 'closed' };
    await db.get(PROBE_KEY); // a real read, so a broken store fails the check
    return {};
  };
}

/** statfs of the database directory (its nearest existing ancestor for memdb). */
export function diskSpaceCheck(path: string): CheckFn {
  return async () => {
    let target = path;
    while (!existsSync(target) && dirname(target) !== target) target = dirname(target);
    const fs = await statfs(target, { bigint: true });
    const availableDiskBytes = fs.bavail * fs.bsize;
    const percent = fs.blocks === 0n ? 0n : (fs.bavail * 100n) / fs.blocks;
    const details = { availableDiskBytes: Number(availableDiskBytes), availableDiskPercentage: Number(percent) };
    if (percent < REQUIRED_DISK_PERCENT) {
      return { details, error: `remaining available disk space percentage (${percent}%) is below minimum required available space percentage (${REQUIRED_DISK_PERCENT}%)` };
    }
    if (percent < WARNING_DISK_PERCENT) {
      return { details, error: `remaining available disk space percentage (${percent}%) is below warning threshold available space percentage (${WARNING_DISK_PERCENT}%)` };
    }
    return { details };
  };
}

/** No peers; with sybil protection off the network check reports but never fails. */
export function networkCheck(startedAt: number): CheckFn {
  return () => {
    const details: Record<string, unknown> = { connectedPeers: 0 };
    if (Date.now() - startedAt >= INGRESS_GRACE_MS) {
      details['primary network validator health'] = { ingressConnectionCount: 0, primaryNetworkValidator: true };
    }
    details.sendFailRate = 0;
    return { details };
  };
}

/** The consensus router has no outstanding requests: there are no peers to ask. */
export const routerCheck: CheckFn = () => ({ details: { longestRunningRequest: '0s', outstandingRequests: 0 } });

/** The node is the only validator and registered with its own BLS key. */
export const blsCheck: CheckFn = () => ({ details: 'node has the correct BLS key' });

/** With itself as the only validator there is no newer upgrade to see. */
export const futureUpgradeCheck: CheckFn = () => ({
  details: { localUpgradeTime: '2020-12-05T05:00:00Z', modeUpgradeTime: '1970-01-01T00:00:00Z', modeUpgradeWeightPercentage: 0, numUpgradeTimes: 0 },
});

/** Bootstrapping is instant: the emulator's chains start from their genesis with no peers. */
export const bootstrappedCheck: CheckFn = () => ({ details: [] });

export interface ChainStatus {
  lastAccepted(): { height: bigint; id: string };
  processing(): { txs: number; longestMs: number; lastError: Error | undefined };
}

/** snowball's default MaxItemProcessingTime (--snow-max-processing-time). */
const MAX_PROCESSING_MS = 30_000;

/**
 * A chain's handler health: consensus state, and networking as a lone validator (100 % connected).
 * Txs waiting for a block count as the block being processed, so a chain that stops building fails
 * as a real node's consensus check does; a block whose commit failed is the VM's error.
 */
export function chainCheck(chain: ChainStatus): CheckFn {
  return () => {
    const last = chain.lastAccepted();
    const { txs, longestMs, lastError } = chain.processing();
    const longest = BigInt(Math.round(longestMs)) * 1_000_000n;
    const consensusError = longestMs > MAX_PROCESSING_MS
      ? `block processing too long: ${formatDuration(longest)} > ${formatDuration(BigInt(MAX_PROCESSING_MS) * 1_000_000n)}`
      : undefined;
    const vmError = lastError && `failed to accept block: ${lastError.message}`;
    const error = consensusError && vmError ? `vm: ${vmError} ; consensus: ${consensusError}` : consensusError ?? vmError;
    const details = {
      engine: {
        consensus: { lastAcceptedHeight: Number(last.height), lastAcceptedID: last.id, longestProcessingBlock: formatDuration(longest), processingBlocks: txs > 0 ? 1 : 0 },
        vm: null,
      },
      networking: { disconnectedValidators: [], percentConnected: 1 },
    };
    return error === undefined ? { details } : { details, error };
  };
}

export interface NodeChecks {
  db: Database;
  dbPath: string;
  startedAt: number;
}

export function registerNodeChecks(health: Health, deps: NodeChecks): void {
  const app = [APPLICATION_TAG];
  health.registerHealthCheck('network', networkCheck(deps.startedAt), app);
  health.registerHealthCheck('router', routerCheck, app);
  health.registerHealthCheck('database', databaseCheck(deps.db), app);
  health.registerHealthCheck('diskspace', diskSpaceCheck(deps.dbPath), app);
  health.registerHealthCheck('bls', blsCheck, app);
  health.registerHealthCheck('futureupgrade', futureUpgradeCheck, app);
  health.registerHealthCheck('bootstrapped', bootstrappedCheck, app);
  health.registerReadinessCheck('bootstrapped', bootstrappedCheck, app);
}

export function registerChainCheck(health: Health, alias: string, chain: ChainStatus): void {
  health.registerHealthCheck(alias, chainCheck(chain), [PRIMARY_NETWORK_ID]);
}
