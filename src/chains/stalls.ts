// Stalled block production (an emulator fault): a chain whose production is stalled admits txs as
// usual but builds no block until the stall is cleared, as a node whose consensus halted would look
// to its clients (the tx hash comes back, the receipt never does). Cleared, the chain builds what waits.
import { EventEmitter } from 'node:events';

export class BlockStalls extends EventEmitter<{ resumed: [chainID: string] }> {
  private readonly stalled = new Set<string>();

  /** `chainID` in cb58. */
  stall(chainID: string): void {
    this.stalled.add(chainID);
  }

  resume(chainID: string): void {
    if (this.stalled.delete(chainID)) this.emit('resumed', chainID);
  }

  resumeAll(): void {
    for (const id of [...this.stalled]) this.resume(id);
  }

  isStalled(chainID: string): boolean {
    return this.stalled.has(chainID);
  }

  list(): string[] {
    return [...this.stalled];
  }
}
