// Which addresses each tx of a block touches, and which contracts it creates, by re-executing the
// block with only ethereumjs's message events (no step is watched: a tenth of a callTracer's cost):
// what Otterscan's searches and ots_getContractCreator need. Touched, as alloy's contains_address
// counts it over a tx's parity trace: both ends of every call (a delegate or code call's from is
// the contract it runs in, its to the code's), a create's creator and, when it succeeded, the
// created contract. A contract that selfdestructs is the to of the call it runs in.
import type { EVMResult, Message } from '@ethereumjs/evm';
import { toHex0x } from '../../../encoding/bytes.js';
import type { StoredBlock } from '../store.js';
import { ScratchStore } from '../overlay.js';
import type { EvmChain } from '../chain.js';
import { type FrameType, typeOf } from './internal.js';
import { replay, replayTxs, type TraceEnv } from './replay.js';

export interface TxTouches {
  touched: Set<string>;
  /** Contracts the tx created (and kept until its end or not), by address: their direct creator. */
  created: Map<string, string>;
}

interface Open {
  message: Message;
  type: FrameType;
}

/** The message events of one tx's run, read into its TxTouches. */
class TouchRecorder {
  private readonly open: Open[] = [];
  current: TxTouches = { touched: new Set(), created: new Map() };
  readonly onBefore = (m: Message) => {
    const type = typeOf(m, this.open.at(-1));
    this.open.push({ message: m, type });
    if (type === 'CREATE' || type === 'CREATE2') this.current.touched.add(toHex0x(m.caller.bytes));
    else if (type === 'DELEGATECALL' || type === 'CALLCODE') {
      this.current.touched.add(toHex0x(m.to!.bytes));
      this.current.touched.add(toHex0x(m.codeAddress.bytes));
    } else {
      this.current.touched.add(toHex0x(m.caller.bytes));
      this.current.touched.add(toHex0x(m.to!.bytes));
    }
  };
  readonly onAfter = (r: EVMResult) => {
    const frame = this.open.pop();
    if (!frame || !(frame.type === 'CREATE' || frame.type === 'CREATE2')) return;
    const created = r.createdAddress ?? frame.message.to;
    if (r.execResult.exceptionError || !created) return;
    const address = toHex0x(created.bytes);
    this.current.touched.add(address);
    this.current.created.set(address, toHex0x(frame.message.caller.bytes));
  };

  start(): void {
    this.open.length = 0;
    this.current = { touched: new Set(), created: new Map() };
  }
}

/** Every tx of `block`, re-executed from its parent's state: what each touched and created. */
export async function blockTouches(chain: EvmChain, block: StoredBlock): Promise<TxTouches[]> {
  if (block.body.length === 0) return [];
  const env: TraceEnv = { chain, store: new ScratchStore(chain.nodes) };
  const recorder = new TouchRecorder();
  const out: TxTouches[] = [];
  await replayTxs(env, block, block.body.length - 1, async (vm, tx) => {
    recorder.start();
    vm.evm.events!.on('beforeMessage', recorder.onBefore);
    vm.evm.events!.on('afterMessage', recorder.onAfter);
    try {
      await replay(env, vm, block, tx, block.header.baseFee ?? 0n);
    } finally {
      vm.evm.events!.off('beforeMessage', recorder.onBefore);
      vm.evm.events!.off('afterMessage', recorder.onAfter);
    }
    out.push(recorder.current);
  });
  return out;
}
