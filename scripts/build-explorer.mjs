// Builds the explorer (explorer/: plain DOM and TypeScript, no framework) into dist/explorer:
// index.html, app.js (one minified ES module) and app.css. The node serves these files at /explorer
// (src/server/explorer.ts) and reads them only when the page is first asked for.
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const out = 'dist/explorer';
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['explorer/src/main.ts'],
  outfile: `${out}/app.js`,
  bundle: true,
  format: 'esm',
  target: 'chrome100',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await build({ entryPoints: ['explorer/app.css'], outfile: `${out}/app.css`, minify: true, logLevel: 'warning' });
copyFileSync('explorer/index.html', `${out}/index.html`);
copyFileSync('explorer/favicon.svg', `${out}/favicon.svg`);
const files = ['index.html', 'app.js', 'app.css', 'favicon.svg'];
const gz = files.reduce((n, f) => n + gzipSync(readFileSync(`${out}/${f}`)).length, 0);
const raw = files.reduce((n, f) => n + statSync(`${out}/${f}`).size, 0);
writeFileSync(`${out}/size.json`, `${JSON.stringify({ bytes: raw, gzipped: gz })}\n`);
if (gz > 300 * 1024) throw new Error(`the explorer is ${gz} bytes gzipped, over its 300 KB budget`);
