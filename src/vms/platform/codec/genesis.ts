// The P-Chain genesis (vms/platformvm/genesis.Genesis) in the genesis codec: its UTXOs (each with
// the allocation's message), the validator and chain txs, the start time, the initial supply and
// the message. Its ID (sha256 of the bytes) is the genesis block's parent.
import { type Reader, unmarshal, versioned } from '../../../encoding/packer.js';
import type { SignedTx, UTXO } from '../types.js';
import { marshalUTXO, readTx, readUTXO } from './tx.js';

export interface PGenesis {
  utxos: Array<{ utxo: UTXO; message: Uint8Array }>;
  validators: SignedTx[];
  chains: SignedTx[];
  timestamp: bigint;
  initialSupply: bigint;
  message: Uint8Array;
}

function list<T>(r: Reader, item: (r: Reader) => T): T[] {
  const n = r.sliceLength();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

export function marshalGenesis(g: PGenesis): Uint8Array {
  const w = versioned().u32(g.utxos.length);
  for (const { utxo, message } of g.utxos) w.fixed(marshalUTXO(utxo).subarray(2)).byteSlice(message);
  w.u32(g.validators.length);
  for (const tx of g.validators) w.fixed(tx.bytes.subarray(2));
  w.u32(g.chains.length);
  for (const tx of g.chains) w.fixed(tx.bytes.subarray(2));
  return w.u64(g.timestamp).u64(g.initialSupply).string(g.message).finish();
}

export function parseGenesis(bytes: Uint8Array): PGenesis {
  return unmarshal(bytes, (r) => ({
    utxos: list(r, (r) => ({ utxo: readUTXO(r), message: r.byteSlice() })),
    validators: list(r, readTx),
    chains: list(r, readTx),
    timestamp: r.u64(),
    initialSupply: r.u64(),
    message: r.string(),
  }));
}
