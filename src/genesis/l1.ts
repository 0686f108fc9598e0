// The L1s given at start-up (--l1=<path/to/name.json>): each a Subnet-EVM chain of its own subnet,
// from a genesis file in subnet-evm's format, aliased by the file's base name. The node creates
// each with the P-Chain txs a real network needs (CreateSubnetTx, CreateChainTx with the file's
// bytes as genesis, ConvertSubnetToL1Tx), so their subnet and blockchain IDs are those txs' IDs; on
// a later start the chain the P-Chain already holds under that name and genesis is used again.
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { decodeCB58 } from '../encoding/cb58.js';
import { proofOfPossession, publicKeyOf } from '../vms/components/warp/index.js';
import type { ConvertValidator } from '../vms/platform/index.js';
import { EWOQ } from './platform.js';

export interface L1Definition {
  /** The chain's alias: the file's base name, whatever its characters. */
  name: string;
  /** The CreateChainTx's chain name, made valid from the base name (chainNameOf). */
  chainName: string;
  path: string;
  genesis: Uint8Array;
}

/** avalanchego's CreateChainTx limit on a chain name's length. */
const MAX_CHAIN_NAME = 128;

/**
 * A chain name the P-Chain takes, from a file's base name: avalanchego's CreateChainTx allows ASCII
 * letters, digits and spaces only, so every other character (Subnet-EVM's genesis files are named
 * `contract_native_minter.json`, `tx_allow_list.json`) becomes a space, and the name is cut at 128
 * bytes. A name that is valid already is kept as it is, so chains created by earlier runs match.
 */
export function chainNameOf(baseName: string): string {
  let out = '';
  for (const c of baseName) out += /^[A-Za-z0-9 ]$/.test(c) ? c : ' ';
  return out.slice(0, MAX_CHAIN_NAME);
}

export class L1Error extends Error {}

/**
 * The validator manager the conversion names: the L1 chain itself at the address avalanche-cli's
 * L1 genesis gives the ValidatorManager proxy (0x0FEEDC0DE…).
 */
export const VALIDATOR_MANAGER_ADDRESS = new Uint8Array(Buffer.from('0feedc0de0000000000000000000000000000000', 'hex'));
/** The node's weight as its L1s' validator. */
export const L1_NODE_WEIGHT = 100n;
/** Each start-up validator's balance: 1,000 AVAX, at 1 nAVAX a second it outlasts any test. */
export const L1_VALIDATOR_BALANCE = 1_000_000_000_000n;

export async function readL1(path: string): Promise<L1Definition> {
  const name = basename(path, extname(path));
  if (name === '') throw new L1Error(`--l1=${path}: the file name gives the chain's alias and cannot be empty`);
  try {
    return { name, chainName: chainNameOf(name), path, genesis: new Uint8Array(await readFile(path)) };
  } catch (err) {
    throw new L1Error(`--l1=${path}: ${(err as Error).message}`);
  }
}

/** A ConvertSubnetToL1Tx validator owned (balance and deactivation) by ewoq. */
export function convertValidator(nodeID: string, weight: bigint, publicKey: Uint8Array, pop: Uint8Array): ConvertValidator {
  const owner = { threshold: 1, addresses: [EWOQ] };
  return {
    nodeID: decodeCB58(nodeID.replace(/^NodeID-/, '')),
    weight,
    balance: L1_VALIDATOR_BALANCE,
    publicKey,
    proofOfPossession: pop,
    remainingBalanceOwner: owner,
    deactivationOwner: owner,
  };
}

/** A validator known by its BLS secret key (the chain config's emulator-validators). */
export const convertValidatorWithKey = (nodeID: string, weight: bigint, secretKey: Uint8Array): ConvertValidator =>
  convertValidator(nodeID, weight, publicKeyOf(secretKey), proofOfPossession(secretKey));
