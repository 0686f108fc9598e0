// The node's assembly: start a node from its configuration (start.ts), over the core of chains and
// APIs it builds (core.ts) and rebuilds when its state is reverted, loaded or reset (slot.ts, states.ts).
export { type RunningNode, startNode } from './start.js';
export { formatAddrPort, type L1Info, StartError } from './shell.js';
