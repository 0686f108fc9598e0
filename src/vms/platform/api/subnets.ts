// Subnets and blockchains: getSubnet(s), getBlockchains, getBlockchainStatus, validatedBy,
// validates, and the primary network's staking facts (asset, minimum stake, supply, total stake).
import { encodeCB58, idFromString } from '../../../encoding/cb58.js';
import { method } from '../../../rpc/method.js';
import { arrayOf, none, string, struct } from '../../../rpc/schema.js';
import { STAKING } from '../execute/staking.js';
import { validatorSets } from '../validators.js';
import { cb58, errors, id, isZero, type PlatformDeps, pAddress } from './common.js';
import { fromHex, toHex } from '../../../encoding/bytes.js';

const PRIMARY = '0'.repeat(64);

export function subnetMethods(d: PlatformDeps) {
  const ledger = () => d.vm.state.ledger;
  const subnetJson = (subnetID: string) => {
    const s = ledger().subnets.get(subnetID)!;
    return { controlKeys: s.owner.addresses.map((a) => pAddress(d, fromHex(a))), threshold: String(s.owner.threshold) };
  };
  /** A subnet's chains in ID order. */
  const chainsOf = (subnetID: string) => [...ledger().chains.entries()].filter(([, c]) => c.subnetID === subnetID).sort(([a], [b]) => (a < b ? -1 : 1));

  return {
    getSubnet: method(struct({ subnetID: id }), async ({ subnetID }) => {
      if (isZero(subnetID)) throw errors.primaryIsNotSubnet();
      const s = ledger().subnets.get(toHex(subnetID));
      // Any other accepted tx's ID is "not a subnet"; an ID of nothing is not found.
      if (!s) throw (await d.vm.state.getTx(subnetID)) ? errors.notASubnet(encodeCB58(subnetID)) : errors.notFound();
      const empty = encodeCB58(new Uint8Array(32));
      return {
        isPermissioned: !s.conversion,
        controlKeys: s.owner.addresses.map((a) => pAddress(d, fromHex(a))),
        threshold: String(s.owner.threshold),
        locktime: String(s.owner.locktime),
        subnetTransformationTxID: empty,
        conversionID: s.conversion ? cb58(s.conversion.conversionID) : empty,
        managerChainID: s.conversion ? cb58(s.conversion.chainID) : empty,
        managerAddress: s.conversion ? `0x${s.conversion.address}` : null,
      };
    }),

    getSubnets: method(struct({ ids: arrayOf(id) }), ({ ids }) => {
      if (ids.length === 0) {
        const subnets = [...ledger().subnets.keys()].sort().map((k) => ({ id: cb58(k), ...subnetJson(k) }));
        return { subnets: [...subnets, { id: encodeCB58(new Uint8Array(32)), controlKeys: [], threshold: '0' }] };
      }
      const found = [];
      const seen = new Set<string>();
      for (const s of ids) {
        if (seen.has(toHex(s))) continue;
        seen.add(toHex(s));
        const k = toHex(s);
        if (k === PRIMARY) found.push({ id: encodeCB58(s), controlKeys: [], threshold: '0' });
        else if (ledger().subnets.has(k)) found.push({ id: encodeCB58(s), ...subnetJson(k) });
      }
      return { subnets: found.length === 0 ? null : found };
    }),

    getBlockchains: method(none, () => {
      const entry = ([chainID, c]: [string, { name: string; subnetID: string; vmID: string }]) => ({
        id: cb58(chainID),
        name: c.name,
        subnetID: cb58(c.subnetID),
        vmID: cb58(c.vmID),
      });
      const subnets = [...ledger().subnets.keys()].sort();
      return { blockchains: [...subnets.flatMap((s) => chainsOf(s).map(entry)), ...chainsOf(PRIMARY).map(entry)] };
    }),

    getBlockchainStatus: method(struct({ blockchainID: string }), ({ blockchainID }) => {
      if (blockchainID === '') throw errors.blockchainNotGiven();
      const running = d.runsChain(blockchainID);
      if (running !== undefined) {
        const chain = ledger().chains.get(toHex(idFromString(running)));
        const members = chain ? (validatorSets(ledger())[chain.subnetID] ?? []) : [];
        return { status: members.some((m) => m.nodeID === d.nodeID) ? 'Validating' : 'Syncing' };
      }
      let chainID: Uint8Array;
      try {
        chainID = idFromString(blockchainID);
      } catch (err) {
        throw errors.parsingBlockchain(blockchainID, (err as Error).message);
      }
      return { status: ledger().chains.has(toHex(chainID)) ? 'Created' : 'Unknown' };
    }),

    validatedBy: method(struct({ blockchainID: id }), async ({ blockchainID }) => {
      if (isZero(blockchainID)) return { subnetID: encodeCB58(blockchainID) };
      const c = ledger().chains.get(toHex(blockchainID));
      if (c) return { subnetID: cb58(c.subnetID) };
      if (await d.vm.state.getTx(blockchainID)) throw errors.notABlockchain(encodeCB58(blockchainID));
      throw errors.retrievingBlockchain(encodeCB58(blockchainID));
    }),

    validates: method(struct({ subnetID: id }), async ({ subnetID }) => {
      const k = toHex(subnetID);
      if (k !== PRIMARY && !ledger().subnets.has(k)) {
        if (await d.vm.state.getTx(subnetID)) throw errors.notASubnet(encodeCB58(subnetID));
        throw errors.retrievingSubnet(encodeCB58(subnetID));
      }
      return { blockchainIDs: chainsOf(k).map(([chainID]) => cb58(chainID)) };
    }),

    getStakingAssetID: method(struct({ subnetID: id }), ({ subnetID }) => {
      if (!isZero(subnetID)) throw errors.noTransformation(encodeCB58(subnetID));
      return { assetID: encodeCB58(d.vm.avaxAssetID) };
    }),

    getMinStake: method(struct({ subnetID: id }), ({ subnetID }) => {
      if (!isZero(subnetID)) throw errors.noTransformation(encodeCB58(subnetID));
      return { minValidatorStake: String(STAKING.minValidatorStake), minDelegatorStake: String(STAKING.minDelegatorStake) };
    }),

    getTotalStake: method(struct({ subnetID: id }), ({ subnetID }) => {
      const total = (validatorSets(ledger())[toHex(subnetID)] ?? []).reduce((s, m) => s + m.weight, 0n);
      return { stake: String(total), weight: String(total) };
    }),

    getCurrentSupply: method(struct({ subnetID: id }), ({ subnetID }) => {
      if (!isZero(subnetID)) throw errors.supply();
      return { supply: String(ledger().c.supply), height: String(d.vm.state.lastAccepted().height) };
    }),
  };
}
