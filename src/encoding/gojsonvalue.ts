// The values the Go-faithful JSON reader gives: numbers kept as their text, Go's syntax errors.

export class RawNumber {
  constructor(readonly raw: string) {}
  toJSON(): number {
    return Number(this.raw);
  }
}

/** Numbers are RawNumber (exact text) from the Go-faithful reader, or plain numbers from the fast path, which only takes integers a double holds exactly. */
export type JsonValue = null | boolean | string | number | RawNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export class GoJsonError extends Error {}

export interface ParsedJson {
  value: JsonValue;
  /** A top-level member's JSON as Go re-encodes a json.RawMessage: compacted, HTML-escaped. */
  raw(key: string): string;
}
