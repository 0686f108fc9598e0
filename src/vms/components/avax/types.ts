// The avax component's structures (vms/components/avax) as every VM with UTXOs lays them out: a
// UTXO's identity, transferable inputs and outputs, the BaseTx fields, UTXOs and signed txs. Each
// VM fills in its own fx outputs, inputs and credentials (their type IDs are its codec's).
// IDs and addresses stay raw bytes (32 and 20 bytes); text forms belong to the API layer.

export type Bytes = Uint8Array;

/** avax.UTXOID: the tx that made a UTXO and its output's index there. */
export interface UTXOID {
  txID: Bytes; // 32
  outputIndex: number;
}

/** avax.TransferableOutput: an asset and an fx output (a u32 type ID ‖ body in the codec). */
export interface TransferableOutput<O> {
  assetID: Bytes; // 32
  out: O;
}

/** avax.TransferableInput: the UTXO spent, its asset, and an fx input. */
export interface TransferableInput<I> {
  utxoID: UTXOID;
  assetID: Bytes; // 32
  input: I;
}

/** avax.BaseTx: the fields every X- and P-Chain tx starts with. */
export interface BaseTxFields<O, I> {
  networkID: number;
  blockchainID: Bytes; // 32
  outputs: TransferableOutput<O>[];
  inputs: TransferableInput<I>[];
  memo: Bytes;
}

/** avax.UTXO. */
export interface UTXO<O> {
  utxoID: UTXOID;
  assetID: Bytes;
  output: O;
}

/** txs.Tx: an unsigned tx with its credentials, its bytes and ID. */
export interface SignedTx<U, C> {
  unsigned: U;
  credentials: C[];
  /** u16 0 ‖ u32 type ‖ fields ‖ creds: what is hashed into the ID and served by getTx. */
  bytes: Bytes;
  /** The prefix of `bytes` without the credentials: what is signed (its sha256). */
  unsignedBytes: Bytes;
  /** sha256(bytes) */
  id: Bytes;
}
