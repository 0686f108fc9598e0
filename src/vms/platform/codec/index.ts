// The platformvm codec: txs, UTXOs, blocks and the genesis in linear codec v0.
export { CodecError, MAX_SIZE } from '../../../encoding/packer.js';
export { buildTx, marshalUTXO, parseTx, parseUTXO, UnsupportedTxError } from './tx.js';
export { buildGenesisBlock, buildOptionBlock, buildProposalBlock, buildStandardBlock, parseBlock } from './block.js';
export { marshalGenesis, parseGenesis, type PGenesis } from './genesis.js';
export { typeName } from './slots.js';
