// Index API (avalanchego indexer/service.go), one endpoint per index: /ext/index/<alias>/<kind>.
import { encodeCB58, idFromString } from '../../encoding/cb58.js';
import { goQuote } from '../../encoding/goquote.js';
import { encodeHex } from '../../encoding/hex.js';
import { formatRFC3339Nano } from '../../encoding/time.js';
import type { Container, ContainerIndex } from '../../indexer/index.js';
import { method, serviceErrors, type ServiceDef } from '../../rpc/method.js';
import { struct, textual, uint64 } from '../../rpc/schema.js';

const MAX_FETCHED_BY_RANGE = 1024n;
type Encoding = 'hex' | 'hexc' | 'hexnc' | 'json';
const encoding = textual<Encoding>(
  (s) => {
    const e = s.toLowerCase();
    if (e !== 'hex' && e !== 'hexc' && e !== 'hexnc' && e !== 'json') throw new Error(`invalid encoding ${goQuote(s)}`);
    return e;
  },
  () => 'hex',
);
const id = textual<Uint8Array>(idFromString, () => new Uint8Array(32));

const errors = serviceErrors({
  unsupportedEncoding: () => 'unsupported encoding in method',
  noneAccepted: () => 'no containers have been accepted',
  noContainerAt: (index: bigint) => `no container at index ${index}`,
  numToFetch: (n: bigint) => `numToFetch must be in [1,${MAX_FETCHED_BY_RANGE}] but is ${n}`,
  startAfterLast: (start: bigint, last: bigint) => `start index (${start}) > last accepted index (${last})`,
  notFound: () => 'not found',
});

/** The container reply, in the real node's key order; json is refused only once the container is found. */
function containerJson(c: Container, enc: Encoding) {
  if (enc === 'json') throw errors.unsupportedEncoding();
  return { id: encodeCB58(c.id), bytes: encodeHex(c.bytes, enc), timestamp: formatRFC3339Nano(c.timestampNs), encoding: enc, index: String(c.index) };
}

export function indexService(index: ContainerIndex): ServiceDef {
  const last = () => {
    if (index.size === 0n) throw errors.noneAccepted();
    return index.size - 1n;
  };
  return {
    name: 'index',
    methods: {
      getLastAccepted: method(struct({ encoding }), async ({ encoding: enc }) => containerJson((await index.byIndex(last()))!, enc)),

      getContainerByIndex: method(struct({ index: uint64, encoding }), async (args) => {
        const c = await index.byIndex(args.index);
        if (!c) throw errors.noContainerAt(args.index);
        return containerJson(c, args.encoding);
      }),

      getContainerRange: method(struct({ startIndex: uint64, numToFetch: uint64, encoding }), async ({ startIndex, numToFetch, encoding: enc }) => {
        if (numToFetch < 1n || numToFetch > MAX_FETCHED_BY_RANGE) throw errors.numToFetch(numToFetch);
        const lastIndex = last();
        if (startIndex > lastIndex) throw errors.startAfterLast(startIndex, lastIndex);
        const end = startIndex + numToFetch - 1n < lastIndex ? startIndex + numToFetch - 1n : lastIndex;
        const containers = await index.range(startIndex, Number(end - startIndex + 1n));
        return { containers: containers.map((c) => containerJson(c, enc)) };
      }),

      getIndex: method(struct({ id }), async (args) => {
        const i = await index.indexOf(args.id);
        if (i === undefined) throw errors.notFound();
        return { index: String(i) };
      }),

      getContainerByID: method(struct({ id, encoding }), async (args) => {
        const i = await index.indexOf(args.id);
        const c = i === undefined ? undefined : await index.byIndex(i);
        if (!c) throw errors.notFound();
        return containerJson(c, args.encoding);
      }),

      isAccepted: method(struct({ id }), async (args) => ({ isAccepted: (await index.indexOf(args.id)) !== undefined })),
    },
  };
}
