// The node's state as one value: every entry of the store, with the network it belongs to and the
// node clock's offset. Snapshots keep it in memory; dumps write it gzipped, in a format of our own
// (a dump is only read by this emulator): a magic, a version, then length-prefixed keys and values.
import { constants } from 'node:buffer';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Bytes } from './db.js';

export class StateError extends Error {}

export interface NodeState {
  networkId: number;
  /** The node clock's offset from the wall clock when it was taken (time travel). */
  clockOffsetNs: bigint;
  entries: Array<[Bytes, Bytes]>;
}

const MAGIC = Buffer.from('avalanche-emulator/state\n', 'utf8');
const VERSION = 1;

export function encodeState(state: NodeState): Uint8Array {
  let size = MAGIC.length + 1 + 4 + 8 + 4;
  for (const [k, v] of state.entries) size += 8 + k.length + v.length;
  const out = Buffer.alloc(size);
  let at = MAGIC.copy(out, 0);
  at = out.writeUInt8(VERSION, at);
  at = out.writeUInt32BE(state.networkId, at);
  at = out.writeBigInt64BE(state.clockOffsetNs, at);
  at = out.writeUInt32BE(state.entries.length, at);
  for (const [k, v] of state.entries) {
    at = out.writeUInt32BE(k.length, at);
    at += Buffer.from(k).copy(out, at);
    at = out.writeUInt32BE(v.length, at);
    at += Buffer.from(v).copy(out, at);
  }
  return gzipSync(out);
}

/** The largest Buffer (4 GiB on 64-bit Node 20): zlib refuses a larger output limit, and no state past it can be read. */
const MAX_BUFFER = constants.MAX_LENGTH;

/**
 * How large a state may be unzipped: a dump's entries (trie nodes, hashes, signatures) compress a few
 * times at most, while a 4 MiB gzip bomb sent to anvil_loadState would unzip to 4 GiB. So at most 100
 * times the zipped size, and 64 MiB whatever the size; never past the largest Buffer (a dump over
 * some 43 MB zipped would otherwise ask zlib for a limit it refuses).
 */
export const maxUnzipped = (zipped: number): number => Math.min(Math.max(64 * 1024 * 1024, zipped * 100), MAX_BUFFER);

export function decodeState(gz: Uint8Array): NodeState {
  const limit = maxUnzipped(gz.length);
  let raw: Buffer;
  try {
    raw = gunzipSync(gz, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      if (limit === MAX_BUFFER) throw new StateError(`the state unzips to over ${MAX_BUFFER} bytes, more than this emulator can read`);
      throw new StateError('not a state dumped by the emulator: it unzips to over 100 times its size');
    }
    throw new StateError('not a state dumped by the emulator: not gzip data');
  }
  if (raw.length < MAGIC.length + 17 || !raw.subarray(0, MAGIC.length).equals(MAGIC)) throw new StateError('not a state dumped by the emulator');
  let at = MAGIC.length;
  const version = raw.readUInt8(at++);
  if (version !== VERSION) throw new StateError(`state format version ${version} is not one this emulator reads (${VERSION})`);
  const networkId = raw.readUInt32BE(at);
  const clockOffsetNs = raw.readBigInt64BE(at + 4);
  const count = raw.readUInt32BE(at + 12);
  at += 16;
  const take = (): Bytes => {
    if (at + 4 > raw.length) throw new StateError('the state is truncated');
    const n = raw.readUInt32BE(at);
    if (at + 4 + n > raw.length) throw new StateError('the state is truncated');
    const bytes = new Uint8Array(raw.subarray(at + 4, at + 4 + n));
    at += 4 + n;
    return bytes;
  };
  const entries: Array<[Bytes, Bytes]> = [];
  for (let i = 0; i < count; i++) entries.push([take(), take()]);
  if (at !== raw.length) throw new StateError('the state has trailing bytes');
  return { networkId, clockOffsetNs, entries };
}
