// The C-Chain's avax API at /ext/bc/C/avax (coreth atomic/vm/api.go, gorilla JSON-RPC):
// getUTXOs of what other chains exported to C, issueTx, getAtomicTx and getAtomicTxStatus.
import type { Aliaser } from '../../../chains/aliases.js';
import type { SharedMemory } from '../../../chains/sharedmemory.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';
import { method, RpcError, rpcTry, serviceErrors, type ServiceDef } from '../../../rpc/method.js';
import { string, struct } from '../../../rpc/schema.js';
import { type ChainAddressContext, formatLocalAddress, parseServiceAddress } from './address.js';
import type { AtomicBackend } from './backend.js';
import { CodecError, parseUTXO } from './codec.js';
import { AtomicError } from './errors.js';
import { decodeBytes, encodeBytes, encoding, id } from '../../components/avax/fields.js';
import { atomicUTXOs, getUTXOsArgs, readUTXOsArgs, utxosReply } from '../../components/avax/getutxos.js';

const errors = serviceErrors({
  address: (address: string, why: string) => `couldn't parse address ${goQuote(address)}: ${why}`,
  parsingUTXO: (why: string) => `problem retrieving UTXOs: error parsing UTXO: ${why}`,
  encodingUTXO: (why: string) => `problem encoding utxo: ${why}`,
  decodingTx: (why: string) => `problem decoding transaction: ${why}`,
  parsingTx: (why: string) => `problem parsing transaction: ${why}`,
  nilTxID: () => 'nil transaction ID',
  txNotFound: (txID: string) => `could not find tx ${txID}`,
});

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
      getUTXOs: method(getUTXOsArgs, async (args) => {
        const req = readUTXOsArgs(args, {
          parseAddress: (a) => parseServiceAddress(a, addressCtx),
          addressError: (a, why) => errors.address(a, why).message,
          lookupChain: (alias) => d.aliases.lookup(alias),
        });
        const page = await atomicUTXOs(d.shared, chainID, req);
        // Each UTXO is parsed with the atomic codec, then marshalled back, as coreth serves it.
        for (const v of page.utxos) {
          try {
            parseUTXO(v);
          } catch (err) {
            if (err instanceof CodecError) throw errors.parsingUTXO(err.message);
            throw err;
          }
        }
        const utxos = page.utxos.map((v) =>
          rpcTry(
            () => encodeBytes(v, args.encoding),
            (m) => errors.encodingUTXO(m).message,
          ),
        );
        return utxosReply(utxos, formatLocalAddress(page.endAddr, addressCtx), page.endUTXO, args.encoding);
      }),

      issueTx: method(struct({ tx: string, encoding }), async ({ tx, encoding: enc }) => {
        const bytes = rpcTry(
          () => decodeBytes(tx, enc),
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
