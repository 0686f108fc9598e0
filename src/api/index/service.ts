// Index API (avalanchego indexer/service.go), one endpoint per index: /ext/index/<alias>/<kind>.
import { encodeCB58, idFromString } from '../../encoding/cb58.js';
import { goQuote } from '../../encoding/goquote.js';
import { encodeHex } from '../../encoding/hex.js';
import { formatRFC3339Nano } from '../../encoding/time.js';
import type { Container, ContainerIndex } from '../../indexer/index.js';
import { method, RpcError, type ServiceDef } from '../rpc.js';
import { struct, textual, uint64 } from '../schema.js';

const MAX_FETCHED_BY_RANGE = 1024n;
type Encoding = 'hex' | 'hexc' | 'hexnc' | 'json';
const encoding = textual<Encoding>((s) => {
  const e = s.toLowerCase();
  if (e !== 'hex' && e !== 'hexc' && e !== 'hexnc' && e !== 'json') throw new Error(`invalid encoding ${goQuote(s)}`);
  return e;
}, () => 'hex');
const id = textual<Uint8Array>(idFromString, () => new Uint8Array(32));

/** The container reply, in the real node's key order; json is refused only once the container is found. */
function containerJson(c: Container, enc: Encoding) {
  if (enc === 'json') throw new RpcError('unsupported encoding in method');
  return { id: encodeCB58(c.id), bytes: encodeHex(c.bytes, enc), timestamp: formatRFC3339Nano(c.timestampNs), encoding: enc, index: String(c.index) };
}

export function indexService(index: ContainerIndex): ServiceDef {
  const last = () => {
    if (index.size === 0n) throw new RpcError('no containers have been accepted');
    return index.size - 1n;
  };
  return {
    name: 'index',
    methods: {
      getLastAccepted: method(struct({ encoding }), async ({ encoding: enc }) => containerJson((await index.byIndex(last()))!, enc)),

      getContainerByIndex: method(struct({ index: uint64, encoding }), async (args) => {
        const c = await index.byIndex(args.index);
        if (!c) throw new RpcError(`no container at index ${args.index}`);
        return containerJson(c, args.encoding);
      }),

      getContainerRange: method(struct({ startIndex: uint64, numToFetch: uint64, encoding }), async ({ startIndex, numToFetch, encoding: enc }) => {
        if (numToFetch < 1n || numToFetch > MAX_FETCHED_BY_RANGE) throw new RpcError(`numToFetch must be in [1,${MAX_FETCHED_BY_RANGE}] but is ${numToFetch}`);
        const lastIndex = last();
        if (startIndex > lastIndex) throw new RpcError(`start index (${startIndex}) > last accepted index (${lastIndex})`);
        const end = startIndex + numToFetch - 1n < lastIndex ? startIndex + numToFetch - 1n : lastIndex;
        const containers = await index.range(startIndex, Number(end - startIndex + 1n));
        return { containers: containers.map((c) => containerJson(c, enc)) };
      }),

      getIndex: method(struct({ id }), async (args) => {
        const i = await index.indexOf(args.id);
        if (i === undefined) throw new RpcError('not found');
        return { index: String(i) };
      }),

      getContainerByID: method(struct({ id, encoding }), async (args) => {
        const i = await index.indexOf(args.id);
        const c = i === undefined ? undefined : await index.byIndex(i);
        if (!c) throw new RpcError('not found');
        return containerJson(c, args.encoding);
      }),

      isAccepted: method(struct({ id }), async (args) => ({ isAccepted: (await index.indexOf(args.id)) !== undefined })),
    },
  };
}
