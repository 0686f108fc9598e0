// Activity on an EVM chain for the Data API tests, made with ethers as a dapp makes it: the three
// token kinds deployed and transferred, value forwarded by a contract (an internal CALL), a
// contract deployed by a contract (an internal CREATE) and a failed tx.
import { type Contract, ContractFactory, JsonRpcProvider, NonceManager, Wallet } from 'ethers';
import { fixture } from './solc.js';

export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
export const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
export const ALICE = '0x00000000000000000000000000000000000A11cE';

export interface Activity {
  token: string;
  nft: string;
  multi: string;
  forwarder: string;
  child: string;
  failedTx: string;
  forwardTx: string;
  /** Every tx hash, in order. */
  txs: string[];
}

export async function makeActivity(rpcUrl: string, chainId: number): Promise<Activity> {
  const provider = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true, cacheTimeout: -1 });
  const ewoq = new NonceManager(new Wallet(EWOQ_KEY, provider));
  const txs: string[] = [];
  const deploy = async (name: string, ...args: unknown[]) => {
    const c = fixture(name);
    const contract = await new ContractFactory(c.abi, c.bytecode, ewoq).deploy(...args);
    txs.push(contract.deploymentTransaction()!.hash);
    await contract.waitForDeployment();
    return contract as Contract;
  };
  const send = async (p: Promise<{ hash: string; wait(): Promise<unknown> }>) => {
    const tx = await p;
    txs.push(tx.hash);
    await tx.wait();
    return tx.hash;
  };
  const token = await deploy('TestToken', 'Test Token', 'TT', 1_000_000n);
  const nft = await deploy('TestNFT', 'Test NFT', 'TNFT');
  const multi = await deploy('TestMulti');
  const forwarder = await deploy('Forwarder');
  await send(token.getFunction('transfer')(ALICE, 100n));
  await send(nft.getFunction('mint')(ALICE, 7n));
  await send(multi.getFunction('mintBatch')(ALICE, [1n, 2n], [10n, 20n]));
  const forwardTx = await send(forwarder.getFunction('forward')(ALICE, { value: 5n }));
  const deployTx = await forwarder.getFunction('deployChild')();
  txs.push(deployTx.hash);
  const receipt = await deployTx.wait();
  const child = forwarder.interface.parseLog(receipt!.logs[0]!)!.args[0] as string;
  // Forwarding value to a contract without a receive function reverts: a failed tx, mined.
  const failedTx = await ewoq.sendTransaction({
    to: await forwarder.getAddress(),
    data: forwarder.interface.encodeFunctionData('forward', [await token.getAddress()]),
    value: 1n,
    gasLimit: 200_000n,
  });
  txs.push(failedTx.hash);
  await failedTx.wait().catch(() => undefined);
  provider.destroy();
  return {
    token: await token.getAddress(),
    nft: await nft.getAddress(),
    multi: await multi.getAddress(),
    forwarder: await forwarder.getAddress(),
    child,
    failedTx: failedTx.hash,
    forwardTx,
    txs,
  };
}
