// The websocket family of the fuzz: sessions on /ext/bc/C/ws and /ext/bc/myl1/ws, written raw on a
// net.Socket after a hand-made upgrade handshake, so that any frame can be sent. A session sends
// JSON-RPC messages (calls, batches, eth_subscribe and eth_unsubscribe, garbage text, binary and
// fragmented messages, pings) and must be answered; or it sends a malformed frame and must be
// closed, with RFC 6455's close code where one applies (1009 too big, 1007 invalid UTF-8, 1002 a
// protocol error); or its handshake is odd and must be refused with a 4xx. A session that gets
// neither its answers nor a close is a hang.
import net from 'node:net';
import { gethReplyError, type FuzzRequest, q, type Rng, type WsScript, type WsStep } from './fuzz-core.js';
import { EVM_CHAINS, EVM_METHODS, LOG_ADDRESS, LOG_TOPIC } from './fuzz-evm.js';

// =============================================================================================
// Frames.

export interface FrameOptions {
  opcode: number;
  payload: Buffer;
  fin?: boolean;
  /** RSV1..3 as bits 0x40, 0x20, 0x10. */
  rsv?: number;
  /** null: unmasked (which a client must never send). */
  mask?: Buffer | null;
  /** A declared length other than the payload's (the payload is sent as it is). */
  declared?: bigint;
  /** Force the 64-bit length form. */
  long?: boolean;
}

export function frame(o: FrameOptions): Buffer {
  const len = o.declared ?? BigInt(o.payload.length);
  const masked = o.mask !== null;
  const mask = o.mask ?? Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const b0 = ((o.fin ?? true) ? 0x80 : 0) | (o.rsv ?? 0) | (o.opcode & 0x0f);
  let head: Buffer;
  if (len > 65535n || o.long) {
    head = Buffer.alloc(10);
    head[1] = 127;
    head.writeBigUInt64BE(len & 0xffffffffffffffffn, 2);
  } else if (len > 125n) {
    head = Buffer.alloc(4);
    head[1] = 126;
    head.writeUInt16BE(Number(len), 2);
  } else {
    head = Buffer.alloc(2);
    head[1] = Number(len);
  }
  head[0] = b0;
  if (!masked) return Buffer.concat([head, o.payload]);
  head[1] = head[1]! | 0x80;
  const body = Buffer.from(o.payload);
  for (let i = 0; i < body.length; i++) body[i] = body[i]! ^ mask[i % 4]!;
  return Buffer.concat([head, mask, body]);
}

const text = (s: string | Buffer, extra: Partial<FrameOptions> = {}): Buffer =>
  frame({ opcode: 1, payload: Buffer.isBuffer(s) ? s : Buffer.from(s), ...extra });
const closeFrame = (code: number | undefined, reason: Buffer = Buffer.alloc(0)): Buffer => {
  if (code === undefined) return frame({ opcode: 8, payload: reason });
  const p = Buffer.alloc(2);
  p.writeUInt16BE(code);
  return frame({ opcode: 8, payload: Buffer.concat([p, reason]) });
};

// =============================================================================================
// Sessions.

const CHEAP = Object.entries(EVM_METHODS)
  .filter(([name, s]) => s.cheap && s.params.length === 0 && !name.startsWith('warp_'))
  .map(([name]) => name);

function call(rng: Rng): { message: string; replies: number } {
  const id = rng.int(1_000_000);
  switch (rng.int(12)) {
    case 0:
      return { message: `{"jsonrpc":"2.0","id":${id},"method":"eth_subscribe","params":["newHeads"]}`, replies: 1 };
    case 1:
      return {
        message: `{"jsonrpc":"2.0","id":${id},"method":"eth_subscribe","params":["logs",${rng.pick(['{}', `{"address":${q(LOG_ADDRESS)}}`, `{"topics":[${q(LOG_TOPIC)}]}`, '{"address":"0x12"}', '1'])}]}`,
        replies: 1,
      };
    case 2:
      return {
        message: `{"jsonrpc":"2.0","id":${id},"method":"eth_subscribe","params":[${q(rng.pick(['newPendingTransactions', 'syncing', 'nope', '']))}${rng.chance(0.3) ? ',true' : ''}]}`,
        replies: 1,
      };
    case 3:
      return {
        message: `{"jsonrpc":"2.0","id":${id},"method":"eth_unsubscribe","params":[${rng.chance(0.8) ? '"$SUB"' : rng.pick(['"0x1"', '1', 'null', '""'])}]}`,
        replies: 1,
      };
    case 4: {
      const n = rng.pick([1, 2, 5, 50, 1000, 1001]);
      const items = Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":${q(rng.pick(CHEAP))}}`);
      return { message: `[${items.join(',')}]`, replies: 1 };
    }
    case 5:
      return { message: `{"jsonrpc":"2.0","method":${q(rng.pick(CHEAP))}}`, replies: 0 }; // a notification
    case 6:
      return {
        message: rng.pick(['', ' ', 'x', '{', '[]', 'null', '{"jsonrpc":"2.0","id":1}', '{"id":1,"method":"eth_chainId"}', '\u0000', '😀', '[1,2]']),
        replies: 1,
      };
    case 10:
      // Methods that do not exist, some named like what every JavaScript object has.
      return {
        message: `{"jsonrpc":"2.0","id":${id},"method":${q(rng.pick(['eth_nope', 'eth_constructor', 'net_valueOf', 'eth___proto__', 'rpc_modules', 'eth_subscription']))},"params":[]}`,
        replies: 1,
      };
    case 7:
      return {
        message: `{"jsonrpc":"2.0","id":${id},"method":"eth_getBlockByNumber","params":[${rng.pick(['"latest"', '"0x0"', '"0xffffffffffffffff"', '1'])},${rng.pick(['true', 'false'])}]}`,
        replies: 1,
      };
    case 8:
      return {
        message: `{"jsonrpc":"2.0","id":${id},"method":"eth_getLogs","params":[{"fromBlock":"0x0","toBlock":"latest","address":${q(LOG_ADDRESS)}}]}`,
        replies: 1,
      };
    default:
      return { message: `{"jsonrpc":"2.0","id":${id},"method":${q(rng.pick(CHEAP))},"params":[]}`, replies: 1 };
  }
}

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xc3],
  [0xe2, 0x82],
  [0x80],
];

const RESERVED_OPCODES = [0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xd, 0xe, 0xf];
const INVALID_CLOSE_CODES = [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535];
const VALID_CLOSE_CODES = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4000, 4999];

const BIG = 4 * 1024 * 1024;

/** The ws family: one session. */
export function wsSession(index: number, rng: Rng): FuzzRequest {
  const chain = rng.chance(0.6) ? EVM_CHAINS.C : EVM_CHAINS.myl1;
  const path = rng.chance(0.8) ? chain.ws[0]! : rng.pick([...chain.ws, `${chain.ws[0]}?x=1`]);
  const steps: WsStep[] = [];
  const lead = (): void => {
    // Sometimes a valid call first: it must be answered before the bad frame closes the connection.
    if (rng.chance(0.3)) {
      const c = call(rng);
      steps.push({ message: c.message, replies: c.replies });
    }
  };
  const script = (kind: string, closeCodes?: number[], extra: Partial<WsScript> = {}): FuzzRequest => {
    const ws: WsScript = { path, handshake: {}, steps, kind, ...(closeCodes ? { closeCodes } : {}), ...extra };
    const size = steps.reduce((n, s) => n + (s.raw?.length ?? Buffer.byteLength(s.message ?? '')), 0);
    return { index, family: 'ws', note: `${chain.name} ${kind} (${steps.length} steps, ${size} bytes)`, method: 'GET', path: ws.path, headers: {}, ws };
  };
  const k = rng.weighted([
    ['messages', 30],
    ['fragmented', 4],
    ['ping', 3],
    ['utf8', 4],
    ['unmasked', 3],
    ['opcode', 3],
    ['rsv', 3],
    ['fragmented-control', 2],
    ['close-invalid', 3],
    ['close-valid', 2],
    ['close-odd', 2],
    ['continuation', 3],
    ['interleaved', 2],
    ['control-too-long', 2],
    ['declared-huge', 2],
    ['too-big', 1],
    ['slow', 1],
    ['handshake', 4],
  ] as const);
  switch (k) {
    case 'messages': {
      const n = rng.weighted([
        [1, 4],
        [2, 3],
        [3, 2],
        [rng.range(4, 8), 1],
      ] as const);
      for (let i = 0; i < n; i++) {
        const c = call(rng);
        steps.push({ message: c.message, replies: c.replies, ...(rng.chance(0.1) ? { binary: true } : {}) });
      }
      return script('messages');
    }
    case 'fragmented': {
      // A valid message over several frames, a ping in between allowed: it must be answered.
      const c = call(rng);
      steps.push({ message: c.message, replies: c.replies, fragments: rng.range(2, 6) });
      return script('fragmented');
    }
    case 'ping': {
      const payload = rng.bytes(rng.int(126));
      lead();
      steps.push({ raw: frame({ opcode: 9, payload }), replies: 1 });
      return script('ping');
    }
    case 'utf8': {
      lead();
      const bad = Buffer.from(rng.pick(INVALID_UTF8));
      const good = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["');
      const tail = Buffer.from('"]}');
      const where = rng.int(3);
      if (where === 0) steps.push({ raw: text(Buffer.concat([good, bad, tail])), replies: 0 });
      else if (where === 1) steps.push({ raw: text(bad), replies: 0 });
      else {
        // across fragments: the bad sequence split over a text frame and its continuation
        const all = Buffer.concat([good, bad, tail]);
        const cut = good.length + 1;
        steps.push({ raw: Buffer.concat([text(all.subarray(0, cut), { fin: false }), frame({ opcode: 0, payload: all.subarray(cut) })]), replies: 0 });
      }
      return script(`invalid UTF-8 ${bad.toString('hex')}`, [1007]);
    }
    case 'unmasked': {
      lead();
      steps.push({ raw: text('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { mask: null }), replies: 0 });
      return script('unmasked frame', [1002]);
    }
    case 'opcode': {
      lead();
      const op = rng.pick(RESERVED_OPCODES);
      steps.push({ raw: frame({ opcode: op, payload: rng.bytes(rng.int(20)) }), replies: 0 });
      return script(`reserved opcode 0x${op.toString(16)}`, [1002]);
    }
    case 'rsv': {
      lead();
      const rsv = rng.pick([0x40, 0x20, 0x10, 0x70]);
      steps.push({ raw: text('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { rsv }), replies: 0 });
      return script(`RSV bits 0x${rsv.toString(16)}`, [1002]);
    }
    case 'fragmented-control': {
      lead();
      const op = rng.pick([8, 9, 10]);
      steps.push({ raw: frame({ opcode: op, payload: op === 8 ? Buffer.from([0x03, 0xe8]) : Buffer.from('x'), fin: false }), replies: 0 });
      return script(`fragmented control 0x${op.toString(16)}`, [1002]);
    }
    case 'close-invalid': {
      lead();
      const code = rng.pick(INVALID_CLOSE_CODES);
      steps.push({ raw: closeFrame(code), replies: 0 });
      return script(`close code ${code}`, [1002]);
    }
    case 'close-valid': {
      lead();
      const code = rng.pick(VALID_CLOSE_CODES);
      steps.push({ raw: closeFrame(code, rng.chance(0.5) ? Buffer.from('bye') : Buffer.alloc(0)), replies: 0 });
      // The close is echoed (with the code, or 1000 / none).
      return script('close with a valid code', [code, 1000, 1005]);
    }
    case 'close-odd': {
      lead();
      const r = rng.int(3);
      if (r === 0) {
        steps.push({ raw: frame({ opcode: 8, payload: Buffer.from([0x03]) }), replies: 0 });
        return script('close with a 1-byte payload', [1002]);
      }
      if (r === 1) {
        steps.push({ raw: closeFrame(1000, Buffer.from(rng.pick(INVALID_UTF8))), replies: 0 });
        return script('close reason invalid UTF-8', [1007]);
      }
      steps.push({ raw: closeFrame(undefined), replies: 0 });
      return script('close without a code', [1000, 1005]);
    }
    case 'continuation': {
      lead();
      steps.push({ raw: frame({ opcode: 0, payload: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}') }), replies: 0 });
      return script('continuation without a start', [1002]);
    }
    case 'interleaved': {
      lead();
      steps.push({ raw: Buffer.concat([text('{"jsonrpc":', { fin: false }), text('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')]), replies: 0 });
      return script('a new message inside a fragmented one', [1002]);
    }
    case 'control-too-long': {
      lead();
      const op = rng.pick([9, 10, 8]);
      steps.push({ raw: frame({ opcode: op, payload: Buffer.alloc(rng.pick([126, 200, 1000]), 0x31) }), replies: 0 });
      return script(`control frame 0x${op.toString(16)} over 125 bytes`, [1002]);
    }
    case 'declared-huge': {
      lead();
      const declared = rng.pick([BigInt(BIG + 1), 2n ** 32n, 2n ** 53n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n]);
      // The header alone (and a few bytes): the node must refuse the length, not wait for it.
      steps.push({ raw: text(rng.bytes(rng.int(16)), { declared, long: true }), replies: 0 });
      return script(`declared length ${declared}`, declared >= 2n ** 63n ? [1009, 1002] : [1009]);
    }
    case 'too-big': {
      // A text frame over 4 MiB, sent whole (the node's message limit is 4 MiB).
      const size = BIG + rng.range(1, 64 * 1024);
      const payload = Buffer.alloc(size, 0x20);
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}').copy(payload);
      steps.push({ raw: text(payload, { long: true }), replies: 0 });
      return script(`text frame of ${size} bytes`, [1009]);
    }
    case 'slow': {
      // Half a frame, a pause, the rest: answered once it is whole.
      const c = call(rng);
      const f = text(c.message.length === 0 ? '""' : c.message);
      const cut = rng.range(1, f.length - 1);
      steps.push({ raw: f.subarray(0, cut), replies: 0, pauseMs: 400 });
      steps.push({ raw: f.subarray(cut), replies: c.message.length === 0 ? 1 : c.replies });
      return script('a frame in two writes 0.4 s apart');
    }
    default: {
      // Odd handshakes: refused with a 4xx.
      const odd = rng.pick([
        { 'Sec-WebSocket-Key': null },
        { 'Sec-WebSocket-Key': 'short' },
        { 'Sec-WebSocket-Version': '8' },
        { 'Sec-WebSocket-Version': 'x' },
        { 'Sec-WebSocket-Version': null },
        { Host: 'evil.example' },
        { Upgrade: 'h2c' },
        { 'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits=0' },
      ] as Array<Record<string, string | null>>);
      const oddPath = rng.chance(0.3)
        ? rng.pick([
            '/ext/bc/X/ws',
            '/ext/bc/C/rpc',
            '/ext/bc/nope/ws',
            `${chain.ws[0]}/x`,
            '/ext/bc/C/ws%00',
            '/ext/bc/%zz/ws',
            '/ext/info',
            '/v1/chains/43112',
          ])
        : undefined;
      // A bad extension offer is ignored by a server without extensions, and ws also speaks the
      // hybi-08 draft (version 8): those sessions go on.
      const deflate = ('Sec-WebSocket-Extensions' in odd || odd['Sec-WebSocket-Version'] === '8') && oddPath === undefined;
      if (deflate) {
        const c = call(rng);
        steps.push({ message: c.message, replies: c.replies });
      }
      const ws: WsScript = {
        path: oddPath ?? path,
        handshake: odd,
        steps,
        kind: `handshake ${JSON.stringify(odd)}${oddPath ? ` at ${oddPath}` : ''}`,
        ...(deflate ? {} : { refused: true }),
      };
      return { index, family: 'ws', note: ws.kind, method: 'GET', path: ws.path, headers: {}, ws };
    }
  }
}

// =============================================================================================
// Running a session.

export interface WsOutcome {
  ms: number;
  /** The handshake's HTTP status (101 when upgraded). */
  status?: number;
  replies: number;
  expected: number;
  /** Invalid JSON-RPC messages received. */
  invalid: string[];
  /** The server's close frame code ('none': a close frame without a code), or undefined if it sent none. */
  closeCode?: number | 'none';
  /** The connection ended (the server closed it or dropped it). */
  ended: boolean;
  timedOut: boolean;
  error?: string;
  /** Messages and frames written after the handshake. */
  framesSent: number;
}

interface Parsed {
  opcode: number;
  fin: boolean;
  payload: Buffer;
}

/** Server frames (unmasked) at the head of `buf`; returns the rest. */
function parseFrames(buf: Buffer, out: Parsed[]): Buffer {
  let off = 0;
  for (;;) {
    if (buf.length - off < 2) break;
    const b0 = buf[off]!;
    const b1 = buf[off + 1]!;
    let len = b1 & 0x7f;
    let head = 2;
    if (len === 126) {
      if (buf.length - off < 4) break;
      len = buf.readUInt16BE(off + 2);
      head = 4;
    } else if (len === 127) {
      if (buf.length - off < 10) break;
      len = Number(buf.readBigUInt64BE(off + 2));
      head = 10;
    }
    const masked = (b1 & 0x80) !== 0;
    if (masked) head += 4;
    if (buf.length - off < head + len) break;
    let payload = buf.subarray(off + head, off + head + len);
    if (masked) {
      const mask = buf.subarray(off + head - 4, off + head);
      payload = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
    }
    out.push({ opcode: b0 & 0x0f, fin: (b0 & 0x80) !== 0, payload });
    off += head + len;
  }
  return buf.subarray(off);
}

function handshakeText(path: string, host: string, extra: Record<string, string | null>): string {
  const headers: Record<string, string | null> = {
    Host: host,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version': '13',
    ...extra,
  };
  const lines = Object.entries(headers)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}: ${v}`);
  return `GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** Frames a message as a client must (masked), in `fragments` frames. */
function frameMessage(message: string, binary: boolean, fragments: number): Buffer {
  const payload = Buffer.from(message);
  const op = binary ? 2 : 1;
  if (fragments <= 1 || payload.length < fragments) return frame({ opcode: op, payload });
  const size = Math.ceil(payload.length / fragments);
  const parts: Buffer[] = [];
  for (let i = 0, n = 0; i < payload.length; i += size, n++) {
    const last = i + size >= payload.length;
    parts.push(frame({ opcode: n === 0 ? op : 0, payload: payload.subarray(i, i + size), fin: last }));
    // A ping between fragments is allowed (control frames may be interleaved).
    if (n === 0 && !last) parts.push(frame({ opcode: 9, payload: Buffer.from('mid') }));
  }
  return Buffer.concat(parts);
}

export function runWsSession(base: URL, script: WsScript, timeoutMs: number): Promise<WsOutcome> {
  const t0 = performance.now();
  const expected = script.steps.reduce((n, s) => n + s.replies, 0);
  return new Promise((resolve) => {
    const o: WsOutcome = { ms: 0, replies: 0, expected, invalid: [], ended: false, timedOut: false, framesSent: 0 };
    let done = false;
    let head: Buffer | undefined = Buffer.alloc(0) as Buffer;
    let rest: Buffer = Buffer.alloc(0);
    let message: Buffer[] = [];
    let lastSub: string | undefined;
    let wake: (() => void) | undefined;
    const socket = net.connect(Number(base.port), base.hostname);
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.ms = performance.now() - t0;
      socket.destroy();
      resolve(o);
    };
    const timer = setTimeout(() => {
      o.timedOut = true;
      finish();
    }, timeoutMs);
    const poke = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    /** Resolves when `cond` holds, or the connection ended, or the session is over. */
    const until = (cond: () => boolean): Promise<void> =>
      new Promise((r) => {
        const check = () => {
          if (done || o.ended || o.closeCode !== undefined || cond()) r();
          else wake = check;
        };
        check();
      });
    const onMessage = (payload: Buffer) => {
      const textOf = payload.toString('utf8');
      let v: unknown;
      try {
        v = JSON.parse(textOf);
      } catch {
        o.invalid.push(`not JSON: ${textOf.slice(0, 80)}`);
        o.replies++;
        return;
      }
      const obj = v as { method?: unknown; params?: { subscription?: unknown }; result?: unknown };
      if (!Array.isArray(v) && obj && typeof obj === 'object' && obj.method === 'eth_subscription') {
        if (typeof obj.params?.subscription !== 'string') o.invalid.push(`bad notification: ${textOf.slice(0, 80)}`);
        return;
      }
      const bad = gethReplyError(textOf);
      if (bad) o.invalid.push(`${bad}: ${textOf.slice(0, 80)}`);
      if (!Array.isArray(v) && typeof obj?.result === 'string' && /^0x[0-9a-f]{1,32}$/.test(obj.result)) lastSub = obj.result;
      o.replies++;
    };
    const onFrames = (frames: Parsed[]) => {
      for (const f of frames) {
        if (f.opcode === 8) {
          o.closeCode = f.payload.length >= 2 ? f.payload.readUInt16BE(0) : 'none';
        } else if (f.opcode === 9) {
          socket.write(frame({ opcode: 10, payload: f.payload }));
        } else if (f.opcode === 10) {
          o.replies++; // the pong to our ping
        } else if (f.opcode === 1 || f.opcode === 2 || f.opcode === 0) {
          message.push(f.payload);
          if (f.fin) {
            onMessage(Buffer.concat(message));
            message = [];
          }
        }
      }
    };
    socket.on('data', (chunk: Buffer) => {
      if (head !== undefined) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const m = /^HTTP\/1\.1 (\d{3})/.exec(head.subarray(0, end).toString('latin1'));
        o.status = m ? Number(m[1]) : 0;
        rest = head.subarray(end + 4);
        head = undefined;
        if (o.status !== 101) {
          finish();
          return;
        }
        void drive();
      } else {
        rest = Buffer.concat([rest, chunk]);
      }
      const frames: Parsed[] = [];
      rest = parseFrames(rest, frames);
      onFrames(frames);
      poke();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      o.error ??= err.code ?? err.message;
    });
    socket.on('close', () => {
      o.ended = true;
      poke();
      // The handshake's answer may have been all there was.
      if (head !== undefined || o.status !== 101) finish();
    });
    socket.on('connect', () => {
      socket.write(handshakeText(script.path, `${base.hostname}:${base.port}`, script.handshake));
    });
    const drive = async () => {
      let want = 0;
      for (const step of script.steps) {
        if (done || o.ended) break;
        const bytes = step.raw ?? frameMessage((step.message ?? '').replaceAll('$SUB', lastSub ?? '0x0'), step.binary ?? false, step.fragments ?? 1);
        socket.write(bytes);
        o.framesSent++;
        want += step.replies;
        if (step.pauseMs) await new Promise((r) => setTimeout(r, step.pauseMs));
        await until(() => o.replies >= want);
      }
      if (script.closeCodes) {
        // The node must close: wait for its close frame (or the end of the connection).
        await until(() => false);
      } else if (!done && !o.ended && o.closeCode === undefined) {
        socket.write(closeFrame(1000));
        await Promise.race([until(() => false), new Promise((r) => setTimeout(r, 1000))]);
      }
      finish();
    };
  });
}
