// ICM benchmark: messages from the C-Chain to the L1 of fixtures/myl1.json, and from that L1 to a
// second one, each received by a contract there. It measures the latency from the source block (the send's receipt) to the
// execution on the destination (the receiver's counter, read every 2 ms) for LATENCY messages sent
// one at a time, and the messages delivered per second for BURST messages sent at once. The
// reference, in the same run: the same node with its relayer paused (--icm-relayer=false) and a
// relayer outside it doing icm-relayer's steps over JSON-RPC (eth_getLogs of the warp log,
// warp_getMessageAggregateSignature, eth_sendRawTransaction of receiveCrossChainMessage with the
// predicate access list, then its receipt).
//
//   npm run build && npm run bench:icm     LATENCY=30 BURST=200 BURST_L1=500 CPU_PROF=<dir>
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import solc from 'solc';
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { encodeFunctionData, parseAbiParameters, toFunctionSelector } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CLI, envIntOf, pct, processUri, ROOT } from './common.mjs';
import { httpClient } from './l1.mjs';

const envInt = envIntOf('bench:icm');
const LATENCY = envInt('LATENCY', 30);
const BURST = envInt('BURST', 200);
const BURST_L1 = envInt('BURST_L1', 500);
const EWOQ = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const RELAYER = privateKeyToAccount('0x1b65827961677dc70eae7ec522724075e6c1e37255123cbfa592a0b208114dc6');
const MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const WARP = '0x0200000000000000000000000000000000000005';
const SEND_WARP_TOPIC = '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d';
const { rpc: batch, close } = httpClient(16);
const rpc = async (url, method, params) => {
  // One call, not a batch: avalanchego's gorilla endpoints take no batches.
  const r = await batch(url, { jsonrpc: '2.0', id: 1, method, params });
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};

function receiverArtifact() {
  const source = readFileSync(path.join(ROOT, 'test/fixtures/contracts/IcmReceiver.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'IcmReceiver.sol': { content: source } },
    settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { IcmReceiver: ['evm.bytecode.object'] } } },
  };
  return `0x${JSON.parse(solc.compile(JSON.stringify(input))).contracts['IcmReceiver.sol'].IcmReceiver.evm.bytecode.object}`;
}

async function startNode(args) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-icm-'));
  const configDir = path.join(dataDir, 'chain-configs');
  // A second L1: the fixture under another name and EVM chain ID, for L1 → L1.
  const genesis = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/myl1.json'), 'utf8'));
  genesis.config.chainId = 99998;
  const other = path.join(dataDir, 'otherl1.json');
  writeFileSync(other, JSON.stringify(genesis));
  for (const c of ['C', 'myl1', 'otherl1']) {
    mkdirSync(path.join(configDir, c), { recursive: true });
    writeFileSync(path.join(configDir, c, 'config.json'), JSON.stringify({ 'warp-api-enabled': true }));
  }
  // CPU_PROF=<dir>: the node writes a V8 CPU profile there when it stops.
  const profile = process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : [];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      CLI,
      '--http-port=0',
      '--db-type=memdb',
      `--data-dir=${dataDir}`,
      '--log-level=off',
      `--chain-config-dir=${configDir}`,
      `--l1=${path.join(ROOT, 'fixtures/myl1.json')}`,
      `--l1=${other}`,
      ...args,
    ],
    { stdio: 'ignore' },
  );
  const uri = await processUri(dataDir);
  return {
    uri,
    url: (alias) => `${uri}/ext/bc/${alias}/rpc`,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(profile.length > 0 ? 'SIGTERM' : 'SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A signer of EIP-1559 txs from `account` on `url`, keeping its own nonces. */
async function signer(url, account) {
  const chainId = Number(await rpc(url, 'eth_chainId', []));
  let nonce = Number(await rpc(url, 'eth_getTransactionCount', [account.address, 'pending']));
  return (tx) =>
    account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce: nonce++,
      maxFeePerGas: 1_000_000_000_000n,
      maxPriorityFeePerGas: 0n,
      gas: 1_000_000n,
      value: 0n,
      ...tx,
    });
}

async function receipt(url, hash) {
  for (;;) {
    const r = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (r) return r;
    await sleep(2);
  }
}

const RECEIVED = toFunctionSelector('received()');
const received = async (url, receiver) => BigInt(await rpc(url, 'eth_call', [{ to: receiver, data: RECEIVED }, 'latest']));

/** An external relayer over JSON-RPC: what icm-relayer does for one send receipt on `from`, delivered on `to`. */
async function relayOver(node, from, to, sendReceipt, signRelayer, subnetID) {
  const log = sendReceipt.logs.find((l) => l.address.toLowerCase() === WARP && l.topics[0] === SEND_WARP_TOPIC);
  const warpID = log.topics[2];
  // As icm-relayer finds it: the block's warp logs.
  const logs = await rpc(node.url(from), 'eth_getLogs', [{ blockHash: sendReceipt.blockHash, address: WARP, topics: [SEND_WARP_TOPIC, null, warpID] }]);
  if (logs.length !== 1) throw new Error(`the send's warp log was not found (${logs.length})`);
  const signed = await rpc(node.url(from), 'warp_getMessageAggregateSignature', [cb58Of(warpID), 67, subnetID]);
  const bytes = Buffer.from(signed.slice(2), 'hex');
  const padded = Buffer.alloc(Math.floor(bytes.length / 32 + 1) * 32);
  bytes.copy(padded);
  padded[bytes.length] = 0xff;
  const storageKeys = Array.from({ length: padded.length / 32 }, (_, i) => `0x${padded.subarray(i * 32, i * 32 + 32).toString('hex')}`);
  const data = encodeFunctionData({
    abi: [
      { type: 'function', name: 'receiveCrossChainMessage', inputs: [{ type: 'uint32' }, { type: 'address' }], outputs: [], stateMutability: 'nonpayable' },
    ],
    args: [0, RELAYER.address],
  });
  const raw = await signRelayer({ to: MESSENGER, data, accessList: [{ address: WARP, storageKeys }], gas: 700_000n });
  return receipt(node.url(to), await rpc(node.url(to), 'eth_sendRawTransaction', [raw]));
}

/** CB58: base58 of the bytes and the last 4 bytes of their sha256. */
const cb58Of = (hex) => {
  const bytes = Buffer.from(hex.slice(2), 'hex');
  return base58.encode(Buffer.concat([bytes, createHash('sha256').update(bytes).digest().subarray(-4)]));
};
const decodeCB58 = (text) => base58.decode(text).slice(0, -4);

const SEND = {
  type: 'function',
  name: 'sendCrossChainMessage',
  inputs: [
    {
      type: 'tuple',
      components: parseAbiParameters('bytes32, address, (address, uint256), uint256, address[], bytes').map((p, i) => ({ ...p, name: `f${i}` })),
    },
  ],
  outputs: [{ type: 'bytes32' }],
  stateMutability: 'nonpayable',
};

/** Messages from `from` to a receiver on `to`: `latency` one at a time (their latencies), then `burst` at once (delivered per second). */
async function route(node, from, to, latency, burst, external) {
  const ids = {};
  for (const alias of [from, to]) ids[alias] = (await rpc(`${node.uri}/ext/info`, 'info.getBlockchainID', { alias })).blockchainID;
  // The signing subnet a relayer asks for: the source L1's, or for the C-Chain the destination L1's.
  const signing = from === 'C' ? to : from;
  const subnetID = (await rpc(`${node.uri}/ext/bc/P`, 'platform.validatedBy', { blockchainID: ids[signing] })).subnetID;
  const onTo = await signer(node.url(to), EWOQ);
  const deployed = await receipt(node.url(to), await rpc(node.url(to), 'eth_sendRawTransaction', [await onTo({ data: receiverArtifact(), gas: 2_000_000n })]));
  const receiver = deployed.contractAddress;
  const onFrom = await signer(node.url(from), EWOQ);
  const signRelayer = external ? await signer(node.url(to), RELAYER) : undefined;
  const destination = `0x${Buffer.from(decodeCB58(ids[to])).toString('hex')}`;
  const sendData = encodeFunctionData({
    abi: [SEND],
    args: [{ f0: destination, f1: receiver, f2: ['0x0000000000000000000000000000000000000000', 0n], f3: 100_000n, f4: [], f5: '0x01' }],
  });
  const send = () => onFrom({ to: MESSENGER, data: sendData, gas: 500_000n });
  let count = await received(node.url(to), receiver);
  const latencies = [];
  for (let i = 0; i < latency; i++) {
    const sent = await receipt(node.url(from), await rpc(node.url(from), 'eth_sendRawTransaction', [await send()]));
    const t0 = performance.now();
    if (external) await relayOver(node, from, to, sent, signRelayer, subnetID);
    while ((await received(node.url(to), receiver)) === count) await sleep(2);
    latencies.push(performance.now() - t0);
    count++;
  }
  const raws = [];
  for (let i = 0; i < burst; i++) raws.push(await send());
  const t0 = performance.now();
  const hashes = [];
  for (let i = 0; i < raws.length; i += 50) {
    const replies = await batch(
      node.url(from),
      raws.slice(i, i + 50).map((r, j) => ({ jsonrpc: '2.0', id: j, method: 'eth_sendRawTransaction', params: [r] })),
    );
    hashes.push(...replies.map((r) => r.result));
  }
  if (external) {
    for (const h of hashes) await relayOver(node, from, to, await receipt(node.url(from), h), signRelayer, subnetID);
  }
  // Read every 25 ms: the reads are calls the node serves between deliveries.
  while ((await received(node.url(to), receiver)) < count + BigInt(burst)) await sleep(25);
  const rate = burst / ((performance.now() - t0) / 1000);
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: pct(sorted, 0.5), p99: pct(sorted, 0.99), rate };
}

async function run(label, args, external) {
  const node = await startNode(args);
  try {
    const c = await route(node, 'C', 'myl1', LATENCY, BURST, external);
    const l1 = await route(node, 'myl1', 'otherl1', 0, BURST_L1, external);
    return { label, ...c, l1Rate: l1.rate };
  } finally {
    await node.stop();
  }
}

const inNode = await run('relayer inside the node', [], false);
const outside = await run('reference: an external relayer over JSON-RPC (--icm-relayer=false)', ['--icm-relayer=false'], true);
close();
console.log(`bench:icm — C-Chain → L1: ${LATENCY} messages one at a time, then ${BURST} at once; L1 → L1: ${BURST_L1} at once (${os.cpus().length} cores)`);
console.log('| relayer | C → L1 latency p50 / p99 (source block → executed) | C → L1 delivered/s (burst; ACP-176 paces C) | L1 → L1 delivered/s (burst) |');
console.log('|---|---|---|---|');
for (const r of [inNode, outside]) console.log(`| ${r.label} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} ms | ${r.rate.toFixed(1)} | ${r.l1Rate.toFixed(1)} |`);
