// console.log's text, as Anvil prints it (foundry's console formatting, which follows Hardhat's): a
// first string argument is a format whose %s, %d, %i, %o, %x, %e and %<n>e take the next arguments;
// what is left over is appended, each after a space.

/** One decoded argument of a console call. */
export type ConsoleValue =
  | { kind: 'uint' | 'int'; value: bigint }
  | { kind: 'bool'; value: boolean }
  | { kind: 'string' | 'address' | 'bytes'; value: string }
  | { kind: 'array'; values: ConsoleValue[] };

/** A format specifier: its letter, %<n>e's n, and how it reads when no argument is left for it. */
interface Spec {
  letter: 's' | 'd' | 'i' | 'o' | 'x' | 'e';
  digits?: number;
  text: string;
}

const PLAIN: Spec = { letter: 's', text: '%s' };
const TWO_256 = 1n << 256n;
/**
 * The most digits %<n>e takes: foundry computes 10^n in 256 bits, which overflows past 77 (and a
 * larger n would have the node build strings as long as it). A larger n is no specifier here: the
 * text stays as written.
 */
const MAX_DIGITS = 77;

/** The format's literal text and specifiers: %% is a percent sign; a % that starts no specifier stays as it is. */
function parse(format: string): Array<string | Spec> {
  const out: Array<string | Spec> = [];
  let text = '';
  let i = 0;
  while (i < format.length) {
    const c = format[i]!;
    const next = format[i + 1];
    if (c !== '%') {
      text += c;
      i++;
    } else if (next === '%') {
      text += '%';
      i += 2;
    } else if (next !== undefined && 'sdiox'.includes(next)) {
      out.push(text, { letter: next as Spec['letter'], text: `%${next}` });
      text = '';
      i += 2;
    } else {
      let j = i + 1;
      while (j < format.length && format[j]! >= '0' && format[j]! <= '9') j++;
      if (format[j] !== 'e') {
        text += '%';
        i++;
        continue;
      }
      const run = format.slice(i + 1, j).replace(/^0+(?=\d)/, '');
      const digits = run === '' ? undefined : run.length <= 2 ? Number(run) : Number.POSITIVE_INFINITY;
      if (digits !== undefined && digits > MAX_DIGITS) {
        text += '%';
        i++;
        continue;
      }
      out.push(text, { letter: 'e', ...(digits !== undefined ? { digits } : {}), text: digits !== undefined ? `%${digits}e` : '%e' });
      text = '';
      i = j + 1;
    }
  }
  out.push(text);
  return out;
}

/** `text` without its trailing zeros (a loop: a regex anchored at the end backtracks over every run of zeros). */
function trimZeros(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 48) end--;
  return text.slice(0, end);
}

/** `v` in decimal scientific notation (1.5e3), or, with `digits`, divided by 10^digits (15 for %2e of 1500, 15.5 of 1550). */
function exponential(v: bigint, digits: number | undefined): string {
  const sign = v < 0n ? '-' : '';
  const abs = v < 0n ? -v : v;
  const log = digits ?? abs.toString().length - 1;
  const exp10 = 10n ** BigInt(log);
  const fraction = trimZeros((abs % exp10).toString().padStart(log, '0'));
  const mantissa = `${sign}${abs / exp10}${fraction ? `.${fraction}` : ''}`;
  return digits === undefined ? `${mantissa}e${log}` : mantissa;
}

/** %x of an integer: 0x and its hex digits, a negative one in two's complement (0 is `0x`, as foundry trims every zero). */
function hex(v: bigint): string {
  return `0x${(v < 0n ? v + TWO_256 : v).toString(16).replace(/^0+/, '')}`;
}

/** What `v` reads as under `spec`; NaN where the specifier takes a number and `v` is none. */
export function formatValue(v: ConsoleValue, spec: Spec = PLAIN): string {
  switch (v.kind) {
    case 'uint':
    case 'int':
      if (spec.letter === 'x') return hex(v.value);
      if (spec.letter === 'e') return exponential(v.value, spec.digits);
      return v.value.toString();
    case 'bool':
      if (spec.letter === 's') return String(v.value);
      if (spec.letter === 'o') return `'${v.value}'`;
      return spec.letter === 'd' ? (v.value ? '1' : '0') : 'NaN';
    case 'array':
      return `[${v.values.map((e) => formatValue(e)).join(', ')}]`;
    default:
      if (spec.letter === 's' || (spec.letter === 'x' && v.kind !== 'string')) return v.value;
      if (spec.letter === 'o') return `'${v.value}'`;
      return 'NaN';
  }
}

/** `format` with `values` in its specifiers, the values left appended after a space each. */
export function consoleFormat(format: string, values: readonly ConsoleValue[]): string {
  let out = '';
  let next = 0;
  for (const piece of format === '' ? [] : parse(format)) {
    if (typeof piece === 'string') out += piece;
    else out += next < values.length ? formatValue(values[next++]!, piece) : piece.text;
  }
  for (let spaced = format !== ''; next < values.length; spaced = true) out += `${spaced ? ' ' : ''}${formatValue(values[next++]!)}`;
  return out;
}

/** console.table's box: an index column (the keys, or 0, 1, …) and the values, each cell as %s reads it. */
export function consoleTable(keys: readonly ConsoleValue[] | undefined, values: readonly ConsoleValue[]): string {
  const left = keys ? keys.map((k) => formatValue(k)) : values.map((_, i) => String(i));
  const right = values.map((v) => formatValue(v));
  const rows = Math.max(left.length, right.length);
  const width = (head: string, cells: string[]) => Math.max(head.length, ...cells.map((c) => [...c].length));
  const [w1, w2] = [width('(index)', left), width('Values', right)];
  const rule = (l: string, m: string, r: string) => `${l}${'─'.repeat(w1 + 2)}${m}${'─'.repeat(w2 + 2)}${r}`;
  const row = (a: string, b: string) => `│ ${a}${' '.repeat(w1 - [...a].length)} │ ${b}${' '.repeat(w2 - [...b].length)} │`;
  const body = Array.from({ length: rows }, (_, i) => row(left[i] ?? '', right[i] ?? ''));
  return [rule('┌', '┬', '┐'), row('(index)', 'Values'), rule('├', '┼', '┤'), ...body, rule('└', '┴', '┘')].join('\n');
}

/** The lines a text prints as (Rust's str::lines: no line after a final newline, a line's \r dropped). */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const last = lines.pop()!;
  // A \r ends a line only before its \n: the text's last line keeps one.
  return [...lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)), ...(last === '' ? [] : [last])];
}
