// The relayer across a kill -9 of the node as a user runs it (the CLI, LevelDB): a message whose
// delivery tx was in the destination's pool, and one the relayer had only queued, are each delivered
// exactly once after the restart — one ReceiveCrossChainMessage, one delivery tx from the relayer.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Abi, encodeFunctionData, getAddress, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { RELAYER_ADDRESS } from '../src/relayer/key.js';
import { MESSENGER_ABI } from '../src/vms/evm/icm/messenger.js';
import { call, type SpawnedNode, spawnNode, tempDir } from './helpers.js';
import { evmClients, ewoq, hexID, MESSENGER, SEND_TOPIC, sleep, until } from './support/evm.js';
import { fixture } from './support/solc.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const receiver = fixture('IcmReceiver');
const side = (node: SpawnedNode, alias: string, id: number) => evmClients(node.uri, alias, id);

const emulator = (node: SpawnedNode, method: string, params: unknown = {}) => call(`${node.uri}/ext/emulator`, `emulator.${method}`, params);

describe('the ICM relayer killed with SIGKILL', () => {
  it('delivers a message in flight, and one only queued, exactly once after the restart', async () => {
    const dataDir = tempDir('icm-kill-');
    const args = [`--l1=${FIXTURE}`, '--dev'];
    let node = await spawnNode(args, dataDir);
    let target: Hex;
    let l1Hex: Hex;
    try {
      const l1ID = (await call(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias: 'myl1' })).blockchainID as string;
      l1Hex = hexID(l1ID);
      const L1 = side(node, 'myl1', 99999);
      const C = side(node, 'C', 43112);
      const deployed = await L1.client.waitForTransactionReceipt({
        hash: await L1.wallet.deployContract({ abi: receiver.abi as Abi, bytecode: receiver.bytecode, chain: L1.chain, account: ewoq }),
      });
      target = getAddress(deployed.contractAddress!);
      const send = async (message: Hex) => {
        const data = encodeFunctionData({
          abi: MESSENGER_ABI as unknown as Abi,
          functionName: 'sendCrossChainMessage',
          args: [
            {
              destinationBlockchainID: l1Hex,
              destinationAddress: target,
              feeInfo: { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n },
              requiredGasLimit: 100_000n,
              allowedRelayerAddresses: [],
              message,
            },
          ],
        });
        const receipt = await C.client.waitForTransactionReceipt({
          hash: await C.wallet.sendTransaction({ to: MESSENGER, data, chain: C.chain, account: ewoq }),
        });
        // SendCrossChainMessage's topic1 is the message ID (the first use also logs BlockchainIDInitialized).
        return receipt.logs.find((l) => l.topics[0] === SEND_TOPIC)!.topics[1] as Hex;
      };
      // In flight: the delivery tx waits in the L1's pool (no automine) when the node dies.
      await call(L1.url, 'evm_setAutomine', [false]);
      const inFlight = await send('0x01');
      const sent = await until(
        async () => ((await emulator(node, 'icmMessages')).messages as Array<{ id: string; state: string }>).find((m) => m.id === inFlight),
        (m) => m?.state === 'sent',
      );
      expect(sent?.state).toBe('sent');
      // Only queued: the relayer is paused when the second message is found.
      await emulator(node, 'icmPause');
      const queued = await send('0x02');
      const found = await until(
        async () => ((await emulator(node, 'icmMessages')).messages as Array<{ id: string; state: string }>).find((m) => m.id === queued),
        (m) => m !== undefined,
      );
      expect(found?.state).toBe('queued');
    } finally {
      node.child.kill('SIGKILL');
      await node.exited;
    }
    rmSync(node.contextFile);
    node = await spawnNode(args, dataDir);
    try {
      const L1 = side(node, 'myl1', 99999);
      const received = await until(
        () => L1.client.readContract({ address: target, abi: receiver.abi as Abi, functionName: 'received' }),
        (n) => n === 2n,
        15_000,
      );
      expect(received).toBe(2n);
      await sleep(500);
      const records = (await emulator(node, 'icmMessages')).messages as Array<{ state: string; deliveredBy: string }>;
      expect(records.map((r) => [r.state, r.deliveredBy])).toEqual([
        ['delivered', 'relayer'],
        ['delivered', 'relayer'],
      ]);
      // Exactly two delivery txs from the relayer on the L1, and two deliveries in the messenger's logs.
      expect(await L1.client.getTransactionCount({ address: RELAYER_ADDRESS })).toBe(2);
      const logs = await call(L1.url, 'eth_getLogs', [
        { address: MESSENGER, topics: ['0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34'], fromBlock: '0x0' },
      ]);
      expect(logs).toHaveLength(2);
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  }, 120_000);
});
