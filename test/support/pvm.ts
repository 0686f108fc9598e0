// A P-Chain wallet over @avalabs/avalanchejs 5.2.0 as a user writes one: the context from the node,
// UTXOs and the fee state from the platform API, txs built by avalanchejs' pvm (etna) and avm
// builders, signed with addTxSignatures, and the subnet or disable authorization signed into the
// last credential as @avalanche-sdk/client does it.
import * as avalanchejs from '@avalabs/avalanchejs';
import { call, rpc } from '../helpers.js';

export const A = avalanchejs as any;

export const EWOQ_KEY = new Uint8Array(Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex'));

export const addressOf = (key: Uint8Array): Uint8Array => A.secp256k1.publicKeyBytesToAddress(A.secp256k1.getPublicKey(key));

export class Wallet {
  readonly addr: Uint8Array;
  readonly pAddr: string;
  readonly xAddr: string;
  readonly cAddr: string;
  ctx: any;
  readonly pvm: any;

  constructor(
    readonly uri: string,
    readonly key: Uint8Array = EWOQ_KEY,
  ) {
    this.addr = addressOf(key);
    this.pAddr = A.utils.format('P', 'local', this.addr);
    this.xAddr = A.utils.format('X', 'local', this.addr);
    this.cAddr = A.utils.format('C', 'local', this.addr);
    this.pvm = new A.pvm.PVMApi(uri);
  }

  async init(): Promise<this> {
    this.ctx = await A.Context.getContextFromURI(this.uri);
    return this;
  }

  /** What every etna builder takes: the fee state, the wallet's addresses and its P UTXOs (or those exported to P from `source`). */
  async common(source?: string): Promise<any> {
    const { utxos } = await this.pvm.getUTXOs({ addresses: [this.pAddr], ...(source ? { sourceChain: source } : {}) });
    return { feeState: await this.pvm.getFeeState(), fromAddressesBytes: [this.addr], utxos };
  }

  /** Signs the inputs, and the last credential with `authKeys` (subnet or disable authorization), then issues on P. */
  async sign(tx: any, authKeys: Uint8Array[] = []): Promise<string> {
    await A.addTxSignatures({ unsignedTx: tx, privateKeys: [this.key] });
    const last = tx.getCredentials().length - 1;
    for (const [i, k] of authKeys.entries()) tx.addSignatureAt(await A.secp256k1.sign(tx.toBytes(), k), last, i);
    return A.utils.bufferToHex(A.utils.addChecksum(tx.getSignedTx().toBytes()));
  }

  async issueP(tx: any, authKeys: Uint8Array[] = []): Promise<string> {
    const reply = await rpc(`${this.uri}/ext/bc/P`, 'platform.issueTx', { tx: await this.sign(tx, authKeys), encoding: 'hex' });
    if (reply.json?.error) throw new Error(reply.json.error.message);
    return reply.json.result.txID;
  }

  async issueX(tx: any): Promise<string> {
    const { txID } = await call(`${this.uri}/ext/bc/X`, 'avm.issueTx', { tx: await this.sign(tx), encoding: 'hex' });
    return txID;
  }

  async pBalance(): Promise<bigint> {
    return BigInt((await call(`${this.uri}/ext/bc/P`, 'platform.getBalance', { addresses: [this.pAddr] })).balance);
  }

  async xBalance(): Promise<bigint> {
    return BigInt((await call(`${this.uri}/ext/bc/X`, 'avm.getBalance', { address: this.xAddr, assetID: 'AVAX' })).balance);
  }

  async xUTXOs(source?: string): Promise<any[]> {
    const api = new A.avm.AVMApi(this.uri);
    return (await api.getUTXOs({ addresses: [this.xAddr], ...(source ? { sourceChain: source } : {}) })).utxos;
  }

  /** The P fee avalanchejs computes for `tx` at the node's current gas price. */
  async pFee(tx: any): Promise<bigint> {
    const state = await this.pvm.getFeeState();
    return A.pvm.calculateFee(tx.getTx(), this.ctx.platformFeeConfig.weights, state.price);
  }
}

/** The node itself (its key from info.getNodeID) as an L1 validator of `weight` with `balance` nAVAX, owned by `w`. */
export async function nodeAsL1Validator(w: Wallet, weight = 1000n, balance = 1_000_000_000n): Promise<any> {
  const { nodeID, nodePOP } = await call(`${w.uri}/ext/info`, 'info.getNodeID');
  return A.L1Validator.fromNative(
    nodeID,
    weight,
    balance,
    new A.pvmSerial.ProofOfPossession(A.utils.hexToBuffer(nodePOP.publicKey), A.utils.hexToBuffer(nodePOP.proofOfPossession)),
    A.PChainOwner.fromNative([w.addr], 1),
    A.PChainOwner.fromNative([w.addr], 1),
  );
}
