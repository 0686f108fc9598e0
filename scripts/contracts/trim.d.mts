// Types of trim.mjs for the contract tests.
export const OPERATIONS: string[];
export const METRICS_OPERATIONS: string[];
export const AVG_TPS: Record<string, unknown>;
export function trim(full: unknown, operations?: string[], extraPaths?: Record<string, unknown>): unknown;
