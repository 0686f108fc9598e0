// The Data and Metrics APIs' contracts: contracts/data-api.json and metrics-api.json, cut from the
// hosted APIs' OpenAPI documents (scripts/contracts/trim.mjs). Requests are matched and validated
// from them, one source of truth:
// each operation's path template, its parameters' schemas (types, enums, ranges, defaults) and
// its success status. Loaded on the first Data API request, not at start-up.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { badRequest } from './errors.js';

type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Json;
}

export interface Operation {
  id: string;
  method: 'GET' | 'POST';
  /** Path segments; `{name}` segments are parameters (a segment may be `{name}:verb`). */
  segments: string[];
  parameters: Parameter[];
  /** The success status the contract declares (201 for the signature aggregator). */
  status: number;
  /** The request body's schema (POST). */
  body?: Json;
  /** Validates the merged path and query parameters, coercing strings and applying defaults. */
  validate: ValidateFunction;
  validateBody?: ValidateFunction;
}

type Document = { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

export interface Contract {
  operations: Operation[];
}

const FILES = ['data-api', 'metrics-api'] as const;

/** A contract file: in the nearest folder up from this module (src/data or the dist bundle) with contracts/. */
function contractPath(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'contracts', `${name}.json`);
    if (existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`contracts/${name}.json is missing from the installation`);
    dir = up;
  }
}

const lazyRequire = createRequire(import.meta.url);
let loaded: Contract | undefined;

export function contract(): Contract {
  if (loaded) return loaded;
  // JSON Schema 2020-12 (OpenAPI 3.1); OpenAPI's own keywords (discriminator) are not JSON Schema's.
  const Ajv2020 = (lazyRequire('ajv/dist/2020') as { default: new (o: object) => import('ajv').default }).default;
  // strictNumbers: Infinity and NaN (from "Infinity" or "1e400") are not numbers.
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, coerceTypes: true, useDefaults: true, allErrors: true });
  const operations: Operation[] = [];
  for (const file of FILES) {
    const document = JSON.parse(readFileSync(contractPath(file), 'utf8')) as Document;
    ajv.addSchema({ $id: file, components: document.components });
    const rebase = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replaceAll('"#/components/', `"${file}#/components/`));
    operations.push(...operationsOf(document, ajv, rebase));
  }
  loaded = { operations };
  return loaded;
}

function operationsOf(document: Document, ajv: import('ajv').default, rebase: (v: unknown) => unknown): Operation[] {
  const operations: Operation[] = [];
  for (const [p, item] of Object.entries(document.paths)) {
    for (const [verb, raw] of Object.entries(item)) {
      const op = raw as {
        operationId: string;
        parameters?: Parameter[];
        responses: Record<string, unknown>;
        requestBody?: { content: Record<string, { schema: Json }> };
      };
      const parameters = (op.parameters ?? []).map((x) => ({ ...x, required: x.required === true }));
      const properties = Object.fromEntries(parameters.map((x) => [x.name, rebase(x.schema)]));
      const required = parameters.filter((x) => x.required).map((x) => x.name);
      const status = Number(Object.keys(op.responses).find((c) => /^2\d\d$/.test(c)) ?? 200);
      const body = op.requestBody?.content['application/json']?.schema;
      operations.push({
        id: op.operationId,
        method: verb.toUpperCase() as 'GET' | 'POST',
        segments: p.split('/').filter((s) => s !== ''),
        parameters,
        status,
        ...(body ? { body, validateBody: ajv.compile(rebase(body) as Json) } : {}),
        validate: ajv.compile({ type: 'object', properties, required }),
      });
    }
  }
  return operations;
}

/**
 * class-validator's default texts (the hosted API validates with NestJS's ValidationPipe), one per
 * failed parameter: what an SDK user sees in `message`.
 */
export function validationMessages(errors: ErrorObject[] | null | undefined, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of errors ?? []) {
    const name = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : e.instancePath.split('/').filter(Boolean).join('.');
    const p = prefix + name;
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        out.push(`${p} should not be empty`);
        break;
      case 'maximum':
        out.push(`${p} must not be greater than ${params.limit}`);
        break;
      case 'minimum':
        out.push(`${p} must not be less than ${params.limit}`);
        break;
      case 'enum':
        out.push(`${p} must be one of the following values: ${(params.allowedValues as unknown[]).join(', ')}`);
        break;
      case 'type':
        out.push(
          params.type === 'integer'
            ? `${p} must be an integer number`
            : params.type === 'number'
              ? `${p} must be a number conforming to the specified constraints`
              : `${p} must be a ${params.type}`,
        );
        break;
      default:
        out.push(`${p} ${e.message ?? 'is invalid'}`);
    }
  }
  return [...new Set(out)];
}

/** Validates `values` (path and query, as strings) for `op`; answers the typed, defaulted values or throws a 400. */
export function validParameters(op: Operation, values: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...values };
  if (!op.validate(copy)) throw badRequest(validationMessages(op.validate.errors));
  // ajv's coercion reads "Infinity" and "1e400" as numbers, which pass its integer check: not ours.
  const unsafe = op.parameters.filter((p) => {
    const v = copy[p.name];
    return typeof v === 'number' && (!Number.isFinite(v) || (p.schema.type === 'integer' && !Number.isSafeInteger(v)));
  });
  if (unsafe.length > 0) {
    throw badRequest(
      unsafe.map((p) =>
        p.schema.type === 'integer' ? `${p.name} must be an integer number` : `${p.name} must be a number conforming to the specified constraints`,
      ),
    );
  }
  return copy;
}
