// Types of trim.mjs for the contract test.
export const OPERATIONS: string[];
export function trim(full: unknown): unknown;
