// listIcmMessages: the ICM messages the node's chains sent and received, newest first, each as
// pending (sent, not yet delivered), delivered, or delivered_source_not_indexed (received from a
// chain this node does not run), with the hosted API's filters.
import { toChecksumAddress } from '@ethereumjs/util';
import { encodeCB58 } from '../../encoding/cb58.js';
import type { Database } from '../../storage/db.js';
import type { DataHandler } from '../http.js';
import type { PageTokens } from '../pages.js';
import { checkNetwork } from '../primary/handlers.js';
import type { EvmSource } from './chains.js';
import { ICM_PART, ICM_TIME, type IcmReceive, type IcmSend, partKey, TIME_KIND_AT } from './icm.js';
import { tokenInfo } from './tokens.js';
import { fromHex0x } from '../../encoding/bytes.js';

const cb58OfHex = (h: string) => encodeCB58(fromHex0x(h));
const checksum = (a: string) => toChecksumAddress(a);

export function icmHandlers(db: () => Database, sources: () => EvmSource[], pages: () => Promise<PageTokens>): Record<string, DataHandler> {
  const read = async <T>(key: Uint8Array): Promise<T | undefined> => {
    const v = await db().get(key);
    return v ? (JSON.parse(Buffer.from(v).toString('utf8')) as T) : undefined;
  };
  /** A chain named by blockchain ID or EVM chain ID, as its blockchain ID. */
  const blockchainOf = (id: string) => sources().find((s) => String(s.evm.chainId) === id || s.blockchainID === id)?.blockchainID ?? id;
  const evmChainIdOf = (blockchainID: string) => {
    const s = sources().find((x) => x.blockchainID === blockchainID);
    return s ? String(s.evm.chainId) : '';
  };

  return {
    listIcmMessages: async ({ params }) => {
      if (params.network !== undefined) checkNetwork(params.network);
      const size = Number(params.pageSize);
      const filter = {
        source: typeof params.sourceBlockchainId === 'string' ? blockchainOf(params.sourceBlockchainId) : undefined,
        destination: typeof params.destinationBlockchainId === 'string' ? blockchainOf(params.destinationBlockchainId) : undefined,
        either: typeof params.blockchainId === 'string' ? blockchainOf(params.blockchainId) : undefined,
        to: typeof params.to === 'string' ? params.to.toLowerCase() : undefined,
        from: typeof params.from === 'string' ? params.from.toLowerCase() : undefined,
      };
      const scope = `icm:${JSON.stringify(filter)}`;
      const tokens = await pages();
      const below = typeof params.pageToken === 'string' ? Buffer.from(tokens.read<string>(scope, params.pageToken), 'hex') : Uint8Array.of(ICM_TIME + 1);
      for (const s of sources()) await s.follower.settled();
      const messages: unknown[] = [];
      let last: Uint8Array | undefined;
      let more = false;
      let bound: Uint8Array = below;
      scan: for (;;) {
        const keys = await db().entries({ gte: Uint8Array.of(ICM_TIME), lt: bound, reverse: true, limit: 256 });
        if (keys.length === 0) break;
        for (const [k] of keys) {
          bound = k;
          const kind = k[TIME_KIND_AT];
          const id = k.subarray(TIME_KIND_AT + 1);
          const send = await read<IcmSend>(partKey('send', id));
          // A delivered message is listed once, at its send, when the send is on a chain this node follows.
          if (kind === ICM_PART.receive && send) continue;
          const receive = await read<IcmReceive>(partKey('receive', id));
          const m = (send ?? receive)!.message;
          const source = send ? send.source : cb58OfHex(receive!.source);
          const destination = cb58OfHex(m.destinationBlockchainID);
          if (filter.source && filter.source !== source) continue;
          if (filter.destination && filter.destination !== destination) continue;
          if (filter.either && filter.either !== source && filter.either !== destination) continue;
          if (filter.to && filter.to !== m.to) continue;
          if (filter.from && filter.from !== m.from) continue;
          if (messages.length === size) {
            more = true;
            break scan;
          }
          last = k;
          const sourceChain = sources().find((x) => x.blockchainID === source);
          const fee = send && sourceChain ? await tokenInfo(sourceChain.evm, Buffer.from(send.feeToken.slice(2), 'hex')) : undefined;
          messages.push({
            messageId: `0x${Buffer.from(id).toString('hex')}`,
            icmContractAddress: checksum((send ?? receive)!.contract),
            sourceBlockchainId: source,
            destinationBlockchainId: destination,
            sourceEvmChainId: evmChainIdOf(source),
            destinationEvmChainId: evmChainIdOf(destination),
            messageNonce: m.nonce,
            from: checksum(m.from),
            to: checksum(m.to),
            data: m.data,
            messageExecuted: (await db().get(partKey('executed', id))) !== undefined,
            receipts: m.receipts.map((r) => ({ receivedMessageNonce: r.receivedMessageNonce, relayerRewardAddress: checksum(r.relayerRewardAddress) })),
            receiptDelivered: (await db().get(partKey('receipt', id))) !== undefined,
            rewardDetails: {
              address: checksum(send?.feeToken ?? '0x0000000000000000000000000000000000000000'),
              name: fee?.name ?? '',
              symbol: fee?.symbol ?? '',
              decimals: fee?.decimals ?? 0,
              ercType: 'ERC-20',
              value: send?.feeAmount ?? '0',
            },
            ...(send ? { sourceTransaction: { txHash: send.txHash, timestamp: send.timestamp, gasSpent: send.gasSpent } } : {}),
            ...(receive
              ? {
                  destinationTransaction: {
                    txHash: receive.txHash,
                    timestamp: receive.timestamp,
                    gasSpent: receive.gasSpent,
                    rewardRedeemer: checksum(receive.rewardRedeemer),
                    delivererAddress: checksum(receive.deliverer),
                  },
                }
              : {}),
            status: send && receive ? 'delivered' : send ? 'pending' : 'delivered_source_not_indexed',
          });
        }
      }
      return { ...(more && last ? { nextPageToken: tokens.issue(scope, Buffer.from(last).toString('hex')) } : {}), messages };
    },
  };
}
