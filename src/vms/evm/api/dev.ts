// Anvil's mining, time and state controls (--dev), with its hardhat_/evm_ aliases, as viem's test
// client and Hardhat helpers call them: evm_mine / anvil_mine (blocks, empty when no tx waits),
// evm_increaseTime and evm_setNextBlockTimestamp (this chain's block time only; the node's clock,
// emulator.advanceClock, moves every chain's), and anvil_setBalance, setNonce, setCode and
// setStorageAt (devedits.ts), which change the head's state without a block (latest and pending see
// them; the next block's state root includes them), as Anvil's and Hardhat's do.
import { type MethodDef, method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { devPositional, positional } from '../../../rpc/geth.js';
import { KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import type { TxArgs } from '../txargs.js';
import { sendCompleted } from './accounts.js';
import { stateAt } from './blocks.js';
import { qty } from './format.js';
import { signingErrors } from './signing.js';
import type { EvmChain } from '../chain.js';
import type { GasOracle } from './gas.js';
import { address, type BlockRef, blockRef, boolean, bytes, hash, hexOrDecimal64, raw, txArgs, u256 } from './fields.js';
import { stateEdits } from './devedits.js';
import { anvilEthMethods, erc20Helpers, minedBlocks } from './devanvil.js';
import type { KeyRing } from './accounts.js';
import { type NodeStates, StateError } from '../../../chains/states.js';
import { type JsonValue, numberText, RawNumber } from '../../../encoding/gojson.js';
import { ParamsError, string } from '../../../rpc/schema.js';
import type { ForkControl, ForkTarget } from '../fork/forks.js';
import { MAX_BLOCK_TIME } from '../fees.js';
import { toHex0x } from '../../../encoding/bytes.js';

const MAX_BLOCKS = 10_000n;
/** Anvil keeps a base fee in a u64 (alloy's header field): a larger one could never be paid again. */
const MAX_BASE_FEE = 2n ** 64n - 1n;

const devErrors = {
  timeTooLate: (t: bigint) =>
    new ParamsError(`timestamp ${t} is past the latest a block can carry (${MAX_BLOCK_TIME}: its time in milliseconds must fit in a uint64)`),
  baseFeeTooHigh: (fee: bigint) => new ParamsError(`base fee ${fee} is over ${MAX_BASE_FEE}, the largest a block can carry`),
  zeroPrevRandao: () =>
    new ParamsError("a zero PREVRANDAO cannot be told from coreth's own: its blocks carry a zero mix digest and answer PREVRANDAO with their difficulty, 1"),
  gasLimitOverCapacity: (limit: bigint, most: bigint) =>
    new ParamsError(`gas limit ${limit} is over ${most}, the most gas ACP-176's capacity lets a C-Chain block hold`),
  forking: () => new RpcError('forking is not supported on this chain'),
  tooManyBlocks: () => new RpcError(`cannot mine more than ${MAX_BLOCKS} blocks at once`),
  /** Anvil's refusal of a block time before the head's (evm_setNextBlockTimestamp, evm_mine). */
  timeInPast: (t: bigint) => new RpcError(`Timestamp error: ${t} is lower than previous block's timestamp`, -32602),
  beforeUpgrades: (t: bigint, from: bigint) =>
    new RpcError(
      `Timestamp error: ${t} is before the upgrades through Granite on this chain (${from}): this node builds blocks under their rules only`,
      -32602,
    ),
  timestampTooBig: () => new RpcError('The timestamp is too big', -32602),
  numericSeq: () => new RpcError('data did not match any variant of untagged enum NumericSeq', -32602),
  /** serde's text for an evm_mine argument that is neither a timestamp nor MineOptions (Anvil's, unprefixed). */
  mineOptions: () => new RpcError('data did not match any variant of untagged enum MineOptions', -32602),
};

/** evm_mine's argument (Anvil's MineOptions): a timestamp, or `{timestamp, blocks?}`; `invalid` when it is neither. */
interface MineOptions {
  timestamp?: bigint;
  blocks: bigint;
  invalid?: true;
}

const NO_VARIANT: MineOptions = { blocks: 0n, invalid: true };

/**
 * MineOptions as serde reads it, untagged: a timestamp (number, hex or decimal string, null), or an
 * object whose `timestamp` is present (null allowed) with an optional `blocks` that is a JSON
 * number. Anything else matches no variant: the method answers Anvil's text, without the
 * argument's index the params decoder would add.
 */
const mineOptions = {
  decode(v: JsonValue): MineOptions {
    const timestampOf = (t: JsonValue): bigint | undefined => (t === null ? undefined : hexOrDecimal64.decode(t));
    try {
      if (v === null || typeof v !== 'object' || numberText(v) !== undefined) return { timestamp: timestampOf(v), blocks: 1n };
      if (Array.isArray(v) || !('timestamp' in v)) return NO_VARIANT;
      const { timestamp, blocks } = v as Record<string, JsonValue>;
      const count = blocks === undefined || blocks === null ? '1' : numberText(blocks);
      if (count === undefined || !/^\d+$/.test(count) || BigInt(count) > 2n ** 64n - 1n) return NO_VARIANT;
      return { timestamp: timestampOf(timestamp!), blocks: BigInt(count) };
    } catch {
      return NO_VARIANT;
    }
  },
  zero: (): MineOptions => ({ blocks: 1n }),
};

/**
 * anvil_setTime's argument (serde's NumericSeq): a number, or a hex or decimal string; -1 when it is
 * none (the method answers serde's text, without the argument's index the params decoder would add).
 */
const numericSeq = {
  decode(v: JsonValue): bigint {
    try {
      return u256.decode(v);
    } catch {
      return -1n;
    }
  },
  zero: () => 0n,
};

const MAX_U64 = 2n ** 64n - 1n;

/** anvil_mine's block count: absent is one block, as Anvil's `num_blocks.unwrap_or(1)`; 0 mines none. */
// anvil_mine's count and interval are U256s to Anvil (deserialize_number_opt): a bare 0x is 0.
const blockCount = { ...u256, zero: (): bigint | undefined => undefined };

/** A time a dev control would give a block: refused past what a header can carry. */
function checkTime(t: bigint): bigint {
  if (t > MAX_BLOCK_TIME) throw devErrors.timeTooLate(t);
  return t;
}

/**
 * anvil_reset's argument as Anvil reads it (alloy's Forking): nothing, null, `{forking: {jsonRpcUrl,
 * blockNumber}}` or the same fields flat; anything else is -32602, never a reset. The fork it asks
 * for, undefined when it asks for none (nothing or null).
 */
function forkTarget(options: JsonValue | undefined): ForkTarget | undefined {
  if (options === undefined || options === null) return undefined;
  const object = (v: JsonValue, what: string): Record<string, JsonValue> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ParamsError(`invalid type: ${jsonKind(v)}, expected ${what}`);
    return v as Record<string, JsonValue>;
  };
  const outer = object(options, 'struct Forking');
  const inner = outer.forking === undefined || outer.forking === null ? outer : object(outer.forking, 'struct Forking');
  const url = inner.jsonRpcUrl ?? null;
  if (url !== null && typeof url !== 'string') throw new ParamsError(`invalid type: ${jsonKind(url)}, expected a string`);
  const block = inner.blockNumber ?? null;
  return { ...(url === null ? {} : { url }), ...(block === null ? {} : { blockNumber: hexOrDecimal64.decode(block) as bigint }) };
}

/**
 * anvil_reset as Anvil does it, for the chain asked: with `forking`, the chain forks again (its
 * upstream or the one given, at the block given or the upstream's latest); without, it is a fork no
 * more. Then the whole node goes back to genesis. On a chain that is no fork, `{forking: {}}`
 * (viem's reset()) is a plain reset.
 */
async function resetFork(target: ForkTarget | undefined, fork: ForkControl | undefined): Promise<void> {
  const asks = target !== undefined && (target.url !== undefined || target.blockNumber !== undefined);
  if (!fork) {
    if (asks) throw devErrors.forking();
    return;
  }
  if (target === undefined) fork.unfork();
  else if (asks || (await fork.forked())) await fork.retarget(target);
}

/** How serde names an unexpected JSON value in its errors (Anvil's). */
export function jsonKind(v: JsonValue): string {
  if (Array.isArray(v)) return 'sequence';
  if (v === null) return 'unit value';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  const text = numberText(v);
  if (text === undefined) return 'map';
  return /^-?\d+$/.test(text) ? `integer \`${text}\`` : `floating point \`${text}\``;
}

/** The whole node's snapshots (chains/states.ts): Anvil's state methods act on every chain at once. */
type Methods = ServiceDef['methods'];
function stateServices(states: NodeStates | undefined, fork: ForkControl | undefined): { evm: Methods; anvil: Methods; hardhat: Methods } {
  if (!states) return { evm: {}, anvil: {}, hardhat: {} };
  const reset = method(devPositional([raw], 0), async ([options]) => {
    await resetFork(forkTarget(options as JsonValue | undefined), fork);
    try {
      await states.reset();
    } catch (err) {
      // The node went back to the state it had (a --fork-l1 upstream down, an --l1 file gone).
      if (err instanceof StateError) throw new RpcError(err.message);
      throw err;
    }
    return null;
  });
  // anvil_snapshot/anvil_revert, with their evm_ names.
  const snapshots = {
    snapshot: method(devPositional([]), async () => `0x${(await states.snapshot()).toString(16)}`),
    revert: method(devPositional([u256]), ([id]) => states.revert(id as bigint)),
  };
  const dumps = {
    // Anvil's optional preserveHistoricalStates: the node's dump holds its whole history anyway.
    dumpState: method(devPositional([boolean], 0), async () => `0x${Buffer.from(await states.dump()).toString('hex')}`),
    loadState: method(devPositional([bytes]), async ([state]) => {
      try {
        await states.load(state as Uint8Array);
      } catch (err) {
        if (err instanceof StateError) throw new RpcError(`failed to load state: ${err.message}`);
        throw err;
      }
      return true;
    }),
  };
  return {
    evm: snapshots,
    anvil: { ...snapshots, ...dumps, reset },
    hardhat: { ...dumps, reset },
  };
}

/** anvil_nodeInfo in Anvil's shape (alloy's NodeInfo): the head, the rules, the next block's fees, the fork. */
function nodeInfoMethod(chain: EvmChain, gas: GasOracle, fork: ForkControl | undefined): MethodDef {
  return method(devPositional([]), async () => {
    const head = chain.head;
    const baseFee = gas.nextBaseFee();
    const forked = await fork?.describe();
    return {
      currentBlockNumber: qty(head.header.number),
      currentBlockTimestamp: Number(head.header.time),
      currentBlockHash: `0x${Buffer.from(head.hash).toString('hex')}`,
      hardFork: 'cancun',
      transactionOrder: 'fees',
      environment: {
        baseFee: qty(baseFee),
        chainId: Number(chain.chainId),
        gasLimit: qty(chain.gasLimit),
        gasPrice: qty(baseFee + (await gas.suggestTip())),
      },
      forkConfig: forked
        ? { forkUrl: forked.url, forkBlockNumber: Number(forked.blockNumber), forkRetryBackoff: forked.retryBackoffMs }
        : { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    };
  });
}

/**
 * Anvil's own eth_ methods (--dev), merged into the chain's eth namespace: eth_getAccount and
 * eth_getAccountInfo read an account at a block, eth_sendUnsignedTransaction sends from any address
 * without its key (as for an impersonated one).
 */
export function devEthMethods(chain: EvmChain, gas: GasOracle, ring: KeyRing): Record<string, MethodDef> {
  const accountAt = async (a: unknown, ref: unknown) => {
    const { root, addr } = await stateAt(chain, a as Uint8Array, ref as BlockRef);
    return { root, addr, account: await chain.account(addr.bytes, root) };
  };
  // The next blocks' coinbase, as Anvil's eth_coinbase names it: anvil_setCoinbase's, else the
  // rules' (coreth's BlackholeAddr; an L1's fee recipient where its fee config allows one).
  const coinbase = method(positional([]), () => toHex0x(chain.dev.coinbase(chain.headRules.coinbase)));
  return {
    getAccount: method(positional([address, blockRef]), async ([a, ref]) => {
      const { account } = await accountAt(a, ref);
      return {
        nonce: qty(account?.nonce ?? 0n),
        balance: qty(account?.balance ?? 0n),
        storageRoot: toHex0x(account?.storageRoot ?? KECCAK256_RLP),
        codeHash: toHex0x(account?.codeHash ?? KECCAK256_NULL),
      };
    }),
    getAccountInfo: method(positional([address, blockRef]), async ([a, ref]) => {
      const { root, addr, account } = await accountAt(a, ref);
      const code = await chain.code(addr.bytes, root);
      return { balance: qty(account?.balance ?? 0n), nonce: qty(account?.nonce ?? 0n), code: toHex0x(code) };
    }),
    coinbase,
    etherbase: coinbase,
    sendUnsignedTransaction: method(positional([txArgs]), async ([a]) => {
      const given = a as TxArgs;
      if (!given.from) throw signingErrors.noSigner();
      return sendCompleted(chain, gas, given, undefined);
    }),
    ...anvilEthMethods(chain, gas, ring),
  };
}

/**
 * web3_clientVersion with --dev. Hardhat's network helpers refuse a node whose version starts with
 * neither `hardhatnetwork` nor `anvil`, and OpenZeppelin's upgrades plugin treats a node as a dev
 * node by the name before the first `/`: the dev node answers Anvil's, then says what it is.
 */
export const devClientVersion = (chain: EvmChain): string =>
  `anvil/v1.7.1 (avalanche-emulator; ${chain.flavor.multiCoin ? 'coreth' : 'subnet-evm'} ${chain.flavor.clientVersion})`;

/**
 * hardhat_metadata / anvil_metadata (Hardhat's HardhatMetadata; Anvil adds a null forkedNetwork and
 * its snapshots, which the node's whole-node snapshots do not list per chain: left out).
 */
function metadataMethod(chain: EvmChain, clientVersion: string, fork: ForkControl | undefined, anvil: boolean): MethodDef {
  return method(devPositional([]), async () => {
    const head = chain.head;
    const forked = await fork?.describe();
    const forkHash = forked ? await chain.store.hashAt(forked.blockNumber) : undefined;
    const forkedNetwork = forked
      ? { chainId: Number(chain.chainId), forkBlockNumber: Number(forked.blockNumber), forkBlockHash: forkHash ? toHex0x(forkHash) : null }
      : undefined;
    return {
      clientVersion,
      chainId: Number(chain.chainId),
      instanceId: chain.dev.instanceId,
      latestBlockNumber: Number(head.header.number),
      latestBlockHash: toHex0x(head.hash),
      ...(forkedNetwork ? { forkedNetwork } : anvil ? { forkedNetwork: null } : {}),
    };
  });
}

export function devServices(chain: EvmChain, gas: GasOracle, states?: NodeStates, fork?: ForkControl): ServiceDef[] {
  const clientVersion = devClientVersion(chain);
  const whole = stateServices(states, fork);
  // anvil_mine(n, interval): as Anvil, the interval moves the time forward before every block.
  const mine = method(devPositional([blockCount, u256], 0), async ([count, interval]) => {
    const n = (count as bigint | undefined) ?? 1n;
    if (n === 0n) return null;
    if (n > MAX_BLOCKS) throw devErrors.tooManyBlocks();
    // The last block's time, checked before the first is built: all of them or none.
    checkTime(chain.dev.nextBlockMillis() / 1000n + n * (interval as bigint));
    await chain.dev.mine(Number(n), interval as bigint);
    return null;
  });
  const setNext = (ts: bigint) => {
    if (ts < chain.head.header.time) throw devErrors.timeInPast(ts);
    if (ts < chain.dev.upgradesFrom) throw devErrors.beforeUpgrades(ts, chain.dev.upgradesFrom);
    chain.dev.setNextTimestamp(checkTime(ts));
  };
  // evm_mine([timestamp | {timestamp, blocks}]): the blocks asked (one by default), the first at that time if given.
  const mineWith = async ({ timestamp, blocks, invalid }: MineOptions) => {
    if (invalid) throw devErrors.mineOptions();
    if (blocks > MAX_BLOCKS) throw devErrors.tooManyBlocks();
    if (timestamp !== undefined) setNext(timestamp);
    await chain.dev.mine(Number(blocks));
  };
  // evm_mine_detailed / anvil_mine_detailed: evm_mine, answered with the blocks it made (minedBlocks).
  const mineDetailed = method(devPositional([mineOptions], 0), async ([options]) => {
    const before = chain.head.header.number;
    await mineWith(options as MineOptions);
    return minedBlocks(chain, before + 1n);
  });
  const increaseTime = method(devPositional([hexOrDecimal64]), ([seconds]) => {
    const offset = chain.dev.timeOffset + (seconds as bigint);
    checkTime(chain.dev.clockSeconds() + offset);
    chain.dev.setTimeOffset(offset);
    // A JSON number, exact past 2^53 as Anvil's integers are.
    return new RawNumber(chain.dev.timeOffset.toString());
  });
  /**
   * anvil_setTime: the clock reads `t` from now on (over 10^12 it is in ms) and a pending
   * evm_setNextBlockTimestamp is dropped; answers how far `t` is ahead of the time the next block
   * had (0 if behind). Unlike Anvil's, no block then goes before its parent's time: coreth refuses
   * such a header.
   */
  const setTime = method(devPositional([numericSeq]), ([n]) => {
    let t = n as bigint;
    if (t < 0n) throw devErrors.numericSeq();
    if (t >= MAX_U64) throw devErrors.timestampTooBig();
    if (t > 1_000_000_000_000n) t /= 1000n;
    const now = chain.dev.nextBlockMillis() / 1000n;
    chain.dev.setClock(checkTime(t));
    return new RawNumber((t > now ? t - now : 0n).toString());
  });
  const setNextBlockTimestamp = method(devPositional([hexOrDecimal64]), ([ts]) => {
    setNext(ts as bigint);
    return null;
  });
  const edits = stateEdits(chain);
  const erc20 = erc20Helpers(chain);
  const setAutomine = method(devPositional([boolean]), ([on]) => {
    chain.dev.setAutomine(on as boolean);
    return null;
  });
  const getAutomine = method(devPositional([]), () => chain.dev.automine);
  // Anvil takes seconds for both names (Hardhat's evm_setIntervalMining took milliseconds).
  const setIntervalMining = method(devPositional([hexOrDecimal64]), ([seconds]) => {
    if ((seconds as bigint) > 86_400n) throw new RpcError('interval must be at most 86400 seconds');
    chain.dev.setIntervalMining(Number(seconds as bigint));
    return null;
  });
  const getIntervalMining = method(devPositional([]), () => (chain.dev.intervalSeconds === 0 ? null : chain.dev.intervalSeconds));
  const mining = {
    setAutomine,
    getAutomine,
    setIntervalMining,
    getIntervalMining,
    setBlockTimestampInterval: method(devPositional([hexOrDecimal64]), ([seconds]) => {
      checkTime(chain.head.header.time + (seconds as bigint));
      chain.dev.setTimestampInterval(seconds as bigint);
      return null;
    }),
    removeBlockTimestampInterval: method(devPositional([]), () => chain.dev.removeTimestampInterval()),
  };
  // The node logs as --log-level says; Anvil's and Hardhat's switch turns off what only they print:
  // contracts' console.log lines (Anvil's switch silences them with the rest of its log).
  const setLoggingEnabled = method(devPositional([boolean]), ([on]) => {
    chain.dev.setLogging(on as boolean);
    return null;
  });
  const pool = {
    dropTransaction: method(devPositional([hash]), async ([h]) =>
      (await chain.dropTransaction(h as Uint8Array)) ? `0x${Buffer.from(h as Uint8Array).toString('hex')}` : null,
    ),
    dropAllTransactions: method(devPositional([]), async () => {
      await chain.dropAllTransactions();
      return null;
    }),
    setCoinbase: method(devPositional([address]), ([a]) => {
      chain.dev.setCoinbase(a as Uint8Array);
      return null;
    }),
    // Every pool tx of the address, pending and queued.
    removePoolTransactions: method(devPositional([address]), async ([a]) => {
      const from = toHex0x(a as Uint8Array);
      for (const p of chain.pool.all()) if (p.fromHex === from) await chain.dropTransaction(p.hash);
      return null;
    }),
  };

  // anvil_impersonateAccount and friends: eth_sendTransaction sends for these accounts without a key.
  const impersonation = {
    impersonateAccount: method(devPositional([address]), ([a]) => {
      chain.dev.impersonate(toHex0x(a as Uint8Array));
      return null;
    }),
    stopImpersonatingAccount: method(devPositional([address]), ([a]) => {
      chain.dev.stopImpersonating(toHex0x(a as Uint8Array));
      return null;
    }),
  };
  const autoImpersonateAccount = method(devPositional([boolean]), ([on]) => {
    chain.dev.setAutoImpersonate(on as boolean);
    return null;
  });

  const fees = {
    // Anvil's answer on a chain with EIP-1559, as every Avalanche EVM chain is.
    setMinGasPrice: method(devPositional([u256]), () => {
      throw new RpcError('anvil_setMinGasPrice is not supported when EIP-1559 is active', -32602);
    }),
    setNextBlockBaseFeePerGas: method(devPositional([u256]), ([fee]) => {
      if ((fee as bigint) > MAX_BASE_FEE) throw devErrors.baseFeeTooHigh(fee as bigint);
      chain.dev.setNextBaseFee(fee as bigint);
      return null;
    }),
  };
  // evm_setBlockGasLimit (anvil_setBlockGasLimit): the gas limit of every block from now on, which
  // txs are held to at once (the pool, estimates). Anvil saturates the value to a u64. A C-Chain
  // block can never hold more than ACP-176's capacity: a higher limit is refused rather than kept
  // with txs that could never be mined.
  const setBlockGasLimit = method(devPositional([u256]), ([value]) => {
    const limit = (value as bigint) > MAX_U64 ? MAX_U64 : (value as bigint);
    if (chain.flavor.layout === 'coreth') {
      const most = chain.rulesGasLimit();
      if (limit > most) throw devErrors.gasLimitOverCapacity(limit, most);
    }
    chain.dev.setBlockGasLimit(limit);
    return true;
  });
  // The next block's PREVRANDAO, once: its header's mix digest holds it (coreth's is zero, and its
  // PREVRANDAO answers the difficulty, 1), so calls on that block and its traces read it too.
  const setPrevRandao = (answer: true | null) =>
    method(devPositional([hash]), ([value]) => {
      // A zero mix digest is coreth's own (PREVRANDAO answers the difficulty): a zero PREVRANDAO could not be replayed.
      if ((value as Uint8Array).every((b) => b === 0)) throw devErrors.zeroPrevRandao();
      chain.dev.setNextPrevRandao(value as Uint8Array);
      return answer;
    });
  const nodeInfo = nodeInfoMethod(chain, gas, fork);
  // anvil_setRpcUrl: the fork reads its upstream's chain from another endpoint.
  const setRpcUrl = method(devPositional([string]), async ([url]) => {
    if (!(await fork?.setUrl(url as string))) throw new RpcError('anvil_setRpcUrl: this chain is not a fork');
    return null;
  });

  return [
    {
      name: 'evm',
      methods: {
        mine: method(devPositional([mineOptions], 0), async ([options]) => {
          await mineWith(options as MineOptions);
          return '0x0';
        }),
        mine_detailed: mineDetailed,
        increaseTime,
        setNextBlockTimestamp,
        setTime,
        setAccountNonce: edits.setNonce,
        setAutomine,
        setBlockGasLimit,
        setIntervalMining,
        ...whole.evm,
      },
    },
    {
      name: 'anvil',
      methods: {
        mine,
        mine_detailed: mineDetailed,
        increaseTime,
        setNextBlockTimestamp,
        setTime,
        ...edits,
        ...erc20,
        ...mining,
        ...pool,
        ...impersonation,
        autoImpersonateAccount,
        ...fees,
        setBlockGasLimit,
        setNextBlockPrevRandao: setPrevRandao(null),
        nodeInfo,
        setRpcUrl,
        setLoggingEnabled,
        getGenesisTime: method(devPositional([]), () => Number(chain.genesis.header.time)),
        metadata: metadataMethod(chain, clientVersion, fork, true),
        ...whole.anvil,
      },
    },
    // Anvil answers Tenderly's names for two of its balance edits.
    { name: 'tenderly', methods: { addBalance: edits.addBalance, setBalance: edits.setBalance } },
    {
      name: 'hardhat',
      methods: {
        mine,
        ...edits,
        dealERC20: erc20.dealERC20,
        getAutomine,
        ...pool,
        ...impersonation,
        autoImpersonateAccount,
        ...fees,
        setPrevRandao: setPrevRandao(true),
        setLoggingEnabled,
        metadata: metadataMethod(chain, clientVersion, fork, false),
        ...whole.hardhat,
      },
    },
  ];
}
