// Large log answers (eth_getLogs, eth_getFilterLogs, eth_getFilterChanges) are written straight into
// bytes, in pieces, rather than as objects made one string: checked here against the receipts, whose
// logs take the other road (objects and JSON.stringify), over HTTP, in a batch, over a websocket and
// in the request journal. Every byte value appears in the logs' data, some logs carry no topic and
// some four, and one log's data is larger than a piece.
import { encodeFunctionData, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { compileSources } from './support/solc.js';
import { DEV_NODE, evmClients, ewoq } from './support/evm.js';
import { call, post, startTestNode, type TestNode } from './helpers.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Emitter {
  // Log i has i % 5 topics and i % 97 bytes of data, byte j being (i + j) % 256.
  function emitMany(uint256 n) external {
    for (uint256 i = 0; i < n; i++) {
      bytes memory data = new bytes(i % 97);
      for (uint256 j = 0; j < data.length; j++) data[j] = bytes1(uint8((i + j) % 256));
      uint256 k = i % 5;
      assembly {
        let p := add(data, 32)
        let len := mload(data)
        switch k
        case 0 { log0(p, len) }
        case 1 { log1(p, len, i) }
        case 2 { log2(p, len, i, caller()) }
        case 3 { log3(p, len, i, caller(), not(i)) }
        default { log4(p, len, i, caller(), not(i), number()) }
      }
    }
  }
  // One log of size bytes of data, made of hashes.
  function emitBig(uint256 size) external {
    assembly {
      let p := mload(0x40)
      for { let i := 0 } lt(mul(i, 32), size) { i := add(i, 1) } {
        mstore(0, i)
        mstore(add(p, mul(i, 32)), keccak256(0, 32))
      }
      log1(p, size, 0xb16)
    }
  }
}
`;
const { abi, bytecode } = compileSources({ 'Emitter.sol': SOURCE })['Emitter.sol']!.Emitter!;

/** A string id with characters of two and three bytes: the answer's length is counted in bytes. */
const ID = 'logs-ü-☃';

describe('large log answers', () => {
  let node: TestNode;
  let url: string;
  let logs: unknown[];
  /** The logs as the receipts' text has them, without the brackets: what the answers' text must hold. */
  let logsText: string;
  let filterId: string;
  let fromBlock: Hex;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    const deployed = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode }) });
    const address = deployed.contractAddress!;
    fromBlock = `0x${(deployed.blockNumber + 1n).toString(16)}`;
    filterId = await call(url, 'eth_newFilter', [{ address, fromBlock }]);
    const receipts = [];
    for (const [functionName, args, gas] of [
      ['emitMany', [300n], 6_000_000n],
      ['emitBig', [70_000n], 2_000_000n],
    ] as const) {
      const hash = await wallet.sendTransaction({ to: address, data: encodeFunctionData({ abi, functionName, args }), gas });
      await client.waitForTransactionReceipt({ hash });
      // The receipt as the node writes it (viem's would be parsed into its own shape).
      receipts.push((await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }))).text);
    }
    for (const r of receipts) expect(JSON.parse(r).result.status).toBe('0x1');
    logs = receipts.flatMap((r) => JSON.parse(r).result.logs);
    // A receipt's fields are in Go's order: its logs come between gasUsed and logsBloom.
    logsText = receipts.map((r) => r.slice(r.indexOf('"logs":[') + 8, r.indexOf('],"logsBloom":'))).join(',');
  });
  afterAll(() => node.stop());

  it("eth_getLogs over a range answers the receipts' logs, its length counted in bytes", async () => {
    expect(logs).toHaveLength(301);
    const body = JSON.stringify({ jsonrpc: '2.0', id: ID, method: 'eth_getLogs', params: [{ fromBlock, toBlock: 'latest' }] });
    const reply = await post(url, body);
    expect(reply.status).toBe(200);
    expect(reply.text.endsWith('}\n')).toBe(true);
    expect(Number(reply.headers.get('content-length'))).toBe(Buffer.byteLength(reply.text));
    // Several pieces: the 70,000-byte log alone is larger than one.
    expect(reply.text.length).toBeGreaterThan(300_000);
    // The same text as the receipts' logs, byte for byte (field order included), in geth's envelope.
    expect(reply.text).toBe(`{"jsonrpc":"2.0","id":${JSON.stringify(ID)},"result":[${logsText}]}\n`);
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: ID, result: logs });
    const data = (logs as Array<{ data: string; topics: string[] }>).map((l) => l.data);
    expect(data[1]).toBe('0x01');
    expect(data[300]).toHaveLength(2 + 140_000);
    expect(new Set((logs as Array<{ topics: string[] }>).map((l) => l.topics.length))).toEqual(new Set([0, 1, 2, 3, 4]));
  });

  it('in a batch, over a websocket and from a filter, the same logs', async () => {
    const batch = await post(
      url,
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock, toBlock: 'latest' }] },
        { jsonrpc: '2.0', id: 2, method: 'eth_getLogs', params: [{ fromBlock, toBlock: 'latest', topics: [null, null, null, []] }] },
      ]),
    );
    expect(batch.text.startsWith(`[{"jsonrpc":"2.0","id":1,"result":[${logsText}]},`)).toBe(true);
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: logs },
      { jsonrpc: '2.0', id: 2, result: logs.filter((l) => (l as { topics: string[] }).topics.length >= 4) },
    ]);
    expect(await call(url, 'eth_getFilterLogs', [filterId])).toEqual(logs);
    expect(await call(url, 'eth_getFilterChanges', [filterId])).toEqual(logs);
    expect(await call(url, 'eth_getFilterChanges', [filterId])).toEqual([]);

    const ws = new WebSocket(`${node.uri.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<{ text: string; binary: boolean }>((resolve) =>
      ws.once('message', (d: Buffer, binary) => resolve({ text: d.toString(), binary })),
    );
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: ID, method: 'eth_getLogs', params: [{ fromBlock, toBlock: 'latest' }] }));
    // A text frame, as the request was.
    expect(await answer).toEqual({ text: `{"jsonrpc":"2.0","id":${JSON.stringify(ID)},"result":[${logsText}]}\n`, binary: false });
    ws.close();
  });

  it('the journal keeps the head of the answer, and says it was cut', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ID, method: 'eth_getLogs', params: [{ fromBlock, toBlock: 'latest' }] });
    const reply = await post(url, body);
    const [entry] = (await call(`${node.uri}/ext/emulator`, 'emulator.journal', { route: '/ext/bc/C/rpc', method: 'eth_getLogs', limit: 1 })).entries;
    expect(entry.truncated).toBe(true);
    expect(entry.response).toBe(
      Buffer.from(reply.text)
        .subarray(0, 64 * 1024)
        .toString(),
    );
  });
});
