// Commit subjects a log can show: at most 72 characters, checked for every commit since the rule
// was kept (aecead3 is the last landed commit over it; landed history is not rewritten, since every
// clone holds it). Outside a git checkout, or in a clone too shallow to reach that commit, only the
// commits the clone has are checked.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
/** The last commit whose subject was allowed to be longer. */
const LAST_LONG = 'aecead3';
const MAX_SUBJECT = 72;

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

it('keeps every commit subject since the rule to 72 characters', () => {
  if (git(['rev-parse', '--git-dir']) === undefined) return; // not a checkout: no history to check
  const reachable = git(['merge-base', '--is-ancestor', LAST_LONG, 'HEAD']) !== undefined;
  const log = git(['log', '--format=%h %s', ...(reachable ? [`${LAST_LONG}..HEAD`] : ['-50'])]) ?? '';
  const subjects = log.split('\n').filter(Boolean);
  expect(subjects.length).toBeGreaterThan(0);
  const long = subjects.filter((line) => line.slice(line.indexOf(' ') + 1).length > MAX_SUBJECT);
  expect(long).toEqual([]);
});
