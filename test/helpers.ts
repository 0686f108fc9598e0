// Test helpers: every test talks HTTP to a real node, started in-process on a free port or spawned
// as the CLI a user runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type NodeOptions } from '../src/index.js';

export const CLI = resolve(import.meta.dirname, '../dist/avalanche-emulator.js');

export function tempDir(prefix = 'emu-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestNode {
  uri: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** An in-process node on a free port with its own data dir. */
export async function startTestNode(options: NodeOptions = {}): Promise<TestNode> {
  const dataDir = (options.dataDir as string | undefined) ?? tempDir();
  const { uri, stop } = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir, ...options });
  return { uri, dataDir, stop };
}

export interface RpcReply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** POSTs a raw body, returning status, headers, raw text and parsed JSON (if any). */
export async function post(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<RpcReply> {
  // A Uint8Array body keeps fetch from adding a Content-Type of its own.
  const res = await fetch(url, { method: 'POST', headers, body: new TextEncoder().encode(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A JSON-RPC call in avalanchego's dialect. */
export async function rpc(url: string, method: string, params?: unknown, id: unknown = 1): Promise<RpcReply> {
  const msg: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (params !== undefined) msg.params = params;
  return post(url, JSON.stringify(msg));
}

/** The `result` of a successful call; fails the test with the error otherwise. */
export async function call(url: string, method: string, params?: unknown): Promise<any> {
  const reply = await rpc(url, method, params);
  if (reply.json?.error) throw new Error(`${method}: ${reply.json.error.message}`);
  return reply.json.result;
}

/** The error object of a call that must fail. */
export async function callError(url: string, method: string, params?: unknown): Promise<{ code: number; message: string; data: unknown }> {
  const reply = await rpc(url, method, params);
  if (!reply.json?.error) throw new Error(`${method} succeeded: ${reply.text}`);
  return reply.json.error;
}

export interface SpawnedNode {
  child: ChildProcess;
  uri: string;
  contextFile: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Spawns the CLI and waits for its process context file, the way tmpnet finds a node on port 0. */
export async function spawnNode(args: string[], dataDir = tempDir()): Promise<SpawnedNode> {
  const contextFile = join(dataDir, 'process.json');
  const child = spawn(process.execPath, [CLI, `--data-dir=${dataDir}`, '--http-port=0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  // 'close' (after 'exit' and the end of its output): a test that reads output() once it exited sees all of it.
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const deadline = Date.now() + 15_000;
  while (!existsSync(contextFile)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`node did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const { uri } = JSON.parse(readFileSync(contextFile, 'utf8')) as { uri: string };
  return { child, uri, contextFile, output: () => out, exited };
}

/** Runs the CLI to completion (for flag errors, --help, --version). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // 'close', not 'exit': the process may exit before its piped output has all been read.
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
