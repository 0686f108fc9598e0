// P-Chain API at /ext/bc/P: the fee methods clients read before building transactions
// (avalanchejs's Context.getContextFromURI calls platform.getFeeConfig). The P-Chain itself is
// not emulated yet; its other methods answer as unknown methods do.
import { formatRFC3339Nano } from '../../encoding/time.js';
import { method, type ServiceDef } from '../../rpc/method.js';
import { none } from '../../rpc/schema.js';

/** genesis.LocalParams dynamic fee config (gas.Config: plain JSON numbers). */
const LOCAL_FEE_CONFIG = {
  weights: [1, 1000, 1000, 4],
  maxCapacity: 1000000,
  maxPerSecond: 100000,
  targetPerSecond: 50000,
  minPrice: 1,
  excessConversionConstant: 2164043,
};

export function platformService(genesisStartTime: number): ServiceDef {
  return {
    name: 'platform',
    methods: {
      getFeeConfig: method(none, () => LOCAL_FEE_CONFIG),
      // No P-Chain block has been built: the stored fee state is zero and the chain time is the genesis start.
      getFeeState: method(none, () => ({ capacity: 0, excess: 0, price: 1, timestamp: formatRFC3339Nano(BigInt(genesisStartTime) * 1_000_000_000n) })),
    },
  };
}
