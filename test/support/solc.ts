// Solidity for the C-Chain client tests: the npm solc (soljson 0.8.37) through its standard JSON
// interface, always for Cancun (coreth 1.14.2 runs Cancun: no Prague, no EOF) with the optimizer on.
// Compiling is slow (seconds), so each distinct input is compiled once per process.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import solc from 'solc';

export const FIXTURES_DIR = resolve(import.meta.dirname, '../fixtures/contracts');
export const EVM_VERSION = 'cancun';

export interface CompiledContract {
  /** The JSON ABI, as solc gives it (usable by ethers and viem alike). */
  abi: any[];
  /** Creation code, 0x-prefixed. */
  bytecode: `0x${string}`;
  /** Runtime code, 0x-prefixed: what eth_getCode returns once deployed. */
  deployedBytecode: `0x${string}`;
  /** Selector by signature, e.g. { 'transfer(address,uint256)': 'a9059cbb' }. */
  methodIdentifiers: Record<string, string>;
}

/** Contracts by source file name, then contract name. */
export type CompiledSources = Record<string, Record<string, CompiledContract>>;

interface SolcMessage {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}

const cache = new Map<string, CompiledSources>();

/** The standard JSON input solc is given for these sources. */
export function standardInput(sources: Record<string, string>): object {
  return {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] } },
    },
  };
}

/** Compiles Solidity sources (file name -> text); throws with solc's messages on any error. */
export function compileSources(sources: Record<string, string>): CompiledSources {
  const input = JSON.stringify(standardInput(sources));
  const hit = cache.get(input);
  if (hit) return hit;
  const output = JSON.parse(solc.compile(input)) as {
    errors?: SolcMessage[];
    contracts?: Record<
      string,
      Record<string, { abi: any[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string }; methodIdentifiers: Record<string, string> } }>
    >;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc ${solc.version()}:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled: CompiledSources = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    compiled[file] = {};
    for (const [name, c] of Object.entries(contracts)) {
      compiled[file][name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        methodIdentifiers: c.evm.methodIdentifiers,
      };
    }
  }
  cache.set(input, compiled);
  return compiled;
}

/** Every test/fixtures/contracts/*.sol, compiled together. */
export function compileFixtures(): CompiledSources {
  const files = readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  return compileSources(Object.fromEntries(files.map((f) => [f, readFileSync(join(FIXTURES_DIR, f), 'utf8')])));
}

/** One fixture contract by name (TestToken, TestNFT, Probe), searched across the fixture files. */
export function fixture(name: string): CompiledContract {
  for (const contracts of Object.values(compileFixtures())) {
    const found = contracts[name];
    if (found) return found;
  }
  throw new Error(`no fixture contract named ${name} in ${FIXTURES_DIR}`);
}

/** The compiler's own version string, e.g. 0.8.37+commit.<hash>.Emscripten.clang. */
export function solcVersion(): string {
  return solc.version();
}
