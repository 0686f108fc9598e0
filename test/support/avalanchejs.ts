// The slice of @avalabs/avalanchejs 5.2.0 the interop and property tests use. Its .d.ts files
// re-export through extensionless relative paths, which NodeNext resolution cannot follow, so the
// module's surface is described here and the namespace is narrowed to it once.
import * as avalanchejs from '@avalabs/avalanchejs';
export interface Id {
  toString(): string;
  toBytes(): Uint8Array;
}
export interface Int {
  value(): number;
}
export interface Owners {
  locktime: { value(): bigint };
  threshold: Int;
  addrs: { toBytes(): Uint8Array }[];
}
export interface Output {
  _type: string;
  amount(): bigint;
  outputOwners: Owners;
}
export interface Utxo {
  utxoId: { txID: Id; outputIdx: Int };
  assetId: Id;
  output: { _type: string; amount?(): bigint };
  getOutputOwners(): Owners;
}
export interface TransferableInput {
  utxoID: { txID: Id; outputIdx: Int };
  assetId: Id;
  amount(): bigint;
  sigIndicies(): number[];
}
export interface TransferableOutput {
  assetId: Id;
  output: Output;
}
export interface AvaxBaseTx {
  BlockchainId: Id;
  outputs: readonly TransferableOutput[];
  inputs: readonly TransferableInput[];
}
export interface AjsTx {
  _type: string;
  vm?: string;
  baseTx: AvaxBaseTx;
  outs?: readonly TransferableOutput[];
  destination?: Id;
}
export interface SignedTx {
  unsignedTx: AjsTx;
  credentials: unknown[];
  toBytes(): Uint8Array;
  getAllSignatures(): string[];
}
export interface UnsignedTx {
  addressMaps: unknown;
  getTx(): AjsTx;
  getInputUtxos(): readonly Utxo[];
  getSignedTx(): SignedTx;
  toBytes(): Uint8Array;
  hasAllSignatures(): boolean;
}
export interface FeeConfig {
  weights: Record<number, number>;
  maxCapacity: bigint;
  maxPerSecond: bigint;
  targetPerSecond: bigint;
  minPrice: bigint;
  excessConversionConstant: bigint;
}
export interface AjsContext {
  networkID: number;
  hrp: string;
  xBlockchainID: string;
  pBlockchainID: string;
  cBlockchainID: string;
  avaxAssetID: string;
  baseTxFee: bigint;
  createAssetTxFee: bigint;
  platformFeeConfig: FeeConfig;
}
export interface AVMApi {
  getUTXOs(input: {
    addresses: string[];
    limit?: number;
    startIndex?: { address: string; utxo: string };
    sourceChain?: string;
  }): Promise<{ utxos: Utxo[]; numFetched: string; endIndex: { address: string; utxo: string } }>;
  issueSignedTx(tx: SignedTx): Promise<{ txID: string }>;
  getTx(params: { txID: string }): Promise<SignedTx>;
  getTxJson(params: { txID: string }): Promise<{ tx: any; encoding: string }>;
  getTxStatus(params: { txID: string }): Promise<{ status: string }>;
  getAssetDescription(assetID: string): Promise<{ assetID: string; name: string; symbol: string; denomination: string }>;
}
export interface Ajs {
  Context: { getContextFromURI(uri: string): Promise<AjsContext> };
  avm: {
    AVMApi: new (uri: string) => AVMApi;
    newBaseTx(ctx: AjsContext, from: Uint8Array[], utxos: Utxo[], outputs: TransferableOutput[], opts?: { changeAddresses?: Uint8Array[] }): UnsignedTx;
    newExportTx(
      ctx: AjsContext,
      destination: string,
      from: Uint8Array[],
      utxos: Utxo[],
      outputs: TransferableOutput[],
      opts?: { changeAddresses?: Uint8Array[] },
    ): UnsignedTx;
  };
  avmSerial: {
    CreateAssetTx: new (base: AvaxBaseTx, name: unknown, symbol: unknown, denomination: unknown, states: unknown[]) => object;
    InitialState: new (fxIndex: unknown, outputs: unknown[]) => object;
    getAVMManager(): { getDefaultCodec(): { PackPrefix(v: unknown): Uint8Array } };
  };
  UnsignedTx: new (tx: object, utxos: readonly Utxo[], addressMaps: unknown) => UnsignedTx;
  TransferableOutput: { fromNative(assetID: string, amount: bigint, addrs: Uint8Array[]): TransferableOutput };
  TransferOutput: new (amount: unknown, owners: unknown) => object;
  MintOutput: new (owners: unknown) => object;
  OutputOwners: { fromNative(addrs: Uint8Array[]): unknown };
  BigIntPr: new (v: bigint) => unknown;
  Int: new (v: number) => unknown;
  Byte: new (v: Uint8Array) => unknown;
  Stringpr: new (v: string) => unknown;
  addTxSignatures(args: { unsignedTx: UnsignedTx; privateKeys: Uint8Array[] }): Promise<void>;
  secp256k1: { getPublicKey(key: Uint8Array): Uint8Array; publicKeyBytesToAddress(pub: Uint8Array): Uint8Array };
  utils: {
    hexToBuffer(hex: string): Uint8Array;
    bufferToHex(b: Uint8Array): string;
    bech32ToBytes(addr: string): Uint8Array;
    format(alias: string, hrp: string, addr: Uint8Array): string;
    base58check: { encode(b: Uint8Array): string; decode(s: string): Uint8Array };
  };
}
export const ajs = avalanchejs as unknown as Ajs;
