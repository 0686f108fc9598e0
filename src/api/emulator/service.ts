// Emulator controls (not part of avalanchego): what a test double needs beyond a real node.
// Health faults let a client exercise its failover: a named check fails with the given error,
// its contiguousFailures and timeOfFirstFailure evolve on every run as on a real node, until the
// fault is cleared.
import type { Health } from '../../health/health.js';
import { method, serviceErrors, type ServiceDef } from '../../rpc/method.js';
import { none, string, struct } from '../../rpc/schema.js';

const errors = serviceErrors({
  unknownCheck: (name: string, checks: string[]) => `no health check named "${name}"; checks: ${checks.join(', ')}`,
});

/** `extra`: methods the node adds from its VMs (the P-Chain's signature aggregation). */
export function emulatorService(health: Health, extra: ServiceDef['methods'] = {}): ServiceDef {
  const known = (name: string) => {
    if (!health.knows(name)) throw errors.unknownCheck(name, health.checkNames());
  };
  return {
    name: 'emulator',
    methods: {
      failHealthCheck: method(struct({ name: string, error: string }), async ({ name, error }) => {
        known(name);
        await health.injectFault(name, error === '' ? 'fault injected by emulator.failHealthCheck' : error);
        return { faults: health.activeFaults() };
      }),
      recoverHealthCheck: method(struct({ name: string }), async ({ name }) => {
        known(name);
        await health.clearFault(name);
        return { faults: health.activeFaults() };
      }),
      healthFaults: method(none, () => ({ faults: health.activeFaults() })),
      ...extra,
    },
  };
}
