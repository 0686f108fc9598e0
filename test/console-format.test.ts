// console.log's text as Anvil prints it: foundry's console formatting (crates/common/fmt/src/console.rs
// in foundry 1.7), checked against the cases its own tests give. console-log.test.ts checks the same
// through a node's output; these are the specifiers' corners no contract test reaches cheaply.
import { describe, expect, it } from 'vitest';
import { type ConsoleValue, consoleFormat, consoleTable, textLines } from '../src/vms/evm/console/format.js';

const uint = (value: bigint): ConsoleValue => ({ kind: 'uint', value });
const int = (value: bigint): ConsoleValue => ({ kind: 'int', value });
const str = (value: string): ConsoleValue => ({ kind: 'string', value });
const bool = (value: boolean): ConsoleValue => ({ kind: 'bool', value });
const address = (value: string): ConsoleValue => ({ kind: 'address', value });
const bytes = (value: string): ConsoleValue => ({ kind: 'bytes', value });
const one = (format: string, v: ConsoleValue) => consoleFormat(format, [v]);

describe("console.log's specifiers", () => {
  it('reads a string, a bool, an address and bytes as foundry does', () => {
    expect(['%s', '%d', '%i', '%e', '%x', '%o'].map((f) => one(f, str('foo')))).toEqual(['foo', 'NaN', 'NaN', 'NaN', 'NaN', "'foo'"]);
    expect(['%s', '%d', '%i', '%e', '%x', '%o'].map((f) => one(f, bool(true)))).toEqual(['true', '1', 'NaN', 'NaN', 'NaN', "'true'"]);
    expect(one('%d', bool(false))).toBe('0');
    const a = '0xdEADBEeF00000000000000000000000000000000';
    expect(['%s', '%d', '%i', '%e', '%x', '%o'].map((f) => one(f, address(a)))).toEqual([a, 'NaN', 'NaN', 'NaN', a, `'${a}'`]);
    const b32 = `0xdeadbeef${'0'.repeat(56)}`;
    expect(['%s', '%d', '%i', '%e', '%x', '%o'].map((f) => one(f, bytes(b32)))).toEqual([b32, 'NaN', 'NaN', 'NaN', b32, `'${b32}'`]);
  });

  it('reads integers in decimal, hex (two’s complement when negative) and scientific notation', () => {
    expect(['%s', '%d', '%i', '%e', '%x', '%o'].map((f) => one(f, uint(100n)))).toEqual(['100', '100', '100', '1e2', '0x64', '100']);
    expect(one('%e', uint(1_002_300n))).toBe('1.0023e6');
    expect(one('%e', uint(123_000n))).toBe('1.23e5');
    expect(['%e', '%e', '%e'].map((f, i) => one(f, int([-100n, -1_002_300n, -123_000n][i]!)))).toEqual(['-1e2', '-1.0023e6', '-1.23e5']);
    expect([one('%1e', int(100n)), one('%2e', int(-100n)), one('%0e', int(123_000n)), one('%1e', int(123_000n))]).toEqual(['10', '-1', '123000', '12300']);
    expect([one('%7e', int(123_000n)), one('%7e', int(-123_000n))]).toEqual(['0.0123', '-0.0123']);
    expect(one('%x', int(-100n))).toBe(`0x${'f'.repeat(62)}9c`);
    expect(one('%x', int(-100_000_000_000n))).toBe(`0x${'f'.repeat(54)}e8b7891800`);
    // foundry trims every leading zero digit: zero reads as a bare 0x.
    expect(one('%x', uint(0n))).toBe('0x');
  });

  it('takes at most 77 digits in %<n>e (past them 10^n overflows foundry’s 256 bits): with more the text stays', () => {
    expect(one('%77e', uint(1n))).toBe(`0.${'0'.repeat(76)}1`);
    expect(one('%0077e', uint(5n * 10n ** 77n))).toBe('5');
    expect(one('%78e', uint(1n))).toBe('%78e 1');
    const long = `%${'9'.repeat(100_000)}e`;
    expect(one(long, uint(1n))).toBe(`${long} 1`);
  });

  it('keeps %%, a lone % and specifiers it cannot read; a specifier with no value left stays as written', () => {
    expect(one('%%s', str('foo'))).toBe('%s foo');
    expect(one('%', str('foo'))).toBe('% foo');
    expect(one('%%', str('foo'))).toBe('% foo');
    expect(consoleFormat('%333d%3e%5F', [])).toBe('%333d%3e%5F');
    expect(consoleFormat('%5d%3e%2f%3f%e1', [uint(123_456_789n)])).toBe('%5d123456.789%2f%3f%e1');
  });

  it('formats with the first string and appends what is left, each after a space', () => {
    expect(consoleFormat('foo %s', [uint(100n)])).toBe('foo 100');
    expect(consoleFormat('foo', [uint(100n)])).toBe('foo 100');
    expect(consoleFormat('%s foo', [uint(100n)])).toBe('100 foo');
    expect(consoleFormat('foo %s %s', [bool(true), uint(100n)])).toBe('foo true 100');
    expect(consoleFormat('%s %s foo', [bool(true), uint(100n)])).toBe('true 100 foo');
    const a = address('0xdEADBEeF00000000000000000000000000000000');
    expect(consoleFormat('foo %s %%s %s and %d foo %%', [a, bool(true), uint(21n)])).toBe(
      'foo 0xdEADBEeF00000000000000000000000000000000 %s true and 21 foo %',
    );
    expect(consoleFormat('%5e', [uint(123_456_789n)])).toBe('1234.56789');
    expect(consoleFormat('foo %3e bar', [uint(123_456_789n)])).toBe('foo 123456.789 bar');
    expect(consoleFormat('%e and %12e', [bool(false), uint(123_456_789n)])).toBe('NaN and 0.000123456789');
    // No string first (log(uint256, bool)): the values joined by spaces.
    expect(consoleFormat('', [uint(1n), bool(false)])).toBe('1 false');
  });

  it('lays out console.table as foundry does, the index column keyed or counted', () => {
    expect(consoleTable(undefined, [uint(100n), uint(200n)])).toBe(
      ['┌─────────┬────────┐', '│ (index) │ Values │', '├─────────┼────────┤', '│ 0       │ 100    │', '│ 1       │ 200    │', '└─────────┴────────┘'].join(
        '\n',
      ),
    );
    expect(consoleTable([str('alice'), str('bob'), str('charlie123')], [uint(1n), uint(20_000_000_000_000_000n)])).toBe(
      [
        '┌────────────┬───────────────────┐',
        '│ (index)    │ Values            │',
        '├────────────┼───────────────────┤',
        '│ alice      │ 1                 │',
        '│ bob        │ 20000000000000000 │',
        '│ charlie123 │                   │',
        '└────────────┴───────────────────┘',
      ].join('\n'),
    );
    expect(consoleTable(undefined, [])).toBe(['┌─────────┬────────┐', '│ (index) │ Values │', '├─────────┼────────┤', '└─────────┴────────┘'].join('\n'));
  });

  it("prints a text's lines as Rust's str::lines splits them", () => {
    expect([textLines(''), textLines('a\n'), textLines('a\r\n\nb'), textLines('a\r')]).toEqual([[], ['a'], ['a', '', 'b'], ['a\r']]);
  });
});
