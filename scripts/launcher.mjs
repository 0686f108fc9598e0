#!/usr/bin/env node
// The avalanche-emulator command. It runs the node's bundle (avalanche-emulator.cjs, made by
// scripts/bundle.mjs) through V8's code cache: the cache holds the bundle's functions as the build
// compiled them while starting a node once, so a start-up reads compiled code instead of parsing
// and compiling about 1.2 MB of JavaScript (some 50 ms of the node's start-up here). V8 checks
// that the cache fits this bundle, this V8 version and these flags; when it does not (another Node
// version, a rebuilt bundle), the bundle is compiled as usual and runs the same.
// With AVALANCHE_EMULATOR_WRITE_CODE_CACHE=1 (the build does this), the cache is written on exit.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const bundle = path.join(path.dirname(fileURLToPath(import.meta.url)), 'avalanche-emulator.cjs');
const cacheFile = `${bundle}.cache`;
// The bundle's hashbang line (from src/cli.ts) is emptied, so line numbers stay as they are.
const body = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
const source = `(function (exports, require, module, __filename, __dirname) {${body}\n})`;
const writeCache = process.env.AVALANCHE_EMULATOR_WRITE_CODE_CACHE === '1';
const cachedData = !writeCache && existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
const script = new vm.Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
if (writeCache) process.once('exit', () => writeFileSync(cacheFile, script.createCachedData()));
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
