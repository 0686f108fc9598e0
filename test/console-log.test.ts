// console.sol's logs with --dev, as Anvil prints them: what a mined tx or an eth_call sends to
// 0x000000000000000000636F6e736F6c652e6c6f67 (Hardhat's console.log, also forge-std's) is printed
// by the node, a line each, in foundry's format. Through the CLI a user runs, its output read as
// the user's terminal would show it, with viem as the client. The contract's console library is
// written here: the calls console.sol makes (a staticcall of `log(...)`'s selector and arguments),
// including Hardhat's older `log(uint)` selector, a table and a call that is none of console.sol's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Address, type Hex, encodeFunctionData } from 'viem';
import { compileSources } from './support/solc.js';
import { DEV_NODE, type EvmClients, evmClients, ewoq, until } from './support/evm.js';
import { call, spawnNode, type SpawnedNode } from './helpers.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library Console {
  address constant ADDR = 0x000000000000000000636F6e736F6c652e6c6f67;
  function send(bytes memory payload) private view {
    (bool ok, ) = ADDR.staticcall(payload);
    ok;
  }
  function log() internal view { send(abi.encodeWithSignature("log()")); }
  function log(string memory a, uint256 b, uint256 c) internal view { send(abi.encodeWithSignature("log(string,uint256,uint256)", a, b, c)); }
  function log(string memory a, uint256 b) internal view { send(abi.encodeWithSignature("log(string,uint256)", a, b)); }
  function log(address a, bool b) internal view { send(abi.encodeWithSignature("log(address,bool)", a, b)); }
  function logLegacyUint(uint256 a) internal view { send(abi.encodeWithSignature("log(uint)", a)); }
  function logInt(int256 a) internal view { send(abi.encodeWithSignature("log(int256)", a)); }
  function logBytes4(bytes4 a) internal view { send(abi.encodeWithSignature("log(bytes4)", a)); }
  function table(string[] memory k, uint256[] memory v) internal view { send(abi.encodeWithSignature("table(string[],uint256[])", k, v)); }
  function unknown() internal view { send(abi.encodeWithSignature("nothing(uint256)", 1)); }
}

contract Logs {
  uint256 public count;
  function bump(uint256 by) external {
    count += by;
    Console.log("count is now %d after +%s", count, by);
    Console.log(msg.sender, true);
    Console.logLegacyUint(7);
    Console.logInt(-100);
    Console.logBytes4(0xdeadbeef);
    Console.unknown();
    string[] memory k = new string[](2);
    k[0] = "alice"; k[1] = "bob";
    uint256[] memory v = new uint256[](2);
    v[0] = 1; v[1] = 20000000000000000;
    Console.table(k, v);
  }
  function peek() external view returns (uint256) {
    Console.log("peeking at %e, %x in hex", count * 1000);
    return count;
  }
  function fail() external {
    count += 1;
    Console.log("about to revert at %d", count);
    revert("no");
  }
  function spam(uint256 n) external view {
    for (uint256 i = 0; i < n; i++) Console.log();
  }
}
`;

const { abi, bytecode } = compileSources({ 'Logs.sol': SOURCE })['Logs.sol']!.Logs!;

const clients = (uri: string, alias: string, id: number) => evmClients(uri, alias, id, ewoq, DEV_NODE);

type Clients = EvmClients;

async function deploy({ client, wallet }: Clients): Promise<Address> {
  const hash = await wallet.deployContract({ abi, bytecode });
  return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
}

async function send({ client, wallet }: Clients, address: Address, functionName: 'bump' | 'fail', args: bigint[] = []): Promise<Hex> {
  // A fixed gas: an estimate would run the tx, and fail() cannot be estimated.
  const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 1_000_000n } as never);
  await client.waitForTransactionReceipt({ hash });
  return hash;
}

/** The node's console.log lines printed after `from` in its output: [chain, text, where]. */
function consoleLines(node: SpawnedNode, from = 0): Array<[string, string, string]> {
  return [
    ...node
      .output()
      .slice(from)
      .matchAll(/INFO +<(\w+) Chain> console\.log: (.*) (\{"(?:tx|call)":"[^"]+"\})\n/g),
  ].map((m) => [m[1]!, m[2]!, m[3]!]);
}

async function linesAfter(node: SpawnedNode, from: number, count: number): Promise<Array<[string, string, string]>> {
  return until(
    async () => consoleLines(node, from),
    (l) => l.length >= count,
  );
}

describe('console.log with --dev', () => {
  let node: SpawnedNode;
  let c: Clients;
  let token: Address;
  beforeAll(async () => {
    node = await spawnNode(['--dev', '--db-type=memdb', '--l1=fixtures/myl1.json']);
    c = clients(node.uri, 'C', 43112);
    token = await deploy(c);
  });
  afterAll(async () => {
    node.child.kill('SIGTERM');
    await node.exited;
  });

  it("prints a mined tx's lines in foundry's format, each with the tx's hash", async () => {
    const from = node.output().length;
    const hash = await send(c, token, 'bump', [5n]);
    const where = `{"tx":"${hash}"}`;
    const lines = await linesAfter(node, from, 11);
    expect(lines).toEqual(
      [
        'count is now 5 after +5',
        `${ewoq.address} true`,
        // Hardhat's console.sol before 2.14 hashed log(uint): read as log(uint256).
        '7',
        '-100',
        '0xdeadbeef',
        '┌─────────┬───────────────────┐',
        '│ (index) │ Values            │',
        '├─────────┼───────────────────┤',
        '│ alice   │ 1                 │',
        '│ bob     │ 20000000000000000 │',
        '└─────────┴───────────────────┘',
      ].map((text) => ['C', text, where]),
    );
  });

  it('prints an eth_call at each run, the same call asked again included; an estimate prints nothing', async () => {
    const from = node.output().length;
    await c.client.estimateContractGas({ address: token, abi, functionName: 'bump', args: [1n], account: ewoq.address });
    for (let i = 0; i < 2; i++) expect(await c.client.readContract({ address: token, abi, functionName: 'peek' })).toBe(5n);
    const lines = await linesAfter(node, from, 2);
    expect(lines).toEqual([
      ['C', 'peeking at 5e3, %x in hex', '{"call":"eth_call"}'],
      ['C', 'peeking at 5e3, %x in hex', '{"call":"eth_call"}'],
    ]);
    expect(consoleLines(node, from)).toHaveLength(2);
  });

  it("prints eth_callDetailed's run; anvil_setLoggingEnabled(false) silences every line until it is true again", async () => {
    const data = encodeFunctionData({ abi, functionName: 'peek' });
    let from = node.output().length;
    expect((await call(c.url, 'eth_callDetailed', [{ to: token, data }, 'latest'])).err).toBe('');
    expect(await linesAfter(node, from, 1)).toEqual([['C', 'peeking at 5e3, %x in hex', '{"call":"eth_callDetailed"}']]);
    from = node.output().length;
    expect(await call(c.url, 'anvil_setLoggingEnabled', [false])).toBeNull();
    await send(c, token, 'bump', [0n]);
    await c.client.readContract({ address: token, abi, functionName: 'peek' });
    expect(await call(c.url, 'anvil_setLoggingEnabled', [true])).toBeNull();
    await c.client.readContract({ address: token, abi, functionName: 'peek' });
    // The tx's lines were printed, if at all, before its receipt: only the last call's shows (the call
    // made while silenced was not kept either: asked again, it runs and prints).
    expect(await linesAfter(node, from, 1)).toEqual([['C', 'peeking at 5e3, %x in hex', '{"call":"eth_call"}']]);
  });

  it('prints the lines of a tx that reverts', async () => {
    const from = node.output().length;
    const hash = await send(c, token, 'fail');
    expect((await c.client.getTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await linesAfter(node, from, 1)).toEqual([['C', 'about to revert at 6', `{"tx":"${hash}"}`]]);
  });

  it("keeps at most 10,000 of a run's calls and says how many more there were", async () => {
    const from = node.output().length;
    // log() prints no line: only the count of those past the bound shows.
    await c.client.readContract({ address: token, abi, functionName: 'spam', args: [10_005n] });
    expect(await linesAfter(node, from, 1)).toEqual([['C', '(5 more console.log calls not shown)', '{"call":"eth_call"}']]);
  });

  it('prints on an L1 too, under its chain', async () => {
    const l1 = clients(node.uri, 'myl1', 99999);
    const address = await deploy(l1);
    const from = node.output().length;
    const hash = await send(l1, address, 'bump', [3n]);
    expect((await linesAfter(node, from, 1))[0]).toEqual(['myl1', 'count is now 3 after +3', `{"tx":"${hash}"}`]);
  });
});

describe('console.log off', () => {
  for (const [name, args] of [
    ['--disable-console-log', ['--dev', '--disable-console-log']],
    ['without --dev (a real node runs nothing at that address)', []],
  ] as const) {
    it(`prints nothing ${name}`, async () => {
      const node = await spawnNode([...args, '--db-type=memdb']);
      try {
        const c = clients(node.uri, 'C', 43112);
        const address = await deploy(c);
        await send(c, address, 'bump', [2n]);
        expect(await c.client.readContract({ address, abi, functionName: 'peek' })).toBe(2n);
        expect(node.output()).not.toContain('console.log');
      } finally {
        node.child.kill('SIGTERM');
        await node.exited;
      }
    });
  }
});
