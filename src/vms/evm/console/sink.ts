// What one run (a mined tx, an eth_call) sent to console.sol's address, kept until the run is
// printed or dropped, and bounded: a loop that logs without end cannot make the node hold it all.
import { equalsBytes } from '@ethereumjs/util';
import { fromHex } from '../../../encoding/bytes.js';
import { CONSOLE_ADDRESS_HEX, type ConsoleCall, decodeConsoleCall } from './abi.js';
import { consoleFormat, consoleTable, textLines } from './format.js';

const CONSOLE_ADDRESS = fromHex(CONSOLE_ADDRESS_HEX);
/** At most this many console calls of one run are kept, of this many bytes in all; the rest are counted. */
const MAX_CALLS = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;

export class ConsoleSink {
  private readonly calls: Uint8Array[] = [];
  private bytes = 0;
  private dropped = 0;

  /** Whether the run sent anything to the console address. */
  get any(): boolean {
    return this.calls.length > 0 || this.dropped > 0;
  }

  /** A message the run sends: kept (a copy of its data: the caller's memory moves on) if it is to the console address. */
  take(to: { bytes: Uint8Array } | undefined, data: Uint8Array): void {
    if (to === undefined || !equalsBytes(to.bytes, CONSOLE_ADDRESS)) return;
    // Once one is past the bounds, the later ones are too: what prints is the run's first calls, then a count.
    if (this.dropped > 0 || this.calls.length >= MAX_CALLS || this.bytes + data.length > MAX_BYTES) {
      this.dropped++;
      return;
    }
    this.calls.push(data.slice());
    this.bytes += data.length;
  }

  /** The lines the run's console calls print, in order; a call that is none console.sol sends prints nothing. */
  lines(): string[] {
    const out = this.calls.flatMap((data) => textLines(textOf(data)));
    if (this.dropped > 0) out.push(`(${this.dropped} more console.log calls not shown)`);
    return out;
  }
}

function textOf(data: Uint8Array): string {
  const call = decodeConsoleCall(data);
  if (!call) return '';
  try {
    return formatCall(call);
  } catch {
    // Nothing a contract sends should reach here; were it to, the run's other lines still print.
    return '';
  }
}

function formatCall(call: ConsoleCall): string {
  const [first, second] = call.values;
  if (call.kind === 'table') {
    const arrays = call.values.map((v) => (v.kind === 'array' ? v.values : []));
    return second ? consoleTable(arrays[0], arrays[1]!) : consoleTable(undefined, arrays[0]!);
  }
  return first?.kind === 'string' ? consoleFormat(first.value, call.values.slice(1)) : consoleFormat('', call.values);
}
