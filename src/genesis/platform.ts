// The P-Chain genesis of a local network (genesis.FromConfig over genesis_local.json, then
// platformvm genesis.New): ewoq's and one other allocation's unlocked UTXOs, the five initial
// stakers as AddPermissionlessValidatorTxs (staked by vmRQ's allocation, split five ways), and the
// X- and C-Chain CreateChainTxs. The start time rolls forward every 270 days, so the genesis ID
// and the validator tx IDs move with it; the chain IDs and UTXO IDs do not.
import { decodeCB58 } from '../encoding/cb58.js';
import { buildTx, type PGenesis, type SignedTx, type UnsignedTx } from '../vms/platform/index.js';
import { fromHex0x } from '../encoding/bytes.js';

const padded = (name: string) => {
  const b = new Uint8Array(32);
  b.set(Buffer.from(name, 'ascii'));
  return b;
};

export const EWOQ = fromHex0x('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c');
/** X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2: the initially staked allocation. */
const STAKED_FUNDS = fromHex0x('46a9c04f4bf783aa69daabd519dcf36978168b66');
const ETH_ADDRESS = fromHex0x('b3d82b1367d362de99ab59a658165aff520cbd4d');
const UNLOCK_TIME = 1633824000n;

/** The P-Chain allocations (unlock schedule entries of the non-staked allocations, in file order). */
const P_ALLOCATIONS = [
  { address: EWOQ, amount: 20_000_000_000_000_000n, locktime: 0n },
  { address: EWOQ, amount: 10_000_000_000_000_000n, locktime: UNLOCK_TIME },
  { address: fromHex0x('e0cfe8cae22827d032805ded484e393ce51cbedb'), amount: 10_000_000_000_000_000n, locktime: UNLOCK_TIME },
];

/** genesis_local.json's initialStakers: node ID, delegation fee and BLS signer. */
export const LOCAL_STAKERS = [
  {
    nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    delegationFee: 1000000,
    publicKey: '900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d',
    pop: '8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2',
  },
  {
    nodeID: 'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
    delegationFee: 500000,
    publicKey: 'a058ff27a4c570664bfa28e34939368539a1340867951943d0f56fa8aac13bc09ff64f341acf8cc0cef74202c2d6f9c0',
    pop: 'ac52195616344127df74d924e11701ca5e0867647ae36171d168fcf95d536e94061659b3edb924fffdb69dd5aa5cb2d703f8920c825c8f7b74dd0112c9c27814790bfcfa3a08e1d9358da1c54e1f6c0b4d9772432f79d7dceaa3a95c3a7e6adc',
  },
  {
    nodeID: 'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
    delegationFee: 250000,
    publicKey: 'a10b6955a85684a0f5c94b8381f04506f1bee60625927d372323f78b3d30196cc56c8618c77eaf429298e74673d832c3',
    pop: '8d505f7b53960813f1e007f04702ae1bd524cce036b4695fbf8a16eb50b35cdbdd4eedec2b0ce281f35ae36e3ac29fb40867c94cabe2ba0b462f177dd8c3d293b0586b92d392e8278711fb434fe2601ae1b2e0867cfd128180c936a8010c5552',
  },
  {
    nodeID: 'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
    delegationFee: 125000,
    publicKey: 'accd61ceb90c61628aa0fa34acab27ecb08f6897e9ccad283578c278c52109f9e10e4f8bc31aa6d7905c4e1623de367e',
    pop: '910082e2b61fe4895b4a8f754c9e3a93c346156363acf67546a87e4bc1db7bbfa3239daa5292ad9bc30a11f60e59bbd30b375785b71fe45abd154d717b6471c2406df2534297305ae93d6abeb38fc461170fc0b74b8aa4550f30257a264c75b0',
  },
  {
    nodeID: 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
    delegationFee: 62500,
    publicKey: '8048109c3da13de0700f9f3590c3270bfc42277417f6d0cc84282947e1a1f8b4980fd3e3fe223acf0f56a5838890814a',
    pop: 'b034e0d0ec808b7ec456a6d88bdad7b32854794605a11139d70430d81fb93834a3f81d8969042952daff335fec51018016a7ecb19d38597c5743a4eb3fb945ebe28a4250dd7bcb7a192c98d2fcaf15320a9bee239c66ddf61bb24f87c6e91971',
  },
] as const;

const STAKE_DURATION = 31_536_000n;
const STAKE_OFFSET = 5_400n;
const STAKE = 2_000_000_000_000_000n;
const INITIAL_SUPPLY = 360_000_000_000_000_000n;

export const nodeIDBytes = (nodeID: string): Uint8Array => decodeCB58(nodeID.replace(/^NodeID-/, ''));

const emptyBase = (networkID: number) => ({ networkID, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: new Uint8Array() });

/**
 * txheap.NewByEndTime's List(): the slice of a binary min-heap on end time after pushing the
 * stakers in file order (each ends earlier than the one before), which is neither file order nor
 * sorted. The genesis bytes and the reward computation both follow it.
 */
function heapOrder<T extends { end: bigint }>(items: T[]): T[] {
  const heap: T[] = [];
  for (const item of items) {
    heap.push(item);
    let j = heap.length - 1;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (!(heap[j]!.end < heap[parent]!.end)) break;
      [heap[j], heap[parent]] = [heap[parent]!, heap[j]!];
      j = parent;
    }
  }
  return heap;
}

export interface GenesisChainDef {
  name: string;
  vm: string;
  fxs: string[];
  genesis: Uint8Array;
}

/** The P-Chain genesis for a local-config network starting at `startTime`, with these primary chains. */
export function localPlatformGenesis(networkID: number, startTime: bigint, avaxAssetID: Uint8Array, chains: GenesisChainDef[]): PGenesis {
  const owner = { locktime: 0n, threshold: 1, addresses: [EWOQ] };
  const stakers = LOCAL_STAKERS.map((s, i) => ({ s, end: startTime + STAKE_DURATION - BigInt(i) * STAKE_OFFSET }));
  const validators: SignedTx[] = heapOrder(stakers).map(({ s, end }) => {
    const unsigned: UnsignedTx = {
      type: 25,
      base: emptyBase(networkID),
      nodeID: nodeIDBytes(s.nodeID),
      start: startTime,
      end,
      weight: STAKE,
      subnetID: new Uint8Array(32),
      signer: { type: 28, publicKey: fromHex0x(s.publicKey), proofOfPossession: fromHex0x(s.pop) },
      stakeOuts: [{ assetID: avaxAssetID, out: { type: 7, amount: STAKE, owners: { locktime: 0n, threshold: 1, addresses: [STAKED_FUNDS] } } }],
      validatorRewardsOwner: { type: 11, owners: owner },
      delegatorRewardsOwner: { type: 11, owners: owner },
      delegationShares: s.delegationFee,
    };
    return buildTx(unsigned, []);
  });
  const chainTxs = chains.map((c) =>
    buildTx(
      {
        type: 15,
        base: emptyBase(networkID),
        subnetID: new Uint8Array(32),
        chainName: new Uint8Array(Buffer.from(c.name)),
        vmID: padded(c.vm),
        fxIDs: c.fxs.map(padded),
        genesis: c.genesis,
        auth: { type: 10, sigIndices: [] },
      },
      [],
    ),
  );
  return {
    utxos: P_ALLOCATIONS.map((a, i) => ({
      utxo: {
        utxoID: { txID: new Uint8Array(32), outputIndex: i },
        assetID: avaxAssetID,
        output:
          a.locktime > startTime
            ? { type: 22, locktime: a.locktime, out: { type: 7, amount: a.amount, owners: { locktime: 0n, threshold: 1, addresses: [a.address] } } }
            : { type: 7, amount: a.amount, owners: { locktime: 0n, threshold: 1, addresses: [a.address] } },
      },
      message: ETH_ADDRESS,
    })),
    validators,
    chains: chainTxs,
    timestamp: startTime,
    initialSupply: INITIAL_SUPPLY,
    message: new Uint8Array(Buffer.from('{{ fun_quote }}')),
  };
}
