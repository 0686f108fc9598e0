// avalanchego's utils/logging levels. TRACE sits between DEBUG and INFO: VERBO < DEBUG < TRACE < INFO.
import { goQuote } from '../encoding/goquote.js';
export const LEVELS = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;
export type Level = (typeof LEVELS)[number];

export function parseLevel(text: string): Level {
  const upper = text.toUpperCase();
  if ((LEVELS as readonly string[]).includes(upper)) return upper as Level;
  throw new Error(`unknown log level: ${goQuote(text)}`);
}

/** A message at `level` is written where the threshold is `threshold`. OFF writes nothing. */
const RANK = Object.fromEntries(LEVELS.map((l, i) => [l, i])) as Record<Level, number>;

export function enabled(level: Level, threshold: Level): boolean {
  return threshold !== 'OFF' && RANK[level] >= RANK[threshold];
}
