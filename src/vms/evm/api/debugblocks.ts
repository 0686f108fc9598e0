// The rest of coreth's debug-tracer API (eth/tracers/api.go), beside debug.ts: a block given as its
// RLP, traced as debug_traceBlockByHash traces a block the chain holds; the state root after each tx
// of a block (debug_intermediateRoots); and a bad block's trace, which the node never has (it builds
// every block it accepts). And the debug-file-tracer API's block read from a file.
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { RLP } from '@ethereumjs/rlp';
import { toHex0x } from '../../../encoding/bytes.js';
import { method, RpcError } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import { decodeHeader, headerHash } from '../header.js';
import { blockTxs } from '../queries.js';
import type { StoredBlock } from '../store.js';
import type { TraceConfig } from '../trace/index.js';
import { decodeTraceConfig } from '../trace/config.js';
import type { Field } from '../../../rpc/schema.js';
import { replay, replayErrors, replayTxs } from '../trace/replay.js';
import { blockErrors } from './blocks.js';
import { rpcEnv, traceConfig, traceWholeBlock, wrap } from './debug.js';
import { bytes, hash, text } from './fields.js';

/** A block file larger than this is refused (Go's os.ReadFile reads any). */
const MAX_BLOCK_FILE = 64 * 1024 * 1024;

/**
 * Opened without blocking and without taking a terminal: a FIFO or a terminal opened blocking holds
 * one of libuv's four threads until a writer comes, and a few such calls would stall every file and
 * LevelDB read of the node. Only a regular file is then read (Go would read a FIFO, a device, any).
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

export const blockTraceErrors = {
  decode: (why: string) => new RpcError(`could not decode block: ${why}`),
  readFile: (why: string) => new RpcError(`could not read file: ${why}`),
  badBlock: (h: Uint8Array) => new RpcError(`bad block ${toHex0x(h)} not found`),
  notFound: (h: Uint8Array) => new RpcError(`block ${toHex0x(h)} not found`),
};

/** A block's RLP as the chain encodes its blocks (coreth's: version and extData after the uncles), with its txs decoded. */
function decodedBlock(chain: EvmChain, blob: Uint8Array): StoredBlock {
  try {
    const fields = RLP.decode(blob) as unknown as [Uint8Array[], Array<Uint8Array | Uint8Array[]>, unknown, unknown, Uint8Array?];
    if (!Array.isArray(fields) || !Array.isArray(fields[0]) || !Array.isArray(fields[1])) throw new Error('expected input list for types.Block');
    const header = decodeHeader(fields[0], chain.flavor.layout);
    const extData = fields[4];
    const block: StoredBlock = { header, hash: headerHash(header), body: fields[1], size: blob.length, ...(extData?.length ? { extData } : {}) };
    blockTxs(chain, block);
    return block;
  } catch (err) {
    throw blockTraceErrors.decode((err as Error).message);
  }
}

/**
 * TraceBlock: the block the chain holds under the blob's hash (its txs' recorded senders), else the
 * blob's own block on top of its parent, which must be there: a parent past the head is
 * unfinalized, one unknown is not found.
 */
async function traceBlob(chain: EvmChain, blob: Uint8Array, config: TraceConfig | undefined) {
  const block = decodedBlock(chain, blob);
  const held = await chain.store.block(block.hash);
  if (!held && block.header.number > 0n && block.header.number - 1n > chain.head.header.number) throw blockErrors.unfinalized();
  return traceWholeBlock(chain, held ?? block, config);
}

/**
 * os.ReadFile's error as Go writes it (*PathError: op, path, errno text): Node's message is
 * `CODE: strerror text, op 'path'`, and Go prints the same strerror text.
 */
function goFileError(err: NodeJS.ErrnoException, file: string, op: string): string {
  const text = /^[A-Z0-9]+: (.*?), \w+(?: '.*')?$/.exec(err.message)?.[1] ?? err.message;
  return `${op} ${file}: ${text}`;
}

/** What a block file is read in: a piece at a time, so a small file costs no more than itself. */
const READ_CHUNK = 64 * 1024;

const tooLarge = (file: string) => blockTraceErrors.readFile(`${file}: larger than ${MAX_BLOCK_FILE} bytes`);

/** Refuses what is not a regular file of at most MAX_BLOCK_FILE bytes. */
function checkRegular(info: Stats, file: string): void {
  if (info.isDirectory()) throw blockTraceErrors.readFile(`read ${file}: is a directory`);
  if (!info.isFile()) throw blockTraceErrors.readFile(`read ${file}: not a regular file`);
  if (info.size > MAX_BLOCK_FILE) throw tooLarge(file);
}

/**
 * A block file's bytes: a regular file of at most MAX_BLOCK_FILE. Looked at before it is opened
 * (opening a device can do something: a watchdog arms), and again once open (it may have been
 * swapped in between).
 */
async function readBlockFile(file: string): Promise<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let op = 'open';
  try {
    checkRegular(await stat(file), file);
    handle = await open(file, OPEN_FLAGS);
    op = 'read';
    checkRegular(await handle.stat(), file);
    const pieces: Buffer[] = [];
    let length = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(READ_CHUNK), 0, READ_CHUNK);
      if (bytesRead === 0) break;
      pieces.push(buffer.subarray(0, bytesRead));
      length += bytesRead;
      if (length > MAX_BLOCK_FILE) throw tooLarge(file);
    }
    return new Uint8Array(Buffer.concat(pieces, length));
  } catch (err) {
    if (err instanceof RpcError) throw err;
    throw blockTraceErrors.readFile(goFileError(err as NodeJS.ErrnoException, file, op));
  } finally {
    await handle?.close();
  }
}

/** IntermediateRoots: the state root after each tx of the block (null for a block without txs). */
async function intermediateRoots(chain: EvmChain, h: Uint8Array): Promise<string[] | null> {
  const block = await chain.store.block(h);
  if (!block) throw blockTraceErrors.notFound(h);
  if (block.header.number === 0n) throw replayErrors.genesis();
  const env = rpcEnv(chain);
  const baseFee = block.header.baseFee ?? 0n;
  const roots: string[] = [];
  await replayTxs(env, block, block.body.length - 1, async (vm, tx) => {
    await replay(env, vm, block, tx, baseFee);
    roots.push(toHex0x(await vm.stateManager.getStateRoot()));
  });
  return roots.length > 0 ? roots : null;
}

/** debug_traceBlock: the tracer API's and the file tracer's (both embed coreth's baseAPI). */
const traceBlockMethod = (chain: EvmChain) =>
  method(positional([bytes, traceConfig], 1), ([blob, config]) => wrap(() => traceBlob(chain, blob as Uint8Array, config as TraceConfig | undefined)));

/** tracers.StdTraceConfig, the standardTrace*ToFile methods' config (decoded for its errors only). */
const stdTraceConfig: Field<unknown> = { decode: (v) => decodeTraceConfig(v, 'StdTraceConfig'), zero: () => undefined };

/** debug_traceBadBlock and its file tracer's twin (with its own config): the node builds every block it accepts, so has no bad one. */
const badBlockMethod = (config: Field<unknown>) =>
  method(positional([hash, config], 1), async ([h]) => {
    throw blockTraceErrors.badBlock(h as Uint8Array);
  });

/**
 * coreth's debug-file-tracer API, less standardTraceBlockToFile (which writes traces into files on
 * the node's machine): a block read from a file, or given as its RLP.
 */
export function fileTraceMethods(chain: EvmChain) {
  return {
    traceBlock: traceBlockMethod(chain),
    standardTraceBadBlockToFile: badBlockMethod(stdTraceConfig),
    traceBlockFromFile: method(positional([text, traceConfig], 1), async ([file, config]) =>
      wrap(async () => traceBlob(chain, await readBlockFile(file as string), config as TraceConfig | undefined)),
    ),
  };
}

/** The debug-tracer API's methods besides debug.ts's. */
export function blockTraceMethods(chain: EvmChain) {
  return {
    traceBlock: traceBlockMethod(chain),
    traceBadBlock: badBlockMethod(traceConfig),
    intermediateRoots: method(positional([hash, traceConfig], 1), ([h]) => wrap(() => intermediateRoots(chain, h as Uint8Array))),
  };
}
