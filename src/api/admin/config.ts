// admin.getConfig: node.Config as avalanchego marshals it (key order, nanosecond durations, the
// real node's odd tags such as `writeHeaderTimeout`), filled with this node's values. Peer-network
// tuning (networkConfig, throttlers, benchlists, consensus timeouts) is left out: there is no peer
// network here for those knobs to describe.
import { join } from 'node:path';
import type { NodeConfig } from '../../config/load.js';
import { LOCAL_UPGRADES } from '../../config/upgrades.js';

const ns = (v: unknown) => Number(v as bigint);

export function nodeConfigJson(
  c: NodeConfig,
  avaxAssetID: string,
  txFee: bigint,
  createAssetTxFee: bigint,
  vmAliases: Record<string, string[]> | null,
): Record<string, unknown> {
  const f = c.flags;
  return {
    httpConfig: {
      readTimeout: ns(f['http-read-timeout']),
      readHeaderTimeout: ns(f['http-read-header-timeout']),
      writeHeaderTimeout: ns(f['http-write-timeout']),
      idleTimeout: ns(f['http-idle-timeout']),
      apiConfig: {
        indexerConfig: { indexAPIEnabled: c.indexEnabled, indexAllowIncomplete: c.indexAllowIncomplete },
        adminAPIEnabled: c.apiAdminEnabled,
        infoAPIEnabled: c.apiInfoEnabled,
        metricsAPIEnabled: c.apiMetricsEnabled,
        healthAPIEnabled: c.apiHealthEnabled,
      },
      httpHost: c.httpHost,
      httpPort: c.httpPort,
      httpsEnabled: false,
      httpAllowedOrigins: c.httpAllowedOrigins,
      httpAllowedHosts: c.httpAllowedHosts,
      shutdownTimeout: ns(f['http-shutdown-timeout']),
      shutdownWait: ns(f['http-shutdown-wait']),
    },
    ipConfig: {
      publicIP: f['public-ip'],
      publicIPResolutionService: '',
      publicIPResolutionFreq: 300000000000,
      listenHost: f['staking-host'],
      listenPort: c.stakingPort,
    },
    // genesis.StakingConfig of the local network, then the node's own staking settings.
    stakingConfig: {
      uptimeRequirement: 0.8,
      minValidatorStake: 2000000000000,
      maxValidatorStake: 3000000000000000,
      minDelegatorStake: 25000000000,
      minDelegationFee: 20000,
      minStakeDuration: 86400000000000,
      maxStakeDuration: 31536000000000000,
      heliconMinStakeDuration: 3600000000000,
      rewardConfig: { maxConsumptionRate: 120000, minConsumptionRate: 100000, mintingPeriod: 31536000000000000, supplyCap: 720000000000000000 },
      sybilProtectionEnabled: false,
      partialSyncPrimaryNetwork: false,
      sybilProtectionDisabledWeight: Number(f['sybil-protection-disabled-weight']),
      stakingTLSKeyPath: join(c.dataDir, 'staking', 'staker.key'),
      stakingTLSCertPath: join(c.dataDir, 'staking', 'staker.crt'),
      stakingSingerConfig: {
        ephemeralSignerEnabled: false,
        signerKeyContent: '',
        keyPath: join(c.dataDir, 'staking', 'signer.key'),
        RPCEndpoint: '',
        keyPathIsSet: false,
      },
    },
    txFeeConfig: { createAssetTxFee: Number(createAssetTxFee), txFee: Number(txFee) },
    stateSyncConfig: { stateSyncIDs: null, stateSyncIPs: null },
    bootstrapConfig: {
      bootstrapBeaconConnectionTimeout: 60000000000,
      bootstrapAncestorsMaxContainersSent: 2000,
      bootstrapAncestorsMaxContainersReceived: 2000,
      bootstrapMaxTimeGetAncestors: 50000000,
      bootstrappers: [],
    },
    databaseConfig: { readOnly: false, path: c.dbPath, name: c.dbType },
    upgradeConfig: LOCAL_UPGRADES,
    avaxAssetID,
    networkID: c.networkId,
    healthCheckFreq: Number(c.healthCheckFrequencyNs),
    profilerConfig: { dir: c.profileDir, enabled: false, freq: 900000000000, maxNumFiles: 5 },
    loggingConfig: {
      maxSize: 8,
      maxFiles: 7,
      maxAge: 0,
      directory: c.logDir,
      compress: false,
      disableWriterDisplaying: false,
      logLevel: c.logLevel,
      displayLevel: c.logDisplayLevel,
      logFormat: 'plain',
    },
    pluginDir: c.pluginDir,
    trackedSubnets: [],
    chainAliases: null,
    vmAliases,
    requiredAvailableDiskSpacePercentage: 3,
    warningAvailableDiskSpacePercentage: 10,
    chainDataDir: join(c.dataDir, 'chainData'),
    processContextFilePath: c.processContextFile,
  };
}
