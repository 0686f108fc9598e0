// ICM messages between the C-Chain and an L1 for the Data API tests: MiniMessenger emits the ICM
// messenger's own events (a send on C, its delivery on the L1), plus a send never delivered and a
// delivery from a chain the node does not run.
import { type Contract, ContractFactory, JsonRpcProvider, NonceManager, Wallet } from 'ethers';
import { fixture } from './solc.js';
import { EWOQ_KEY } from './data.js';

export interface IcmActivity {
  cMessenger: string;
  l1Messenger: string;
  delivered: string;
  pending: string;
  foreign: string;
  recipient: string;
}

const b32 = (cb58: Uint8Array) => `0x${Buffer.from(cb58).toString('hex')}`;

export async function makeIcm(uri: string, cChainID: Uint8Array, l1ChainID: Uint8Array, l1Path = 'myl1', l1Id = 99999): Promise<IcmActivity> {
  const recipient = '0x000000000000000000000000000000000000bEEF';
  const deploy = async (url: string, chainId: number) => {
    const provider = new JsonRpcProvider(url, chainId, { staticNetwork: true, cacheTimeout: -1 });
    const signer = new NonceManager(new Wallet(EWOQ_KEY, provider));
    const c = fixture('MiniMessenger');
    const contract = (await new ContractFactory(c.abi, c.bytecode, signer).deploy()) as Contract;
    await contract.waitForDeployment();
    return { provider, contract };
  };
  const c = await deploy(`${uri}/ext/bc/C/rpc`, 43112);
  const l1 = await deploy(`${uri}/ext/bc/${l1Path}/rpc`, l1Id);
  const C = b32(cChainID);
  const L1 = b32(l1ChainID);
  const send = async (payload: string) => {
    const receipt = await (await c.contract.getFunction('send')(C, L1, recipient, payload, '0x0000000000000000000000000000000000000000', 0n)).wait();
    return c.contract.interface.parseLog(receipt.logs[0])!.args[0] as string;
  };
  const delivered = await send('0x68656c6c6f');
  const from = new Wallet(EWOQ_KEY).address;
  const cAddress = await c.contract.getAddress();
  await (await l1.contract.getFunction('deliver')(cAddress, C, L1, 1n, from, recipient, '0x68656c6c6f', from)).wait();
  const pending = await send('0x6c61746572');
  const stranger = `0x${'ab'.repeat(32)}`;
  const strangerMessenger = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
  await (await l1.contract.getFunction('deliver')(strangerMessenger, stranger, L1, 7n, from, recipient, '0x', from)).wait();
  const foreign = (await l1.contract.getFunction('messageID')(strangerMessenger, stranger, L1, 7n)) as string;
  c.provider.destroy();
  l1.provider.destroy();
  return { cMessenger: await c.contract.getAddress(), l1Messenger: await l1.contract.getAddress(), delivered, pending, foreign, recipient };
}
