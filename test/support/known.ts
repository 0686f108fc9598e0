// Known values the tests hold the node to, from outside it: the local network's (12345) chain IDs
// and AVAX asset ID from avalanchego's genesis test vectors, and the warp predicate encoding a
// client puts in a tx's access list (subnet-evm's predicate.New).

export const LOCAL_X_CHAIN_ID = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
export const LOCAL_C_CHAIN_ID = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
export const LOCAL_AVAX_ASSET_ID = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';

/** predicate.New: the message, the 0xff delimiter, zeros to a multiple of 32, in 32-byte chunks. */
export function predicateChunks(message: Uint8Array): Uint8Array[] {
  const padded = new Uint8Array(Math.floor(message.length / 32 + 1) * 32);
  padded.set(message);
  padded[message.length] = 0xff;
  return Array.from({ length: padded.length / 32 }, (_, i) => padded.slice(i * 32, i * 32 + 32));
}
