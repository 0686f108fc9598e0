// AVM API (avalanchego vms/avm/service.go) at /ext/bc/X, and wallet.issueTx at /ext/bc/X/wallet.
import { encodeCB58, idFromString } from '../../encoding/cb58.js';
import { RawJson } from '../../encoding/gojson.js';
import { encodeHex } from '../../encoding/hex.js';
import type { Aliaser } from '../../chains/aliases.js';
import { formatAddress, parseServiceAddress, type AddressContext } from '../components/avax/address.js';
import { blockJson, marshalUTXO, parseUTXO, txJson, utxoInputID } from './codec/index.js';
import type { SharedMemory } from '../../chains/sharedmemory.js';
import { type Page, paginatedUTXOs } from '../components/avax/utxostate.js';
import { atomicUTXOs, getUTXOsArgs, readUTXOsArgs, type UTXOsRequest, utxosReply } from '../components/avax/getutxos.js';
import type { SignedTx, UTXO } from './types.js';
import { IssueError, type XChain } from './vm.js';
import { method, RpcError, rpcTry, serviceErrors, type ServiceDef } from '../../rpc/method.js';
import { bool, none, string, struct, uint64 } from '../../rpc/schema.js';
import { decodeBytes, type Encoding, encodeBytes, encoding, id } from '../components/avax/fields.js';

const MAX_U64 = 0xffffffffffffffffn;

export interface AvmDeps {
  vm: XChain;
  hrp: string;
  chainId: string;
  chainAliases: Aliaser;
  shared: SharedMemory;
  txFee: bigint;
  createAssetTxFee: bigint;
  now: () => bigint;
}

const isZero = (b: Uint8Array) => b.every((x) => x === 0);

const errors = serviceErrors({
  notFound: () => 'not found',
  nilTxID: () => 'nil transaction ID',
  assetNotFound: (asset: string) => `asset '${asset}' not found`,
  notAnAsset: () => "transaction doesn't create an asset",
  parsingAddress: (address: string, why: string) => `problem parsing address '${address}': ${why}`,
  overflow: () => 'overflow',
  noBlockWithID: (id: string) => `couldn't get block with id ${id}: not found`,
  noBlockAtHeight: (height: bigint) => `couldn't get block at height ${height}: not found`,
  encodeUTXO: (id: string, why: string) => `couldn't encode UTXO ${id} as string: ${why}`,
  parsingUTXO: (why: string) => `problem retrieving UTXOs: error parsing UTXO: ${why}`,
  decodingTx: (why: string) => `problem decoding transaction: ${why}`,
});

export function avmService(d: AvmDeps): ServiceDef {
  const addressCtx: AddressContext = { hrp: d.hrp, chainId: d.chainId, chainAliases: d.chainAliases };
  const format = (addr: Uint8Array) => formatAddress('X', d.hrp, addr);
  const jsonCtx = (tx: SignedTx) => ({ hrp: d.hrp, credentialsNull: d.vm.freshGenesis && d.vm.genesisTxs.some((g) => Buffer.from(g.id).equals(tx.id)) });

  /** lookupAssetID: the VM's alias (only AVAX), else a cb58 ID. */
  const lookupAsset = (s: string): Uint8Array => {
    if (s === 'AVAX') return d.vm.avaxAssetID;
    try {
      return idFromString(s);
    } catch {
      throw errors.assetNotFound(s);
    }
  };
  const parseAddress = (a: string) => {
    try {
      return parseServiceAddress(a, addressCtx);
    } catch (err) {
      throw errors.parsingAddress(a, (err as Error).message);
    }
  };
  /** Every UTXO of an address, newest first. */
  const utxosOf = async (address: Uint8Array): Promise<UTXO[]> => {
    const ids = await d.vm.state.utxoIDs(address, undefined, Number.MAX_SAFE_INTEGER);
    return (await d.vm.state.getUTXOs(ids)).filter((u): u is UTXO => u !== undefined);
  };
  /** The balance rules: secp TransferOutputs only; without includePartial, single-owner and unlocked. */
  const counts = (u: UTXO, includePartial: boolean) =>
    u.output.type === 7 && (includePartial || (u.output.owners.addresses.length === 1 && u.output.owners.locktime <= d.now()));

  /** avax.GetAtomicUTXOs: UTXOs other chains exported to the X-Chain. */
  const atomicPage = async (req: UTXOsRequest): Promise<Page<UTXO>> => {
    const page = await atomicUTXOs(d.shared, d.vm.params.chainID, req);
    const utxos = page.utxos.map((v) =>
      rpcTry(
        () => parseUTXO(v),
        (m) => errors.parsingUTXO(m).message,
      ),
    );
    return { ...page, utxos };
  };

  return {
    name: 'avm',
    methods: {
      getAssetDescription: method(struct({ assetID: string }), async ({ assetID }) => {
        const asset = lookupAsset(assetID);
        const tx = await d.vm.state.getTx(asset);
        if (!tx) throw errors.notFound();
        if (tx.unsigned.type !== 1) throw errors.notAnAsset();
        const { name, symbol, denomination } = tx.unsigned;
        return {
          assetID: encodeCB58(asset),
          name: Buffer.from(name).toString('utf8'),
          symbol: Buffer.from(symbol).toString('utf8'),
          denomination: String(denomination),
        };
      }),

      getBalance: method(struct({ address: string, assetID: string, includePartial: bool }), async ({ address, assetID, includePartial }) => {
        const addr = parseAddress(address);
        const asset = lookupAsset(assetID);
        let balance = 0n;
        const utxoIDs: Array<{ txID: string; outputIndex: number }> = [];
        for (const u of await utxosOf(addr)) {
          if (!Buffer.from(u.assetID).equals(asset) || !counts(u, includePartial)) continue;
          balance += (u.output as { amount: bigint }).amount;
          if (balance > MAX_U64) throw errors.overflow();
          utxoIDs.push({ txID: encodeCB58(u.utxoID.txID), outputIndex: u.utxoID.outputIndex });
        }
        return { balance: String(balance), utxoIDs };
      }),

      getAllBalances: method(struct({ address: string, includePartial: bool }), async ({ address, includePartial }) => {
        const addr = parseAddress(address);
        const totals = new Map<string, bigint>();
        for (const u of await utxosOf(addr)) {
          if (!counts(u, includePartial)) continue;
          const label = Buffer.from(u.assetID).equals(d.vm.avaxAssetID) ? 'AVAX' : encodeCB58(u.assetID);
          const sum = (totals.get(label) ?? 0n) + (u.output as { amount: bigint }).amount;
          totals.set(label, sum > MAX_U64 ? MAX_U64 : sum);
        }
        return { balances: [...totals].map(([asset, balance]) => ({ asset, balance: String(balance) })) };
      }),

      getBlock: method(struct({ blockID: id, encoding }), async ({ blockID, encoding: enc }) => {
        const block = Buffer.from(blockID).equals(d.vm.genesisBlock.id) ? d.vm.genesisBlock : await d.vm.state.getBlock(blockID);
        if (!block) throw errors.noBlockWithID(encodeCB58(blockID));
        return blockReply(block, enc);
      }),

      getBlockByHeight: method(struct({ height: uint64, encoding }), async ({ height, encoding: enc }) => {
        const blockId = await d.vm.state.getBlockIdAtHeight(height);
        const block = blockId && (height === 0n ? d.vm.genesisBlock : await d.vm.state.getBlock(blockId));
        if (!block) throw errors.noBlockAtHeight(height);
        return blockReply(block, enc);
      }),

      getHeight: method(none, () => ({ height: String(d.vm.lastAccepted().height) })),

      getTx: method(struct({ txID: id, encoding }), async ({ txID, encoding: enc }) => {
        if (isZero(txID)) throw errors.nilTxID();
        const tx = await d.vm.state.getTx(txID);
        if (!tx) throw errors.notFound();
        if (enc === 'json') return new RawJson(`{"tx":${txJson(tx, jsonCtx(tx))},"encoding":"json"}`);
        return { tx: encodeHex(tx.bytes, enc), encoding: enc };
      }),

      getTxFee: method(none, () => ({ txFee: String(d.txFee), createAssetTxFee: String(d.createAssetTxFee) })),

      getTxStatus: method(struct({ txID: id }), async ({ txID }) => {
        if (isZero(txID)) throw errors.nilTxID();
        return { status: (await d.vm.state.getTx(txID)) ? 'Accepted' : 'Unknown' };
      }),

      getUTXOs: method(getUTXOsArgs, async (args) => {
        const req = readUTXOsArgs(args, {
          parseAddress: (a) => parseServiceAddress(a, addressCtx),
          lookupChain: (alias) => d.chainAliases.lookup(alias),
          defaultSource: d.chainId,
        });
        const page =
          req.source === d.chainId ? await paginatedUTXOs(d.vm.state.utxos, req.addresses, req.startAddr, req.startUTXO, req.limit) : await atomicPage(req);
        const utxos = page.utxos.map((u) =>
          rpcTry(
            () => encodeBytes(marshalUTXO(u), args.encoding),
            (m) => errors.encodeUTXO(encodeCB58(utxoInputID(u.utxoID)), m).message,
          ),
        );
        return utxosReply(utxos, format(page.endAddr), page.endUTXO, args.encoding);
      }),

      issueTx: method(struct({ tx: string, encoding }), async ({ tx, encoding: enc }) => ({ txID: encodeCB58(await issue(d, tx, enc, false)) })),
    },
  };

  function blockReply(block: Parameters<typeof blockJson>[0], enc: Encoding) {
    if (enc === 'json') {
      const fresh = d.vm.freshGenesis && block.height === 0n;
      return new RawJson(`{"block":${blockJson(block, { hrp: d.hrp, txsNull: fresh })},"encoding":"json"}`);
    }
    return { block: encodeHex(block.bytes, enc), encoding: enc };
  }
}

export function walletService(d: AvmDeps): ServiceDef {
  return {
    name: 'wallet',
    methods: {
      issueTx: method(struct({ tx: string, encoding }), async ({ tx, encoding: enc }) => ({ txID: encodeCB58(await issue(d, tx, enc, true)) })),
    },
  };
}

async function issue(d: AvmDeps, text: string, enc: Encoding, unverified: boolean): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = decodeBytes(text, enc);
  } catch (err) {
    throw errors.decodingTx((err as Error).message);
  }
  try {
    return unverified ? await d.vm.issueTxUnverified(bytes) : await d.vm.issueTx(bytes);
  } catch (err) {
    if (err instanceof IssueError) throw new RpcError(err.message);
    throw err;
  }
}
