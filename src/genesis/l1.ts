// The L1s given at start-up (--l1=<path/to/name.json>): each a Subnet-EVM chain of its own subnet,
// from a genesis file in subnet-evm's format, aliased by the file's base name.
//
// Their IDs stand for the P-Chain txs a real network would create them with, until the emulator's
// P-Chain issues those txs itself:
//   subnet ID     = sha256("avalanche-emulator/subnet/" ‖ name)
//   blockchain ID = sha256(subnet ID ‖ VM ID ‖ name ‖ genesis bytes)
// the blockchain ID committing to what a CreateChainTx commits to (its subnet, VM, name and
// genesis). Both are stable across restarts; another genesis file under the same name is another chain.
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeCB58 } from '../encoding/cb58.js';

export interface L1Definition {
  name: string;
  path: string;
  subnetID: Uint8Array;
  chainID: Uint8Array;
  genesis: Uint8Array;
}

export class L1Error extends Error {}

export async function readL1(path: string, vmID: string): Promise<L1Definition> {
  const name = basename(path, extname(path));
  if (name === '') throw new L1Error(`--l1=${path}: the file name gives the chain's alias and cannot be empty`);
  let genesis: Uint8Array;
  try {
    genesis = new Uint8Array(await readFile(path));
  } catch (err) {
    throw new L1Error(`--l1=${path}: ${(err as Error).message}`);
  }
  const subnetID = sha256(Buffer.from(`avalanche-emulator/subnet/${name}`, 'utf8'));
  const chainID = sha256(Buffer.concat([subnetID, decodeCB58(vmID), Buffer.from(name, 'utf8'), genesis]));
  return { name, path, subnetID, chainID, genesis };
}
