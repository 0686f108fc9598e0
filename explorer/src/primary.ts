// P- and X-Chain txs as avalanchego's JSON encoding gives them: the type, named from the fields
// each type has, and the amounts they move.
import { type ApiError, getJson, rpc, tryRpc } from './api.js';
import { type AtomicTx, parseAtomicTx } from './cb58.js';
import { big, navax, units } from './format.js';

export function pTxType(u: any): string {
  if (!u) return 'Tx';
  if ('txID' in u && !('outputs' in u)) return 'RewardValidatorTx';
  if ('validators' in u && 'address' in u) return 'ConvertSubnetToL1Tx';
  if ('chainName' in u) return 'CreateChainTx';
  if ('owner' in u) return 'CreateSubnetTx';
  if ('importedInputs' in u) return 'ImportTx';
  if ('exportedOutputs' in u) return 'ExportTx';
  if ('newOwner' in u) return 'TransferSubnetOwnershipTx';
  if ('signer' in u && 'validator' in u) return 'AddPermissionlessValidatorTx';
  if ('rewardsOwner' in u) return 'AddPermissionlessDelegatorTx';
  if ('validator' in u) return 'AddSubnetValidatorTx';
  if ('nodeID' in u && 'subnetID' in u) return 'RemoveSubnetValidatorTx';
  if ('proofOfPossession' in u && 'message' in u) return 'RegisterL1ValidatorTx';
  if ('message' in u) return 'SetL1ValidatorWeightTx';
  if ('disableAuthorization' in u) return 'DisableL1ValidatorTx';
  if ('validationID' in u) return 'IncreaseL1ValidatorBalanceTx';
  return 'BaseTx';
}

export function xTxType(u: any): string {
  if (!u) return 'Tx';
  if ('initialStates' in u) return 'CreateAssetTx';
  if ('operations' in u) return 'OperationTx';
  if ('importedInputs' in u) return 'ImportTx';
  if ('exportedOutputs' in u) return 'ExportTx';
  return 'BaseTx';
}

export interface Output {
  address: string;
  amount: bigint;
  assetID: string;
  kind: 'output' | 'exported' | 'stake';
}

/** Who gets what: the outputs, the exported outputs and the stake. */
export function outputsOf(u: any): Output[] {
  const out: Output[] = [];
  const add = (list: any[] | undefined, kind: Output['kind']) => {
    for (const o of list ?? []) {
      const amount = o.output?.amount ?? o.output?.output?.amount;
      const addresses: string[] = o.output?.addresses ?? o.output?.output?.addresses ?? [];
      if (amount === undefined) continue;
      out.push({ address: addresses.join(', '), amount: big(amount), assetID: o.assetID, kind });
    }
  };
  add(u?.outputs, 'output');
  add(u?.exportedOutputs, 'exported');
  add(u?.stake, 'stake');
  return out;
}

/** What a tx's inputs hold of AVAX (of every asset when `avax` is unknown). */
export function inputTotal(u: any, avax?: string): bigint {
  let n = 0n;
  for (const i of [...(u?.inputs ?? []), ...(u?.importedInputs ?? [])]) if (isAvax(i, avax)) n += big(i.input?.amount ?? i.input?.input?.amount);
  return n;
}

let avaxID: Promise<string | undefined> | undefined;
/** AVAX's asset ID (the X-Chain's, which the P-Chain uses too), asked once. */
export const avaxAssetID = (): Promise<string | undefined> =>
  (avaxID ??= rpc('/ext/bc/X', 'avm.getAssetDescription', { assetID: 'AVAX' }).then(
    (d: any) => d?.assetID as string | undefined,
    () => undefined,
  ));

/** Whether an output or input is AVAX (every one is when AVAX's ID is unknown). */
export const isAvax = (o: { assetID?: string }, avax: string | undefined): boolean => avax === undefined || o.assetID === undefined || o.assetID === avax;

/** An output's amount as text: AVAX with its 9 decimals; another asset in its base units, by its ID (its denomination is its own). */
export const outputAmount = (o: Output, avax: string | undefined): string =>
  isAvax(o, avax) ? navax(o.amount) : `${units(o.amount, 0)} of asset ${o.assetID.slice(0, 8)}…`;

/** What a tx's outputs hold of AVAX. */
export const avaxMoved = (outputs: Output[], avax: string | undefined): bigint => outputs.filter((o) => isAvax(o, avax)).reduce((n, o) => n + o.amount, 0n);

const txCache = new Map<string, Promise<{ chain: 'P' | 'X'; tx: any } | undefined>>();

/** A P- or X-Chain tx by ID (immutable once accepted, so kept). */
export function primaryTx(id: string): Promise<{ chain: 'P' | 'X'; tx: any } | undefined> {
  let found = txCache.get(id);
  if (!found) {
    found = (async () => {
      const p = await tryRpc('/ext/bc/P', 'platform.getTx', { txID: id, encoding: 'json' });
      if (p) return { chain: 'P' as const, tx: p.tx };
      const x = await tryRpc('/ext/bc/X', 'avm.getTx', { txID: id, encoding: 'json' });
      if (x) return { chain: 'X' as const, tx: x.tx };
      return undefined;
    })();
    txCache.set(id, found);
    void found.then((v) => {
      if (!v) txCache.delete(id);
    });
  }
  return found;
}

/** A C-Chain atomic tx (import or export) by ID, read from coreth's bytes. */
export async function atomicTx(id: string): Promise<{ id: string; tx: AtomicTx; status: string; blockHeight?: number } | undefined> {
  const found = await tryRpc('/ext/bc/C/avax', 'avax.getAtomicTx', { txID: id, encoding: 'hex' });
  const tx = found ? parseAtomicTx(found.tx) : undefined;
  if (!tx) return undefined;
  const status = (await tryRpc('/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID: id }))?.status ?? 'Unknown';
  return { id, tx, status, blockHeight: found.blockHeight === undefined ? undefined : Number(found.blockHeight) };
}

const HRPS: Record<number, string> = { 1: 'avax', 2: 'cascade', 3: 'denali', 4: 'everest', 5: 'fuji', 10: 'testing', 12345: 'local' };
let hrpOnce: Promise<string> | undefined;

/** The network's bech32 HRP (local on the local network), as avalanchego names it by network ID. */
export function hrp(): Promise<string> {
  hrpOnce ??= tryRpc('/ext/info', 'info.getNetworkID').then((r) => HRPS[Number(r?.networkID)] ?? 'custom');
  return hrpOnce;
}

export interface PrimaryBlock {
  height: number;
  id: string;
  time: number;
  txs: string[];
  type: string;
}

/** The newest P- or X-Chain blocks from the Data API (which records them as they are accepted). */
export async function primaryBlocks(chain: 'P' | 'X', pageSize = 20): Promise<PrimaryBlock[]> {
  if (!dataApiOff) {
    try {
      const page = await getJson(`/v1/networks/fuji/blockchains/${chain === 'P' ? 'p-chain' : 'x-chain'}/blocks?pageSize=${pageSize}`);
      return (page.blocks as any[]).map((b) => ({
        height: Number(b.blockNumber),
        id: b.blockHash,
        time: b.blockTimestamp,
        txs: b.transactions ?? [],
        type: b.blockType,
      }));
    } catch (err) {
      if ((err as ApiError).status !== 404) throw err;
      dataApiOff = true;
    }
  }
  // --api-data-enabled=false: the chain's own API, block by block.
  const api = chain === 'P' ? 'platform' : 'avm';
  const path = chain === 'P' ? '/ext/bc/P' : '/ext/bc/X';
  const top = Number((await rpc(path, `${api}.getHeight`, {})).height);
  const heights = Array.from({ length: Math.min(pageSize, top + 1) }, (_, i) => top - i);
  return Promise.all(
    heights.map(async (height) => {
      const { block } = await rpc(path, `${api}.getBlockByHeight`, { height: String(height), encoding: 'json' });
      const txs: any[] = block.txs ?? (block.tx ? [block.tx] : []);
      return { height, id: block.id ?? '', time: Number(block.time ?? 0), txs: txs.map((t) => t.id), type: '' };
    }),
  );
}

let dataApiOff = false;
