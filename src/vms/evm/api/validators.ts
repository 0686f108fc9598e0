// Subnet-EVM's validators API (plugin/evm/service.go, gorilla at /ext/bc/<id>/validators):
// validators.getCurrentValidators, the chain's validators with their uptime as this node sees them.
// The node is its only peer and counts itself connected from the start, so its uptime is all the
// time since it began validating.
import type { Clock } from '../../../chains/clock.js';
import { decodeCB58, encodeCB58 } from '../../../encoding/cb58.js';
import { method, type ServiceDef } from '../../../rpc/method.js';
import { arrayOf, struct, textual } from '../../../rpc/schema.js';

export interface ChainValidator {
  validationID: Uint8Array;
  nodeID: string;
  weight: bigint;
  /** Unix seconds. */
  startTimestamp: bigint;
  isL1Validator: boolean;
  /** An L1 validator is active while its balance lasts. */
  active: boolean;
  /** Offline validators (emulator-validators) are disconnected, with no uptime. */
  connected: boolean;
}

/** ids.NodeIDFromString: "NodeID-" and the CB58 of 20 bytes. */
const nodeID = textual(
  (text) => {
    if (!text.startsWith('NodeID-')) throw new Error(`ids.NodeID: missing "NodeID-" prefix`);
    if (decodeCB58(text.slice(7)).length !== 20) throw new Error('ids.NodeID: expected 20 bytes');
    return text;
  },
  () => '',
);

export function validatorsService(d: { clock: Clock; validators: () => ChainValidator[] }): ServiceDef {
  return {
    name: 'validators',
    methods: {
      getCurrentValidators: method(struct({ nodeIDs: arrayOf(nodeID) }), ({ nodeIDs }) => {
        const now = d.clock.nowNs() / 1_000_000_000n;
        const wanted = new Set(nodeIDs as string[]);
        return {
          validators: d
            .validators()
            .filter((v) => wanted.size === 0 || wanted.has(v.nodeID))
            .map((v) => {
              const up = v.connected && now > v.startTimestamp ? now - v.startTimestamp : 0n;
              return {
                validationID: encodeCB58(v.validationID),
                nodeID: v.nodeID,
                weight: Number(v.weight),
                startTimestamp: Number(v.startTimestamp),
                isActive: v.active,
                isL1Validator: v.isL1Validator,
                isConnected: v.connected,
                uptimePercentage: v.connected ? 100 : 0,
                uptimeSeconds: Number(up),
              };
            }),
        };
      }),
    },
  };
}
