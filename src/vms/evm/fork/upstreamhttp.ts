// One JSON POST to the upstream, over node:http or node:https with this client's own keep-alive
// agent: its own so close() can free exactly its sockets (fetch's global pool cannot be closed per
// client), keep-alive so a fork's thousands of reads do not each pay a TCP and TLS handshake.
import http from 'node:http';
import https from 'node:https';

export interface HttpReply {
  status: number;
  statusText: string;
  retryAfter: string | undefined;
  body: string;
}

/** A POST that got no HTTP reply: `timeout` when timeoutMs passed first, `unreachable` otherwise. */
export class TransportFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable',
    message: string,
    /** False when asking again cannot help: a host name that does not exist, a certificate that does not verify. */
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/**
 * Whether a connection error may pass: not a DNS "no such host" (EAI_AGAIN is the passing kind), a
 * TLS certificate error, nor a refused connection. Nothing listens where the URL points: Anvil's
 * fork fails such a read at once (alloy retries rate limits only), where retrying held every read
 * the fork had not cached for half a minute (five backoffs) once its upstream was stopped, past
 * viem's and forge's timeouts. A connection reset or a timeout mid-request is still retried.
 */
export function passing(err: Error): boolean {
  const code = String((err as NodeJS.ErrnoException).code ?? '');
  return code !== 'ENOTFOUND' && code !== 'ECONNREFUSED' && !/CERT|SELF_SIGNED|ERR_TLS/.test(code);
}

export class HttpPoster {
  private readonly agent: http.Agent;
  private readonly aborts = new Set<AbortController>();
  constructor(
    private readonly url: URL,
    maxSockets: number,
    private readonly headers: Record<string, string>,
  ) {
    const Agent = url.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** POSTs `body`; rejects with a TransportFailure if no whole reply comes within `timeoutMs`. */
  post(body: string, timeoutMs: number): Promise<HttpReply> {
    const abort = new AbortController();
    this.aborts.add(abort);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      this.aborts.delete(abort);
    };
    return new Promise<HttpReply>((resolve, reject) => {
      const fail = (err: Error) => {
        done();
        if (timedOut) reject(new TransportFailure('timeout', `no reply within ${timeoutMs} ms`, true));
        else reject(new TransportFailure('unreachable', err.message, passing(err)));
      };
      const request = this.module().request(this.url, { method: 'POST', agent: this.agent, signal: abort.signal, headers: this.headersFor(body) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          done();
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', retryAfter, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      request.on('error', fail);
      request.end(body);
    });
  }

  /** Aborts every POST under way and closes every socket, idle ones included. */
  destroy(): void {
    for (const abort of this.aborts) abort.abort();
    this.aborts.clear();
    this.agent.destroy();
  }

  private module(): typeof http | typeof https {
    return this.url.protocol === 'https:' ? https : http;
  }

  private headersFor(body: string): Record<string, string | number> {
    return { 'content-type': 'application/json', accept: 'application/json', ...this.headers, 'content-length': Buffer.byteLength(body) };
  }
}
