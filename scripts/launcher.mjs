#!/usr/bin/env node
// The avalanche-emulator command. It runs the node's bundle (avalanche-emulator.cjs, made by
// scripts/bundle.mjs) through V8's code cache: the cache holds the bundle's functions as the build
// compiled them while starting a node once, so a start-up reads compiled code instead of parsing
// and compiling about 1.7 MB of JavaScript (some 50 ms of the node's start-up here). V8 checks
// that the cache fits this bundle, this V8 version and these flags; when it does not (another Node
// version, a rebuilt bundle), the bundle is compiled as usual and runs the same.
// With AVALANCHE_EMULATOR_WRITE_CODE_CACHE=1 (the build does this), the cache is written on exit.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

// Two V8 flags for a node that is freshly started more often than it runs for long (a test
// suite, a CI job). A third of the CPU of a freshly started node's first 3,000 txs went to
// TurboFan, optimizing some 260 functions on V8's background threads, many of them for more than
// their optimized code then saved:
// - no function whose bytecode is over 2,000 bytes is optimized (V8's default: 61,440). Over it
//   are the large functions that run once per tx or call (@ethereumjs's runTx, 9,088 bytes;
//   runCall and _executeCall, about 3,500). Under it stay the EVM interpreter's loop (1,721) and
//   keccak's permutation (1,112): with a limit of 1,000 a loop of KECCAK256s in eth_call ran a
//   quarter slower;
// - a function is optimized after about 4 times as much interpreted work as by default (V8's
//   interrupt budget, 67,584), so fewer functions that are only warm are compiled.
// In interleaved runs of 3,000 batched transfers on freshly started nodes (bench:evm's phase 2)
// with the node on one core: some 15–20 % more tx/s and 15–20 % less node CPU; the 1,000
// sequential sends of phase 1 gained as much. The flags are set before the bundle is compiled: the
// code cache was written under the same flags (the build starts a node through this file). Either
// flag given to node itself wins.
// Two seconds on, V8's own values come back (AFTER_START): held to the two flags, a node that had
// answered 12,000 eth_calls still spent 700–960 µs of CPU on each uncached one and 185–300 µs on
// an eth_chainId, against 550–680 and 110–160 µs with V8's values (callbench, 2026-11-27), and
// eth_call at 32 connections ran at 0.28–0.36× bare node:http's req/s against 0.47–0.48×
// (bench:evm phase 4). Switched after start-up, bench:evm's phases 1 and 3 kept the flags' CPU
// (2.79 ms per tx, 0.28 s; V8's values from the start: 3.57–3.70, 0.43–0.46) and bench:suite's
// ERC-20 mix on C ran at 11.5, 12.8, 12.9 tests/s in three rounds against 10.8, 10.5, 12.4 with
// the flags throughout. Both are read by V8 as it runs (at each tier-up check); the switch is not
// made when the build writes the code cache, whose flag hash must stay the start-up one.
// The Node modules the bundle requires (listed by the build in avalanche-emulator.builtins.json)
// are loaded first: loaded after the flags were set, they made start-up some 20–30 ms slower
// (medians of 16–30 interleaved starts; Node's own code cache is made for its default flags).
const here = path.dirname(fileURLToPath(import.meta.url));
const builtinsFile = path.join(here, 'avalanche-emulator.builtins.json');
if (existsSync(builtinsFile)) {
  const load = createRequire(import.meta.url);
  for (const name of JSON.parse(readFileSync(builtinsFile, 'utf8'))) load(name);
}
const V8_FLAGS = ['--max-optimized-bytecode-size=2000', '--interrupt-budget=264000'];
const AFTER_START = ['--max-optimized-bytecode-size=61440', '--interrupt-budget=67584'];
const SWITCH_MS = 2_000;
const setFlags = (flags) => {
  for (const flag of flags) {
    const name = flag.split('=')[0];
    if (!process.execArgv.some((a) => a === name || a.startsWith(`${name}=`))) v8.setFlagsFromString(flag);
  }
};
setFlags(V8_FLAGS);

const bundle = path.join(here, 'avalanche-emulator.cjs');
const cacheFile = `${bundle}.cache`;
// The bundle is a module function's source already (scripts/bundle.mjs wraps it), all ASCII: read
// as latin1, it becomes V8's one-byte string with no decoding, and is compiled as read (not copied
// again to strip a hashbang and wrap it).
const source = readFileSync(bundle, 'latin1');
const writeCache = process.env.AVALANCHE_EMULATOR_WRITE_CODE_CACHE === '1';
const cachedData = !writeCache && existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
const script = new vm.Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
if (writeCache) process.once('exit', () => writeFileSync(cacheFile, script.createCachedData()));
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
if (!writeCache) setTimeout(() => setFlags(AFTER_START), SWITCH_MS).unref();
