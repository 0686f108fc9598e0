// The relayer's controls on the emulator API (emulator.icm*): what it knows, the messages and
// where each stands, pause and resume (all or one destination), deliver one now (past a pause, a
// delay or a drop), drop one (never delivered by the relayer: the Data API keeps it pending), delay
// deliveries by N destination blocks, and retry a failed one. No other tool has these: they let a
// test exercise timeouts, out-of-order delivery and lost messages.
import { toHex0x } from '../encoding/bytes.js';
import { method, RpcError } from '../rpc/method.js';
import { none, optional, string, struct, uint32 } from '../rpc/schema.js';
import { MESSENGER_ADDRESS, REGISTRY_ADDRESS } from '../vms/evm/index.js';
import type { MessageRecord, MessageState } from './records.js';
import type { IcmRelayer } from './relayer.js';

const STATES: MessageState[] = ['queued', 'sent', 'delivered', 'failed', 'dropped', 'skipped', 'unroutable'];

export interface IcmServiceDeps {
  relayer: IcmRelayer;
  /** A chain's ID (CB58) by ID or alias, if the node runs it. */
  chainID(idOrAlias: string): string | undefined;
}

/** A record as the API shows it: without the signed tx bytes. */
const shown = (r: MessageRecord) => {
  const { txBytes: _bytes, ...rest } = r;
  return rest;
};

const MESSAGE_ID = /^0x[0-9a-fA-F]{64}$/;

export function icmMethods(d: IcmServiceDeps) {
  const { relayer } = d;
  const followed = (id: string | undefined) => id !== undefined && relayer.followed().some((f) => f.id === id);
  const chain = (name: string | undefined) => {
    if (name === undefined) return undefined;
    const id = d.chainID(name);
    if (!followed(id)) throw new RpcError(`chain ${name} is not a chain the ICM relayer follows`);
    return id;
  };
  const found = async (messageID: string) => {
    if (!MESSAGE_ID.test(messageID)) throw new RpcError(`messageID must be a 32-byte 0x hex ICM message ID, got "${messageID}"`);
    const r = await relayer.record(messageID.toLowerCase());
    if (!r) throw new RpcError(`no ICM message ${messageID} is known to the relayer`);
    return r;
  };
  return {
    icmInfo: method(none, async () => ({
      messenger: toHex0x(MESSENGER_ADDRESS),
      registry: REGISTRY_ADDRESS.toLowerCase(),
      relayer: toHex0x(relayer.address),
      rewardAddress: toHex0x(relayer.rewardAddress),
      ...relayer.state,
      chains: await Promise.all(
        relayer.followed().map(async ({ id, chain: c }) => ({
          blockchainID: id,
          height: c.head.header.number.toString(),
          relayerBalance: (await relayer.balanceOn(id)).toString(),
        })),
      ),
    })),
    icmMessages: method(struct({ state: optional(string), source: optional(string), destination: optional(string), limit: optional(uint32) }), async (a) => {
      if (a.state !== undefined && !STATES.includes(a.state as MessageState)) throw new RpcError(`state must be one of ${STATES.join(', ')}, got "${a.state}"`);
      const source = chain(a.source);
      // A destination need not be followed: messages to a chain the node does not run are listed too.
      const destination = a.destination === undefined ? undefined : (d.chainID(a.destination) ?? a.destination);
      const limit = Math.min(Number(a.limit ?? 0n) || 100, 1000);
      const keep = (r: MessageRecord) =>
        (a.state === undefined || r.state === a.state) &&
        (source === undefined || r.source === source) &&
        (destination === undefined || r.destination === destination);
      return { messages: (await relayer.records(keep, limit)).map(shown) };
    }),
    icmPause: method(struct({ chain: optional(string) }), ({ chain: c }) => {
      relayer.pause(chain(c));
      return relayer.state;
    }),
    icmResume: method(struct({ chain: optional(string) }), ({ chain: c }) => {
      relayer.resume(chain(c));
      return relayer.state;
    }),
    icmDelay: method(struct({ blocks: uint32, messageID: optional(string) }), async ({ blocks, messageID }) => {
      if (messageID === undefined) {
        relayer.delayBlocks = Number(blocks);
        return relayer.state;
      }
      return relayer.exclusive(async () => {
        const r = await found(messageID);
        const dest = relayer.destinationOf(r);
        if (r.state !== 'queued' || !dest) throw new RpcError(`ICM message ${r.id} is ${r.state}: only a queued message can be delayed`);
        r.dueHeight = (dest.head.header.number + blocks).toString();
        await relayer.save(r);
        return shown(r);
      });
    }),
    icmDeliver: method(struct({ messageID: string }), ({ messageID }) =>
      relayer.exclusive(async () => {
        const r = await found(messageID);
        if (r.state === 'delivered' || r.state === 'sent') throw new RpcError(`ICM message ${r.id} is already ${r.state}`);
        if (!relayer.destinationOf(r)) throw new RpcError(`ICM message ${r.id} goes to ${r.destination}, which is not a chain of this node`);
        await relayer.deliver(r);
        const after = (await relayer.record(r.id))!;
        if (after.state === 'skipped') throw new RpcError(`ICM message ${r.id} was not delivered: ${after.reason}`);
        return shown(after);
      }),
    ),
    icmDrop: method(struct({ messageID: string }), ({ messageID }) =>
      relayer.exclusive(async () => {
        const r = await found(messageID);
        if (r.state === 'delivered' || r.state === 'sent') throw new RpcError(`ICM message ${r.id} is already ${r.state}`);
        r.state = 'dropped';
        await relayer.save(r);
        return shown(r);
      }),
    ),
    icmRetry: method(struct({ messageID: string }), ({ messageID }) =>
      relayer.exclusive(async () => {
        const r = await found(messageID);
        if (r.state !== 'failed' && r.state !== 'skipped' && r.state !== 'dropped')
          throw new RpcError(`ICM message ${r.id} is ${r.state}: only a failed, skipped or dropped message can be retried`);
        // Back in the queue, or waiting for its chain if the node does not run it.
        r.state = relayer.destinationOf(r) ? 'queued' : 'unroutable';
        r.attempts = 0;
        delete r.reason;
        await relayer.save(r);
        return shown(r);
      }),
    ),
  };
}
