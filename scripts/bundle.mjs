// Bundles the compiled CLI (dist/cli.js and every ES module it imports) into one file. Node 20
// loads ES modules one file at a time; one file instead of about sixty saves some 60 ms of
// start-up. CommonJS packages loaded through createRequire (express) and the native LevelDB
// binding stay external and load from node_modules as before.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/avalanche-emulator.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['classic-level', 'level', 'memory-level', 'express', '@noble/curves', 'ws', 'secp256k1'],
  logLevel: 'warning',
  // CommonJS dependencies bundled in (debug, under @ethereumjs) require node's built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
