// The C-Chain's avax API at /ext/bc/C/avax (coreth atomic/vm/api.go, gorilla JSON-RPC):
// getUTXOs of what other chains exported to C, issueTx, getAtomicTx and getAtomicTxStatus.
import type { Aliaser } from '../../../chains/aliases.js';
import type { SharedMemory } from '../../../chains/sharedmemory.js';
import { encodeCB58, idFromString } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';
import { decodeHex, encodeHex } from '../../../encoding/hex.js';
import { method, RpcError, rpcTry, serviceErrors, type ServiceDef } from '../../../rpc/method.js';
import { arrayOf, string, struct, uint32 } from '../../../rpc/schema.js';
import { type ChainAddressContext, formatLocalAddress, parseServiceAddress } from './address.js';
import type { AtomicBackend } from './backend.js';
import { CodecError, parseUTXO } from './codec.js';
import { AtomicError } from './errors.js';
import { type Encoding, encoding, id } from '../../components/avax/fields.js';

/** maxGetUTXOsAddrs, maxUTXOsToFetch */
const MAX_ADDRESSES = 1024;
const MAX_UTXOS = 1024;

const errors = serviceErrors({
  noAddresses: () => 'no addresses provided',
  tooManyAddresses: (n: number) => `number of addresses given, ${n}, exceeds maximum, ${MAX_ADDRESSES}`,
  noSourceChain: () => 'no source chain provided',
  sourceChain: (chain: string, why: string) => `problem parsing source chainID ${goQuote(chain)}: ${why}`,
  address: (address: string, why: string) => `couldn't parse address ${goQuote(address)}: ${why}`,
  startAddress: (address: string, why: string) => `couldn't parse start index address ${goQuote(address)}: ${why}`,
  startUTXO: (why: string) => `couldn't parse start index utxo: ${why}`,
  parsingUTXO: (why: string) => `problem retrieving UTXOs: error parsing UTXO: ${why}`,
  encodingUTXO: (why: string) => `problem encoding utxo: ${why}`,
  decodingTx: (why: string) => `problem decoding transaction: ${why}`,
  parsingTx: (why: string) => `problem parsing transaction: ${why}`,
  nilTxID: () => 'nil transaction ID',
  txNotFound: (txID: string) => `could not find tx ${txID}`,
});

/** formatting.Encode: JSON cannot carry bytes here. */
function encodeBytes(bytes: Uint8Array, enc: Encoding): string {
  if (enc === 'json') throw new Error('unsupported encoding in method');
  return encodeHex(bytes, enc);
}

export interface AvaxServiceDeps {
  backend: AtomicBackend;
  shared: SharedMemory;
  aliases: Aliaser;
  hrp: string;
}

export function avaxService(d: AvaxServiceDeps): ServiceDef {
  const chainID = d.backend.params.chainID;
  const addressCtx: ChainAddressContext = { hrp: d.hrp, chainID: encodeCB58(chainID), aliases: d.aliases };
  const isZero = (b: Uint8Array) => b.every((x) => x === 0);

  return {
    name: 'avax',
    methods: {
      getUTXOs: method(
        struct({ addresses: arrayOf(string), sourceChain: string, limit: uint32, startIndex: struct({ address: string, utxo: string }), encoding }),
        async (args) => {
          if (args.addresses.length === 0) throw errors.noAddresses();
          if (args.addresses.length > MAX_ADDRESSES) throw errors.tooManyAddresses(args.addresses.length);
          if (args.sourceChain === '') throw errors.noSourceChain();
          const source = rpcTry(
            () => idFromString(d.aliases.lookup(args.sourceChain)),
            (m) => errors.sourceChain(args.sourceChain, m).message,
          );
          const addrs = new Map<string, Uint8Array>();
          for (const a of args.addresses) {
            const raw = rpcTry(
              () => parseServiceAddress(a, addressCtx),
              (m) => errors.address(a, m).message,
            );
            addrs.set(Buffer.from(raw).toString('hex'), raw);
          }
          let startAddr: Uint8Array = new Uint8Array(20);
          let startUTXO: Uint8Array = new Uint8Array(32);
          if (args.startIndex.address !== '' || args.startIndex.utxo !== '') {
            startAddr = rpcTry(
              () => parseServiceAddress(args.startIndex.address, addressCtx),
              (m) => errors.startAddress(args.startIndex.address, m).message,
            );
            startUTXO = rpcTry(
              () => idFromString(args.startIndex.utxo),
              (m) => errors.startUTXO(m).message,
            );
          }
          const limit = args.limit <= 0n || args.limit > BigInt(MAX_UTXOS) ? MAX_UTXOS : Number(args.limit);
          const sorted = [...addrs.keys()].sort().map((k) => addrs.get(k)!);
          const page = await d.shared.indexed(chainID, source, sorted, startAddr, startUTXO, limit);
          // Each UTXO is parsed with the atomic codec, then marshalled back, as coreth serves it.
          for (const v of page.values) {
            try {
              parseUTXO(v);
            } catch (err) {
              if (err instanceof CodecError) throw errors.parsingUTXO(err.message);
              throw err;
            }
          }
          const utxos = page.values.map((v) =>
            rpcTry(
              () => encodeBytes(v, args.encoding),
              (m) => errors.encodingUTXO(m).message,
            ),
          );
          return {
            numFetched: String(utxos.length),
            utxos,
            endIndex: { address: formatLocalAddress(page.lastTrait, addressCtx), utxo: encodeCB58(page.lastKey) },
            encoding: args.encoding,
          };
        },
      ),

      issueTx: method(struct({ tx: string, encoding }), async ({ tx, encoding: enc }) => {
        const bytes = rpcTry(
          () => {
            if (enc === 'json') throw new Error('unsupported encoding in method');
            return decodeHex(tx, enc);
          },
          (m) => errors.decodingTx(m).message,
        );
        try {
          return { txID: encodeCB58(await d.backend.issue(bytes)) };
        } catch (err) {
          if (err instanceof CodecError) throw errors.parsingTx(err.message);
          if (err instanceof AtomicError) throw new RpcError(err.message);
          throw err;
        }
      }),

      getAtomicTxStatus: method(struct({ txID: id }), async ({ txID }) => {
        if (isZero(txID)) throw errors.nilTxID();
        const found = await d.backend.lookup(txID);
        if (!found) return { status: 'Unknown' };
        return found.height === undefined ? { status: found.status } : { status: found.status, blockHeight: String(found.height) };
      }),

      getAtomicTx: method(struct({ txID: id, encoding }), async ({ txID, encoding: enc }) => {
        if (isZero(txID)) throw errors.nilTxID();
        const found = await d.backend.lookup(txID);
        if (!found) throw errors.txNotFound(encodeCB58(txID));
        const text = rpcTry(() => encodeBytes(found.tx.bytes, enc));
        return found.height === undefined ? { tx: text, encoding: enc } : { tx: text, encoding: enc, blockHeight: String(found.height) };
      }),
    },
  };
}
