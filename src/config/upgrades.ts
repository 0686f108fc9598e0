// upgrade.Default, which every network but mainnet and fuji runs: all upgrades active from the
// local genesis time, Helicon not scheduled. Field order is upgrade.Config's.
const GENESIS = '2020-12-05T05:00:00Z';

export const LOCAL_UPGRADES = {
  apricotPhase1Time: GENESIS,
  apricotPhase2Time: GENESIS,
  apricotPhase3Time: GENESIS,
  apricotPhase4Time: GENESIS,
  apricotPhase4MinPChainHeight: 0,
  apricotPhase5Time: GENESIS,
  apricotPhasePre6Time: GENESIS,
  apricotPhase6Time: GENESIS,
  apricotPhasePost6Time: GENESIS,
  banffTime: GENESIS,
  cortinaTime: GENESIS,
  cortinaXChainStopVertexID: '11111111111111111111111111111111LpoYY',
  durangoTime: GENESIS,
  etnaTime: GENESIS,
  fortunaTime: GENESIS,
  graniteTime: GENESIS,
  graniteEpochDuration: 30000000000,
  heliconTime: '9999-12-01T00:00:00Z',
} as const;
