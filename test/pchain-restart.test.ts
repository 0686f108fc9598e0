// P-Chain state across restarts: subnets, chains created by CreateChainTx (served again at once),
// validators, UTXOs and blocks come back; kill -9 right after issueTx returns loses none of it.
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, rpc, spawnNode, startTestNode, tempDir } from './helpers.js';
import { A, EWOQ_KEY, Wallet } from './support/pvm.js';

const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const genesis = JSON.parse(readFileSync(new URL('../fixtures/myl1.json', import.meta.url), 'utf8'));

async function createSubnetAndChain(w: Wallet): Promise<{ subnetID: string; chainID: string }> {
  const subnetID = await w.issueP(A.pvm.e.newCreateSubnetTx({ ...(await w.common()), subnetOwners: [w.addr] }, w.ctx));
  const chainTx = A.pvm.e.newCreateChainTx(
    { ...(await w.common()), subnetId: subnetID, chainName: 'myl1', vmId: SUBNET_EVM, fxIds: [], genesisData: genesis, subnetAuth: [0] },
    w.ctx,
  );
  return { subnetID, chainID: await w.issueP(chainTx, [EWOQ_KEY]) };
}

describe('P-Chain persistence', () => {
  it('a restart on the same data dir finds the subnet, serves its chain, and keeps balances and blocks', async () => {
    const dataDir = tempDir();
    let node = await startTestNode({ dataDir });
    let w = await new Wallet(node.uri).init();
    const { subnetID, chainID } = await createSubnetAndChain(w);
    const balance = await w.pBalance();
    const height = (await call(`${node.uri}/ext/bc/P`, 'platform.getHeight')).height;
    const block = (await call(`${node.uri}/ext/bc/P`, 'platform.getBlockByHeight', { height })).block;
    await node.stop();

    node = await startTestNode({ dataDir });
    try {
      w = await new Wallet(node.uri).init();
      const P = `${node.uri}/ext/bc/P`;
      expect(await call(P, 'platform.getHeight')).toEqual({ height });
      expect((await call(P, 'platform.getBlockByHeight', { height })).block).toBe(block);
      expect(await w.pBalance()).toBe(balance);
      expect((await call(P, 'platform.getSubnet', { subnetID })).controlKeys).toEqual([w.pAddr]);
      expect((await rpc(`${node.uri}/ext/bc/${chainID}/rpc`, 'eth_chainId', [])).json.result).toBe(`0x${BigInt(genesis.config.chainId).toString(16)}`);
      // The chain goes on from where it was: the P-Chain builds on its last block.
      await createSubnetAndChain(w);
      expect(BigInt((await call(P, 'platform.getHeight')).height)).toBe(BigInt(height) + 2n);
    } finally {
      await node.stop();
    }
  });

  it('kill -9 right after issueTx returns loses no P-Chain tx and no created chain', async () => {
    const dataDir = tempDir();
    const node = await spawnNode(['--db-type=leveldb'], dataDir);
    const w = await new Wallet(node.uri).init();
    const { subnetID, chainID } = await createSubnetAndChain(w);
    node.child.kill('SIGKILL');
    await node.exited;
    // A killed node leaves its process context file behind.
    rmSync(node.contextFile, { force: true });
    const again = await spawnNode(['--db-type=leveldb'], dataDir);
    try {
      const P = `${again.uri}/ext/bc/P`;
      expect(await call(P, 'platform.getTxStatus', { txID: subnetID })).toEqual({ status: 'Committed' });
      expect(await call(P, 'platform.getTxStatus', { txID: chainID })).toEqual({ status: 'Committed' });
      expect((await rpc(`${again.uri}/ext/bc/${chainID}/rpc`, 'eth_blockNumber', [])).json.result).toBe('0x0');
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });
});
