// The checks a single local avalanchego node registers, with the messages it reports when it runs
// with sybil protection off and no peers (the emulator's situation: it is local staker 1 alone).
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Database } from '../storage/db.js';
import { ROOT_KEYS } from '../storage/keys.js';
import { APPLICATION_TAG, type CheckFn } from './worker.js';
import type { Health } from './health.js';

const REQUIRED_DISK_PERCENT = 3n;
const WARNING_DISK_PERCENT = 10n;
const INGRESS_GRACE_MS = 10 * 60 * 1000;

export function databaseCheck(db: Database): CheckFn {
  return async () => {
    if (db.status !== 'open') return { error: 'closed' };
    await db.get(ROOT_KEYS.healthProbe); // a real read, so a broken store fails the check
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
      return {
        details,
        error: `remaining available disk space percentage (${percent}%) is below minimum required available space percentage (${REQUIRED_DISK_PERCENT}%)`,
      };
    }
    if (percent < WARNING_DISK_PERCENT) {
      return {
        details,
        error: `remaining available disk space percentage (${percent}%) is below warning threshold available space percentage (${WARNING_DISK_PERCENT}%)`,
      };
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
