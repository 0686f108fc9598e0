// What an upstream's HTTP reply says about each call it carried. Pure, so every shape a throttling
// or batch-refusing RPC answers with is decided in one place: the client only acts on the verdict.
import type { UpstreamErrorKind } from './upstreamerror.js';
import type { HttpReply } from './upstreamhttp.js';
import {
  batchTrouble,
  failedForItsBatch,
  isRateLimited,
  isRpcErrorObject,
  parseRetryAfter,
  rpcBackoffHint,
  type RpcErrorObject,
  retryableStatus,
} from './upstreamretry.js';

/** Why a call failed, and whether sending it again may help. */
export interface Failure {
  kind: UpstreamErrorKind;
  detail: string;
  retry: boolean;
  code?: number;
  data?: unknown;
  /** The wait the upstream asked for (Retry-After, or one named in its JSON-RPC error). */
  hintMs?: number;
}

/** One call's answer: a result, a failure, or "send me alone" (it failed only because of its batch). */
export type Answer = { result: unknown } | { failure: Failure } | { alone: true };

export type Verdict =
  /** An answer per call, in the calls' order; undefined where the batch reply had none. */
  | { kind: 'each'; answers: (Answer | undefined)[] }
  /** The same failure for every call. */
  | { kind: 'all'; failure: Failure }
  /** The batch itself was refused: send smaller batches, or none. */
  | { kind: 'batch'; trouble: 'too-large' | 'refused' };

/** A batch reply with no element for a call: alloy retries these (MissingBatchResponse). */
export const MISSING: Failure = { kind: 'invalid', detail: 'the batch reply had no answer for this call', retry: true };

/** The verdict on `reply` to the calls with `ids` (one id: a single request, more: a batch). */
export function judge(ids: readonly number[], reply: HttpReply): Verdict {
  const ok = reply.status >= 200 && reply.status < 300;
  const hintMs = parseRetryAfter(reply.retryAfter);
  // 429, 503 and a Retry-After mean "slow down" whatever the body says.
  if (!ok && (reply.status === 429 || reply.status === 503 || (hintMs !== undefined && reply.status >= 400))) return all(httpFailure(reply, true, hintMs));
  const json = parse(reply.body);
  if (isJsonRpc(json)) return ids.length === 1 ? judgeOne(ids[0]!, json) : judgeBatch(ids, json);
  if (!ok && retryableStatus(reply.status, false)) return all(httpFailure(reply, true));
  // A proxy that only takes single requests may answer a batch with any error status or page.
  if (ids.length > 1) return { kind: 'batch', trouble: 'refused' };
  if (!ok) return all(httpFailure(reply, false));
  return all({ kind: 'invalid', detail: `the reply is not JSON-RPC: ${reply.body}`, retry: false });
}

function judgeOne(id: number, json: unknown): Verdict {
  if (Array.isArray(json)) return all({ kind: 'invalid', detail: 'the reply to a single call is an array', retry: false });
  const message = json as Record<string, unknown>;
  // Errors about the request as a whole may carry id null.
  const idOk = message.id === id || String(message.id) === String(id) || ('error' in message && message.id == null);
  if (!idOk) return all({ kind: 'invalid', detail: `the reply's id ${JSON.stringify(message.id)} is not the request's ${id}`, retry: false });
  return { kind: 'each', answers: [answerOf(message, false)] };
}

function judgeBatch(ids: readonly number[], json: unknown): Verdict {
  if (!Array.isArray(json)) {
    const error = (json as Record<string, unknown>).error;
    if (isRpcErrorObject(error) && isRateLimited(error)) return all(rpcFailure(error));
    return { kind: 'batch', trouble: (isRpcErrorObject(error) && batchTrouble(error)) || 'refused' };
  }
  const byId = new Map<string, Record<string, unknown>>();
  for (const element of json) {
    if (typeof element !== 'object' || element === null) continue;
    const message = element as Record<string, unknown>;
    // coreth answers an over-long batch with one error under the first call's id.
    const trouble = isRpcErrorObject(message.error) ? batchTrouble(message.error) : undefined;
    if (trouble) return { kind: 'batch', trouble };
    byId.set(String(message.id), message);
  }
  const answers = ids.map((id) => {
    const message = byId.get(String(id));
    return message && answerOf(message, true);
  });
  // Not one call answered: whatever came back, it was not this batch's reply.
  if (answers.every((a) => a === undefined)) return { kind: 'batch', trouble: 'refused' };
  return { kind: 'each', answers };
}

function answerOf(message: Record<string, unknown>, inBatch: boolean): Answer {
  const { error } = message;
  if (error !== undefined && error !== null) {
    if (!isRpcErrorObject(error))
      return { failure: { kind: 'invalid', detail: `the reply's error is not a JSON-RPC error: ${JSON.stringify(error)}`, retry: false } };
    if (inBatch && failedForItsBatch(error)) return { alone: true };
    return { failure: rpcFailure(error) };
  }
  if ('result' in message) return { result: message.result };
  return { failure: { kind: 'invalid', detail: 'the reply has neither result nor error', retry: false } };
}

function rpcFailure(error: RpcErrorObject): Failure {
  const retry = isRateLimited(error);
  const failure: Failure = { kind: 'rpc', detail: error.message, code: error.code, data: error.data, retry };
  const hintMs = retry ? rpcBackoffHint(error) : undefined;
  if (hintMs !== undefined) failure.hintMs = hintMs;
  return failure;
}

function httpFailure(reply: HttpReply, retry: boolean, hintMs?: number): Failure {
  const head = `HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''}`;
  const failure: Failure = { kind: 'http', detail: reply.body ? `${head}: ${reply.body}` : head, retry, code: reply.status };
  if (reply.body) failure.data = reply.body.slice(0, 1000);
  if (hintMs !== undefined) failure.hintMs = hintMs;
  return failure;
}

const all = (failure: Failure): Verdict => ({ kind: 'all', failure });

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** An array (a batch reply, to be checked element by element) or an object with a result or an error. */
function isJsonRpc(json: unknown): boolean {
  if (Array.isArray(json)) return true;
  return typeof json === 'object' && json !== null && ('result' in json || 'error' in json);
}
