// eth_getChainConfig as coreth answers it: libevm's ChainConfig with the Ethereum forks coreth sets
// (Berlin and London at 0, Shanghai at Durango, Cancun at Etna) and the Avalanche upgrade times merged
// at the root, keys in Go's alphabetical map order, numbers as JSON numbers. On the local network
// every upgrade is active at the initial time (avalanchego upgrade.InitiallyActiveTime).
const INITIALLY_ACTIVE = 1607144400;

const UPGRADES = [
  'apricotPhase1BlockTimestamp',
  'apricotPhase2BlockTimestamp',
  'apricotPhase3BlockTimestamp',
  'apricotPhase4BlockTimestamp',
  'apricotPhase5BlockTimestamp',
  'apricotPhasePre6BlockTimestamp',
  'apricotPhase6BlockTimestamp',
  'apricotPhasePost6BlockTimestamp',
  'banffBlockTimestamp',
  'cortinaBlockTimestamp',
  'durangoBlockTimestamp',
  'etnaTimestamp',
  'fortunaTimestamp',
  'graniteTimestamp',
];

export function chainConfigJson(genesis: string): Record<string, unknown> {
  const config = { ...(JSON.parse(genesis) as { config: Record<string, unknown> }).config };
  delete config.eip150Hash;
  const out: Record<string, unknown> = { ...config, berlinBlock: 0, londonBlock: 0, shanghaiTime: INITIALLY_ACTIVE, cancunTime: INITIALLY_ACTIVE };
  for (const key of UPGRADES) out[key] = INITIALLY_ACTIVE;
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  );
}
