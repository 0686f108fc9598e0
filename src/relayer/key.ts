// The relayer's account: one fixed key, the same on every run and every chain, so that tests and
// allowedRelayerAddresses can name it (printed in the banner, returned by emulator.icmInfo). It is
// keccak256("avalanche-emulator/icm-relayer"), public like ewoq's: never use it on a real network.
import { fromHex0x } from '../encoding/bytes.js';

export const RELAYER_KEY = fromHex0x('0x1b65827961677dc70eae7ec522724075e6c1e37255123cbfa592a0b208114dc6');
/** Its address, a constant: deriving it would load the curve at start-up (test/icm-relayer.test.ts checks that it is the key's). */
export const RELAYER_ADDRESS = '0x638D57dEff35eb7ebe29E3DF526d8E6729378983';
