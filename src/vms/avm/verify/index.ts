// X-Chain (AVM) transaction verification: the syntactic and semantic checks of avalanchego's
// avm txs/executor, with its exact error texts. The VM calls verifySyntax, prefetches
// requiredReads(tx), then calls verifySemantics against the last accepted state.
export { VerifyError } from '../../components/verify/errors.js';
export { verifySyntax, expectedCredentials } from './syntactic.js';
export { verifySemantics, requiredReads } from './semantic.js';
export { recoverAddress, signHash, addressOfPrivateKey, addressOfPublicKey, txHash } from '../../components/secp256k1fx/secp.js';

export type { ChainParams, SemanticState } from './params.js';
