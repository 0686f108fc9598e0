// The X-Chain codec: avalanchego's linear codec v0 for txs, UTXOs and blocks, the values derived
// from them (IDs, created and consumed UTXOs, sort keys), and their JSON.
export { CodecError, MAX_SIZE } from '../../../encoding/packer.js';
export { buildTx, marshalUnsignedTx, marshalUTXO, parseTx, parseUTXO } from './tx.js';
export { parseGenesis, type GenesisAsset } from './genesis.js';
export { buildBlock, parseBlock } from './block.js';
export {
  compareBytes,
  operationOutputs,
  operationSortKey,
  outputAddresses,
  outputSortKey,
  txInputIDs,
  txOutputs,
  utxoInputID,
} from './effects.js';
export { blockJson, goJsonString, txJson, type JsonContext } from './json.js';
