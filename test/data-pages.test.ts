// Page tokens live 24 hours (the hosted API's lifetime), on the wall clock, so a test cannot wait for
// one through HTTP: here the token store runs on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { PageTokens } from '../src/data/pages.js';
import { openDatabase } from '../src/storage/db.js';

const DAY_MS = 24 * 3_600_000;

describe('Data API page tokens', () => {
  it('carry their cursor for 24 hours, then answer 400 "Page token expired"; another query or a forged token is refused', async () => {
    const db = await openDatabase('memdb', '');
    let now = Date.UTC(2026, 10, 23);
    const pages = await PageTokens.open(db, () => now);
    const token = pages.issue('latest:C', { h: '12', i: 3 });
    now += DAY_MS;
    expect(pages.read('latest:C', token)).toEqual({ h: '12', i: 3 });
    expect(() => pages.read('latest:X', token)).toThrow('Invalid page token: it was issued for another query');
    expect(() => pages.read('latest:C', `${token.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAA`)).toThrow('Invalid page token');
    now += 1;
    expect(() => pages.read('latest:C', token)).toThrowError(expect.objectContaining({ statusCode: 400, message: 'Page token expired' }));
    await db.close();
  });
});
