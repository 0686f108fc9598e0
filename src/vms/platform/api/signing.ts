// emulator.aggregateSignatures: a P-Chain warp message signed as icm-services' signature-aggregator
// would collect it (avalanchego has no HTTP API for this; its validators answer ACP-118 requests
// over p2p). The message must pass the P-Chain's signatureRequestVerifier with the justification
// given; the signing subnet's validators whose keys this process holds sign it.
import { encodeCB58, idFromString } from '../../../encoding/cb58.js';
import { method, RpcError } from '../../../rpc/method.js';
import { string, struct, uint32 } from '../../../rpc/schema.js';
import { CodecError } from '../../../encoding/packer.js';
import { parseUnsignedMessage, type UnsignedMessage } from '../../components/warp/message.js';
import { aggregateFor, refusal, SigningError } from '../signing.js';
import type { PChain } from '../vm.js';
import { parseHex, strip0x } from '../../../encoding/bytes.js';

const bytesOfHex = (text: string, what: string): Uint8Array => {
  const bytes = parseHex(strip0x(text));
  if (!bytes) throw new RpcError(`failed to decode ${what}: invalid hex`);
  return bytes;
};

export function signingMethods(vm: () => PChain, networkID: number) {
  return {
    aggregateSignatures: method(
      struct({ message: string, justification: string, signingSubnetID: string, quorumPercentage: uint32 }),
      ({ message, justification, signingSubnetID, quorumPercentage }) => {
        const unsigned = bytesOfHex(message, 'message');
        let msg: UnsignedMessage;
        try {
          msg = parseUnsignedMessage(unsigned);
        } catch (err) {
          if (err instanceof CodecError) throw new RpcError(`failed to parse warp message: ${err.message}`);
          throw err;
        }
        const ledger = vm().state.ledger;
        const why = refusal(ledger, networkID, msg, bytesOfHex(justification, 'justification'));
        if (why) throw new RpcError(`failed to verify message: ${why}`);
        let subnet: Uint8Array = new Uint8Array(32);
        if (signingSubnetID !== '') {
          try {
            subnet = idFromString(signingSubnetID);
          } catch (err) {
            throw new RpcError(`invalid signingSubnetID: ${(err as Error).message}`);
          }
        }
        const quorum = quorumPercentage === 0n ? 67 : Number(quorumPercentage);
        if (quorum > 100) throw new RpcError('quorumPercentage must be at most 100');
        try {
          const signed = aggregateFor(ledger, subnet, unsigned, quorum);
          return { signedMessage: `0x${Buffer.from(signed).toString('hex')}`, signingSubnetID: encodeCB58(subnet) };
        } catch (err) {
          if (err instanceof SigningError) throw new RpcError(err.message);
          throw err;
        }
      },
    ),
  };
}
