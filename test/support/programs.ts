// EVM programs the tests run, written as annotated hex: a counting loop, a call that spins for
// ever on the MODEXP precompile, and init code that deploys a runtime.

/** Bytecode from annotated hex: comments and spaces dropped. */
export const asm = (text: string) => text.replace(/\/\/[^\n]*/g, '').replace(/\s+/g, '');

// LOOP counts calldataload(0) down to zero: 10 steps and 40 gas a turn.
export const LOOP = asm(`
  600035                  // pc 0: n = calldataload(0)
  5b 80 15 6010 57        // pc 3: loop: if n == 0 goto end
  6001 90 03              // pc 9: n = n - 1
  6003 56                 // pc 13: goto loop
  5b 00                   // pc 16: end: stop
`);
// SPIN, called with a word: stores it (storage and transient slot 0), then calls the MODEXP
// precompile for ever (3^(0xff << 2040) mod 0xfb, a few ms a call for 682 gas); with no
// calldata it returns (sload(0), tload(0)).
export const SPIN = asm(`
  36 15 6041 57                     // no calldata: goto read
  600035 80 600055 60005d           // v = calldataload(0); sstore(0, v); tstore(0, v)
  6001600052 610100602052 6001604052 6003606053 60ff606153 60fb61016153 // MODEXP's input at 0
  5b 6000 6000 610162 6000 6005 5a fa 50 602f 56 // pc 47: staticcall(gas, 5, 0, 0x162, 0, 0); goto 47
  5b 600054600052 60005c602052 60406000f3 // pc 65: read: return (sload(0), tload(0))
`);
/** Init code that returns `runtime`. */
export const deployer = (runtime: string) => {
  const size = (runtime.length / 2).toString(16).padStart(2, '0');
  // codecopy(0, 12, size); return(0, size): 12 bytes, the runtime after them.
  return asm(`60${size} 600c 6000 39 60${size} 6000 f3`) + runtime;
};
