// The AVM genesis format (avalanchego vms/avm Genesis): codec version ‖ u32 asset count ‖ for each
// asset its alias (u16-prefixed) and its CreateAssetTx fields without the type ID. A chain's genesis
// txs are those CreateAssetTxs, unsigned; their IDs are the assets' IDs.
import type { UnsignedTx } from '../types.js';
import { unmarshal } from '../../../encoding/packer.js';
import { readCreateAssetTx } from './tx.js';

export interface GenesisAsset {
  alias: string;
  tx: Extract<UnsignedTx, { type: 1 }>;
}

export function parseGenesis(bytes: Uint8Array): GenesisAsset[] {
  return unmarshal(bytes, (r) => {
    const n = r.u32();
    const assets: GenesisAsset[] = [];
    for (let i = 0; i < n; i++) assets.push({ alias: Buffer.from(r.string()).toString('utf8'), tx: readCreateAssetTx(r) });
    return assets;
  });
}
