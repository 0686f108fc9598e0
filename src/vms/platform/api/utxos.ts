// getUTXOs (the P-Chain's own and, with a sourceChain, those other chains exported to it) and
// getBalance with its locked/unlocked split at the node's clock.
import { encodeCB58, idFromString } from '../../../encoding/cb58.js';
import { method, rpcTry } from '../../../rpc/method.js';
import { arrayOf, bool, string, struct } from '../../../rpc/schema.js';
import { encodeTransferableOutput } from '../codec/tx.js';
import { marshalUTXO, parseUTXO } from '../codec/index.js';
import { utxoInputID } from '../utxos.js';
import { paginatedUTXOs } from '../../components/avax/utxostate.js';
import { atomicUTXOs, getUTXOsArgs, readUTXOsArgs, type UTXOsRequest, utxosReply } from '../../components/avax/getutxos.js';
import type { UTXO } from '../types.js';
import { encodeBytes, encoding, errors, id, type PlatformDeps, pAddress, parseAddress } from './common.js';
import { toHex } from '../../../encoding/bytes.js';

export function utxoMethods(d: PlatformDeps) {
  /** avax.GetPaginatedUTXOs over the P-Chain's own set. */
  async function localPage(req: UTXOsRequest) {
    const page = await paginatedUTXOs(d.vm.state.utxos, req.addresses, req.startAddr, req.startUTXO, req.limit);
    return { ...page, utxos: page.utxos.map(marshalUTXO) };
  }

  async function allUTXOs(addrs: Uint8Array[]): Promise<UTXO[]> {
    const out = new Map<string, UTXO>();
    for (const a of addrs) {
      for (const utxoID of await d.vm.state.utxoIDs(a, undefined, Number.MAX_SAFE_INTEGER)) {
        const u = await d.vm.state.getUTXO(utxoID);
        if (u) out.set(toHex(utxoID), u);
      }
    }
    return [...out.values()];
  }

  return {
    getUTXOs: method(getUTXOsArgs, async (args) => {
      const req = readUTXOsArgs(args, {
        parseAddress: (a) => parseAddress(d, a),
        lookupChain: (alias) => d.chainAliases.lookup(alias),
        defaultSource: d.chainId,
      });
      const page = req.source === d.chainId ? await localPage(req) : await atomicUTXOs(d.shared, idFromString(d.chainId), req);
      // formatting.Encode has no json form for bytes: one UTXO is enough to fail the call, as on the node.
      if (args.encoding === 'json' && page.utxos.length > 0) {
        throw errors.encodeUTXO(encodeCB58(utxoInputID(parseUTXO(page.utxos[0]!).utxoID)), 'json', 'unsupported encoding in method');
      }
      const enc = args.encoding === 'json' ? 'hex' : args.encoding;
      const utxos = page.utxos.map((u) => encodeBytes(u, enc));
      return utxosReply(utxos, pAddress(d, page.endAddr), page.endUTXO, args.encoding);
    }),

    getStake: method(struct({ addresses: arrayOf(string), validatorsOnly: bool, encoding }), async ({ addresses, validatorsOnly, encoding: enc }) => {
      if (addresses.length > 256) throw errors.tooManyStakeAddresses(addresses.length);
      const wanted = new Set(addresses.map((a) => toHex(rpcTry(() => parseAddress(d, a)))));
      const totals = new Map<string, bigint>();
      const outputs: Array<{ asset: string; bytes: Uint8Array }> = [];
      const stakers = [...d.vm.state.ledger.stakers.values()]
        .filter((s) => s.kind === 'primaryValidator' || (!validatorsOnly && s.kind === 'primaryDelegator'))
        .sort((a, b) => (a.end !== b.end ? (a.end < b.end ? -1 : 1) : a.txID < b.txID ? -1 : 1));
      for (const s of stakers) {
        const tx = await d.vm.state.getTx(Buffer.from(s.txID, 'hex'));
        const u = tx?.unsigned;
        if (!u || (u.type !== 25 && u.type !== 26)) continue;
        for (const o of u.stakeOuts) {
          const out = o.out.type === 22 ? o.out.out : o.out;
          if (!out.owners.addresses.some((a) => wanted.has(toHex(a)))) continue;
          const asset = encodeCB58(o.assetID);
          totals.set(asset, (totals.get(asset) ?? 0n) + out.amount);
          outputs.push({ asset, bytes: encodeTransferableOutput(o) });
        }
      }
      // Each output is encoded once all are found: the first one fails JSON, named by its asset ID.
      if (enc === 'json' && outputs.length > 0) throw errors.encodeOutput(outputs[0]!.asset, 'json', 'unsupported encoding in method');
      return {
        staked: String(totals.get(encodeCB58(d.vm.avaxAssetID)) ?? 0n),
        stakeds: Object.fromEntries([...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, String(v)])),
        stakedOutputs: outputs.map((o) => encodeBytes(o.bytes, enc)),
        encoding: enc,
      };
    }),

    // The reward UTXOs a staker's RewardValidatorTx created, by the staker's tx ID.
    getRewardUTXOs: method(struct({ txID: id, encoding }), ({ txID, encoding: enc }) => {
      const stored = d.vm.state.ledger.rewardUTXOs.get(toHex(txID)) ?? [];
      if (enc === 'json' && stored.length > 0) throw errors.encodeRewardUTXO('json', 'unsupported encoding in method');
      const utxos = stored.map((h) => encodeBytes(Buffer.from(h, 'hex'), enc === 'json' ? 'hex' : enc));
      return { numFetched: String(utxos.length), utxos, encoding: enc };
    }),

    getBalance: method(struct({ addresses: arrayOf(string) }), async ({ addresses }) => {
      const addrs = addresses.map((a) => rpcTry(() => parseAddress(d, a)));
      const now = d.now();
      const sums = { unlocked: new Map<string, bigint>(), lockedStakeable: new Map<string, bigint>(), lockedNotStakeable: new Map<string, bigint>() };
      const add = (m: Map<string, bigint>, asset: string, v: bigint) => m.set(asset, (m.get(asset) ?? 0n) + v);
      const utxoIDs: Array<{ txID: string; outputIndex: number }> = [];
      for (const u of await allUTXOs(addrs)) {
        const asset = encodeCB58(u.assetID);
        const out = u.output;
        if (out.type === 7) add(out.owners.locktime > now ? sums.lockedNotStakeable : sums.unlocked, asset, out.amount);
        else if (out.out.owners.locktime > now) add(sums.lockedNotStakeable, asset, out.out.amount);
        else if (out.locktime <= now) add(sums.unlocked, asset, out.out.amount);
        else add(sums.lockedStakeable, asset, out.out.amount);
        utxoIDs.push({ txID: encodeCB58(u.utxoID.txID), outputIndex: u.utxoID.outputIndex });
      }
      const avax = encodeCB58(d.vm.avaxAssetID);
      const total = new Map<string, bigint>();
      for (const m of Object.values(sums)) for (const [k, v] of m) add(total, k, v);
      // Go marshals map[ids.ID] with its keys sorted.
      const obj = (m: Map<string, bigint>) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, String(v)]));
      return {
        balance: String(total.get(avax) ?? 0n),
        unlocked: String(sums.unlocked.get(avax) ?? 0n),
        lockedStakeable: String(sums.lockedStakeable.get(avax) ?? 0n),
        lockedNotStakeable: String(sums.lockedNotStakeable.get(avax) ?? 0n),
        balances: obj(total),
        unlockeds: obj(sums.unlocked),
        lockedStakeables: obj(sums.lockedStakeable),
        lockedNotStakeables: obj(sums.lockedNotStakeable),
        utxoIDs: utxoIDs.length === 0 ? null : utxoIDs,
      };
    }),
  };
}
