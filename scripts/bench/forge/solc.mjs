#!/usr/bin/env node
// The npm solc (soljson: solc compiled to JavaScript, package.json's version) behind the two parts
// of native solc's command line that forge uses, so that forge can compile with it where no native
// solc can be downloaded (forge --use <this file's shim>, offline = true):
//   --version          native solc's two lines, the last of them "Version: <long version>"
//   --standard-json    Standard JSON input on stdin, output on stdout; an import the input does not
//                      carry is read relative to --base-path, then each --include-path, then as given
// Anything else: a message on stderr and exit 2.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

const args = process.argv.slice(2);

/** The values of a flag given as `--flag value` or `--flag=value`, possibly several times or comma-separated. */
function valuesOf(flag) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag && i + 1 < args.length) out.push(args[++i]);
    else if (args[i].startsWith(`${flag}=`)) out.push(args[i].slice(flag.length + 1));
  }
  return out.flatMap((v) => v.split(',')).filter(Boolean);
}

/** Reads an import that the input does not carry: relative to the base path, then the include paths, then as given. */
function importer(basePath, includePaths) {
  return (name) => {
    const candidates = [...[basePath, ...includePaths].filter(Boolean).map((dir) => path.resolve(dir, name)), path.resolve(name)];
    for (const file of candidates) {
      if (existsSync(file)) {
        try {
          return { contents: readFileSync(file, 'utf8') };
        } catch (e) {
          return { error: String(e?.message ?? e) };
        }
      }
    }
    return { error: `File not found: ${name}` };
  };
}

if (args.includes('--version')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
} else if (args.includes('--standard-json')) {
  const input = readFileSync(0, 'utf8');
  const [basePath] = valuesOf('--base-path');
  const includePaths = valuesOf('--include-path');
  process.stdout.write(solc.compile(input, { import: importer(basePath ?? process.cwd(), includePaths) }));
} else {
  process.stderr.write(`solc.mjs: only --version and --standard-json are supported (got: ${args.join(' ')})\n`);
  process.exitCode = 2;
}
