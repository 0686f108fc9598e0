// An esbuild plugin for the bundle: the object spreads of three of ethereumjs's hottest files are
// lowered to esbuild's helpers, which copy one property at a time.
//
// Node 20's V8 (11.3) takes a slow path when a spread adds properties to an object another spread
// made (`{ ...a, ...b }`, `{ ...a, newKey }`): about 2 µs a property. ethereumjs builds every
// message frame's result that way (EVM.runInterpreter's `{ ...runState, ...result, ...env }`,
// _executeCall's `{ ...{ codeAddress }, ...message, gasLimit }`): 60-100 µs per frame, a tenth of
// an eth_call. Its 1559 txs and its receipts are built so too. The helpers do the same 4x faster.
// Only these files: in the rest of the code the native spread is mostly the fast kind (`{ ...a }`),
// and lowering every file cost the block builder and the metrics more than it saved them.
import { readFile } from 'node:fs/promises';
import { transform } from 'esbuild';

const FILES = /[\\/]node_modules[\\/]@ethereumjs[\\/](evm[\\/]dist[\\/]esm[\\/]evm|vm[\\/]dist[\\/]esm[\\/]runTx|tx[\\/]dist[\\/]esm[\\/]1559[\\/]tx)\.js$/;

export const lowerSpreads = {
  name: 'lower-spreads',
  setup(build) {
    build.onLoad({ filter: FILES }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      const options = { loader: 'js', format: 'esm', target: 'node20', supported: { 'object-rest-spread': false } };
      return { contents: (await transform(source, options)).code, loader: 'js' };
    });
  },
};
