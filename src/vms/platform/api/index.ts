// The platform API (vms/platformvm/service.go) at /ext/bc/P: one service, its methods grouped by
// what they read.
import type { ServiceDef } from '../../../rpc/method.js';
import { chainMethods } from './chain.js';
import type { PlatformDeps } from './common.js';
import { subnetMethods } from './subnets.js';
import { utxoMethods } from './utxos.js';
import { validatorMethods } from './validators.js';

export type { PlatformDeps } from './common.js';

export function platformService(d: PlatformDeps): ServiceDef {
  return { name: 'platform', methods: { ...chainMethods(d), ...utxoMethods(d), ...subnetMethods(d), ...validatorMethods(d) } };
}
