// The chains of subnets at start-up: those the P-Chain already knows (sybil protection off: the node
// runs them all), and the --l1 chains it does not, created as a real network creates them.
import { LOCAL_NODE, VM_IDS } from '../chains/ids.js';
import type { ChainManager } from '../chains/manager.js';
import { decodeCB58, encodeCB58 } from '../encoding/cb58.js';
import type { ForkedL1 } from '../config/load.js';
import {
  chainNameOf,
  convertValidator,
  convertValidatorWithKey,
  L1_NODE_WEIGHT,
  type L1Definition,
  L1Error,
  readL1,
  VALIDATOR_MANAGER_ADDRESS,
} from '../genesis/l1.js';
import { EWOQ_PRIVATE_KEY } from '../vms/avm/index.js';
import { type ForkedL1Rules, forkedL1Rules, l1ValidatorsFromConfig } from '../vms/evm/index.js';
import { type CreatedChain, PWallet } from '../vms/platform/index.js';
import type { SubnetChains } from './chains.js';
import { readChainFile } from './files.js';
import type { L1Info, Shell } from './shell.js';
import type { NodeVMs } from './vms.js';
import { fromHex0x, toHex } from '../encoding/bytes.js';

type SubnetIDs = { subnetID: Uint8Array; chainID: Uint8Array };

/** Creates every subnet chain the P-Chain knows and every --l1 chain, and reports the L1s in --l1's order. */
export async function createSubnetChains(shell: Shell, manager: ChainManager, vms: NodeVMs, subnets: SubnetChains): Promise<L1Info[]> {
  const l1s: L1Definition[] = [];
  for (const path of shell.config.l1) l1s.push(await readL1(path));
  const forked = shell.config.forkL1.map((f) => ({ ...f, chainName: chainNameOf(f.name), path: `--fork-l1=${f.name}` }));
  const created = new Map<string, SubnetIDs>();
  await subnets.start(await knownChains(vms, [...l1s, ...forked], subnets, created));
  for (const l of l1s) if (!created.has(l.name)) created.set(l.name, await createL1(shell, vms, manager, subnets, l));
  for (const f of forked) if (!created.has(f.name)) created.set(f.name, await createForkedL1(shell, vms, manager, subnets, f));
  l1s.push(...forked.map((f) => ({ ...f, genesis: new Uint8Array() })));
  return l1s.map((l) => {
    const ids = created.get(l.name)!;
    const evm = vms.evmChain(encodeCB58(ids.chainID))!;
    return { name: l.name, blockchainID: encodeCB58(ids.chainID), subnetID: encodeCB58(ids.subnetID), evmChainId: evm.evm.chainId };
  });
}

/**
 * The chains of every subnet the P-Chain knows, as avalanchego's initBlockchains creates them after
 * the primary network's. An --l1 chain the P-Chain created on an earlier run (same name, same
 * genesis) keeps its ID and gets its alias.
 */
async function knownChains(
  vms: NodeVMs,
  l1s: Array<L1Definition | ForkedL1Definition>,
  subnets: SubnetChains,
  created: Map<string, SubnetIDs>,
): Promise<CreatedChain[]> {
  const pChain = vms.pChain;
  const chains: CreatedChain[] = [];
  for (const [chainHex, rec] of pChain.state.ledger.chains) {
    if (/^0+$/.test(rec.subnetID)) continue;
    const tx = await pChain.state.getTx(Buffer.from(chainHex, 'hex'));
    if (tx?.unsigned.type !== 15) continue;
    const c = { chainID: tx.id, subnetID: tx.unsigned.subnetID, name: rec.name, vmID: tx.unsigned.vmID, genesis: tx.unsigned.genesis };
    // A forked L1 is known by its name: its genesis came from its upstream, which need not answer now.
    const same = (l: L1Definition | ForkedL1Definition) => !('genesis' in l) || Buffer.from(l.genesis).equals(Buffer.from(c.genesis));
    const l1 = l1s.find((l) => l.chainName === rec.name && encodeCB58(c.vmID) === VM_IDS.subnetEvm && same(l));
    if (l1 && !created.has(l1.name)) {
      subnets.aliases.set(chainHex, [l1.name]);
      subnets.strict.set(chainHex, l1.path);
      created.set(l1.name, c);
    }
    chains.push(c);
  }
  return chains;
}

/** An L1 of --fork-l1: its alias and chain name, its upstream and block. */
interface ForkedL1Definition extends ForkedL1 {
  chainName: string;
  path: string;
}

/** A --fork-l1 chain: created as an --l1 chain, with a genesis of its upstream's rules, forking it. */
async function createForkedL1(shell: Shell, vms: NodeVMs, manager: ChainManager, subnets: SubnetChains, f: ForkedL1Definition): Promise<SubnetIDs> {
  let rules: ForkedL1Rules;
  try {
    rules = await forkedL1Rules(shell.forks.upstreamSettings, f.url);
  } catch (err) {
    throw new L1Error(`${f.path}: ${(err as Error).message}`);
  }
  const target = { url: f.url, ...(f.blockNumber === undefined ? {} : { blockNumber: f.blockNumber }) };
  return createL1(shell, vms, manager, subnets, { name: f.name, chainName: f.chainName, path: f.path, genesis: rules.genesis }, (id) =>
    shell.forks.target(encodeCB58(id), target, rules.upgrade),
  );
}

/** An --l1 chain: ewoq's CreateSubnetTx, CreateChainTx and ConvertSubnetToL1Tx (the node and the chain config's emulator-validators). */
async function createL1(
  shell: Shell,
  vms: NodeVMs,
  manager: ChainManager,
  subnets: SubnetChains,
  l: L1Definition,
  beforeCreate?: (chainID: Uint8Array) => void,
): Promise<SubnetIDs> {
  const wallet = new PWallet(vms.pChain, EWOQ_PRIVATE_KEY);
  try {
    const subnetID = await wallet.createSubnet();
    const chainTx = await wallet.createChainTx(subnetID, l.chainName, decodeCB58(VM_IDS.subnetEvm), l.genesis);
    beforeCreate?.(chainTx.id);
    subnets.aliases.set(toHex(chainTx.id), [l.name]);
    subnets.strict.set(toHex(chainTx.id), l.path);
    await wallet.issue(chainTx);
    if (!manager.get(encodeCB58(chainTx.id))) throw new L1Error('the chain was not created');
    const chainConfig = await readChainFile(shell.config.chainConfigDir, [encodeCB58(chainTx.id), l.name], 'config.json');
    await wallet.convert(subnetID, chainTx.id, VALIDATOR_MANAGER_ADDRESS, [
      convertValidator(LOCAL_NODE.nodeID, L1_NODE_WEIGHT, fromHex0x(LOCAL_NODE.publicKey), fromHex0x(LOCAL_NODE.proofOfPossession)),
      ...l1ValidatorsFromConfig(chainConfig).map((v) => convertValidatorWithKey(v.nodeID, v.weight, v.secretKey)),
    ]);
    return { subnetID, chainID: chainTx.id };
  } catch (err) {
    // Whatever fails while the node sets up an --l1 chain is that flag's doing: the message names it.
    const message = (err as Error).message;
    const flag = l.path.startsWith('--fork-l1=') ? l.path : `--l1=${l.path}`;
    throw message.startsWith(flag) ? err : new L1Error(`${flag}: ${message}`);
  }
}
