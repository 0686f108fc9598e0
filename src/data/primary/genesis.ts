// An EVM chain's genesis as the Data API's EvmGenesisDto gives it: the genesis JSON, with the
// numbers the DTO types as numbers (baseFeePerGas, airdropAmount) turned into numbers.
export interface EvmGenesis {
  config?: { chainId?: number } & Record<string, unknown>;
  [key: string]: unknown;
}

export function genesisData(bytes: Uint8Array): EvmGenesis | undefined {
  let g: unknown;
  try {
    g = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
  if (g === null || typeof g !== 'object' || Array.isArray(g) || !('alloc' in g)) return undefined;
  const out = { ...(g as Record<string, unknown>) };
  for (const k of ['baseFeePerGas', 'airdropAmount']) {
    const v = out[k];
    if (typeof v === 'string') out[k] = Number(BigInt(v));
  }
  for (const k of ['blobGasUsed', 'excessBlobGas']) {
    const v = out[k];
    if (typeof v === 'number') out[k] = `0x${v.toString(16)}`;
  }
  return out as EvmGenesis;
}
