// coreth's header hash, recomputed from the JSON a client reads (eth_getBlockByNumber), in coreth's
// field order: what a client that checks block hashes does.
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** A JSON quantity as RLP wants it: big-endian, no leading zero byte, empty for 0. */
const q = (h: string): Uint8Array => {
  const n = BigInt(h);
  if (n === 0n) return new Uint8Array();
  const s = n.toString(16);
  return Buffer.from(s.padStart(s.length + (s.length % 2), '0'), 'hex');
};
const x = (h: string) => Buffer.from(h.slice(2), 'hex');

/** `b`: a block as JSON-RPC returns it. */
export function corethHeaderHash(b: any): string {
  const fields = [
    x(b.parentHash),
    x(b.sha3Uncles),
    x(b.miner),
    x(b.stateRoot),
    x(b.transactionsRoot),
    x(b.receiptsRoot),
    x(b.logsBloom),
    q(b.difficulty),
    q(b.number),
    q(b.gasLimit),
    q(b.gasUsed),
    q(b.timestamp),
    x(b.extraData),
    x(b.mixHash),
    x(b.nonce),
    x(b.extDataHash),
    q(b.baseFeePerGas),
    q(b.extDataGasUsed),
    q(b.blockGasCost),
    q(b.blobGasUsed),
    q(b.excessBlobGas),
    x(b.parentBeaconBlockRoot),
    q(b.timestampMilliseconds),
    q(b.minDelayExcess),
  ];
  return `0x${Buffer.from(keccak_256(RLP.encode(fields))).toString('hex')}`;
}
