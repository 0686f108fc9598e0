// The internal transactions of the txs the builder runs, recorded while they run, for the chain's
// followers that ask for them (the Data API): they come with each accepted block (AcceptedEvmBlock).
import type { VM } from '@ethereumjs/vm';
import { type InternalTx, InternalTxRecorder } from './trace/internal.js';

export class InternalRecording {
  private recorder: InternalTxRecorder | undefined;

  /** Whether the builder records (a follower asked). */
  get recording(): boolean {
    return this.recorder !== undefined;
  }

  /** From now on, `vm` (the builder's) records each tx's internal transactions. */
  record(vm: VM): void {
    if (this.recorder) return;
    this.recorder = new InternalTxRecorder();
    this.recorder.attach(vm.evm);
  }

  /** A tx starts running. */
  txStarts(): void {
    this.recorder?.start();
  }

  /** The internal transactions of the tx that ran last. */
  txInternal(): InternalTx[] {
    return this.recorder?.take() ?? [];
  }
}
