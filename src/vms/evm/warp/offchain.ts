// The chain config's warp-off-chain-messages as subnet-evm's and coreth's warp backend takes them
// (warp/backend.go initOffChainMessages): unsigned messages no block sent that this node will sign
// anyway, such as the TeleporterRegistry's addProtocolVersion. Each must parse, carry this network's
// ID and this chain's ID as its source, and hold an AddressedCall; otherwise the chain does not start,
// with the backend's error. They are found by ID (the sha256 of their bytes) like the messages the
// chain's txs sent.
import { ChainConfigError } from '../chainfile.js';
import { messageID, parseAddressedCall, parseUnsignedMessage } from '../../components/warp/message.js';

/** The messages by ID (unprefixed lowercase hex); throws the backend's start error for a bad one. */
export function offChainMessages(messages: Uint8Array[], networkID: number, chainID: Uint8Array): Map<string, Uint8Array> {
  const byID = new Map<string, Uint8Array>();
  messages.forEach((bytes, i) => {
    let parsed: ReturnType<typeof parseUnsignedMessage>;
    try {
      parsed = parseUnsignedMessage(bytes);
    } catch (err) {
      throw new ChainConfigError(`failed to parse off-chain message at index ${i}: ${(err as Error).message}`);
    }
    if (parsed.networkID !== networkID) throw new ChainConfigError(`wrong networkID at index ${i}`);
    if (Buffer.compare(parsed.sourceChainID, chainID) !== 0) throw new ChainConfigError(`wrong SourceChainID at index ${i}`);
    try {
      parseAddressedCall(parsed.payload);
    } catch (err) {
      throw new ChainConfigError(`failed to parse off-chain message at index ${i} as AddressedCall: ${(err as Error).message}`);
    }
    byID.set(Buffer.from(messageID(bytes)).toString('hex'), bytes);
  });
  return byID;
}
