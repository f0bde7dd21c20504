import type { BusMessage } from '../../domain/ports/message-bus.port.js';
import type { GraphTransfer, TransferBatch, TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../domain/shared/network.js';

/**
 * Follows a chain's head for an ingester (EVM JSON-RPC, TRON HTTP): reads block ranges, publishes their
 * transfers to the graph pipeline, and saves its position in the graph store after each publish (a crash
 * in between publishes the range again, which the fold counts once).
 *
 * Reorganisations: the hashes of the last `confirmations` blocks are saved with the position. A range whose
 * first block does not follow the saved hash is a fork: the follower walks back to the last saved block the
 * chain still has, publishes BlocksReverted from the block after it, and reads on from there. Transfers of
 * blocks within `confirmations` of the head are published as revertible (finalThrough = head −
 * confirmations); a fork deeper than that is reported, and the blocks already final stay.
 */

export interface BlockRef {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
}

export type ReadBlocks = (fromBlock: number, toBlock: number) => Promise<{ transfers: GraphTransfer[]; blocks: BlockRef[] }>;

/**
 * How an ingester reads its chain (EVM JSON-RPC, TRON HTTP; test/contracts/block-reader.contract.ts): the
 * head's number, a block's hash, and the value transfers of a block range with the blocks read.
 */
export interface BlockReader {
  readonly head: () => Promise<number>;
  readonly blockHash: (number: number) => Promise<string>;
  readonly readBlocks: ReadBlocks;
}

export interface ChainFollower {
  /** The last block published (fromBlock − 1 before any). */
  readonly lastBlock: number;
  /** Loads the saved position; call once before syncing. */
  open(): Promise<void>;
  /** Publishes up to the head; resolves with the number of blocks read. */
  syncOnce(): Promise<number>;
  /** Syncs every `pollMs` until stopped. */
  start(): void;
  stop(): Promise<void>;
}

interface FollowerState {
  /** The next block to read. */
  next: number;
  /** [number, hash] of the last blocks read, oldest first: how a fork is found. */
  recent: [number, string][];
}

export interface FollowerOptions {
  readonly name: string;
  readonly caveat: string;
  readonly network: Network;
  readonly fromBlock: number;
  readonly batchBlocks: number;
  readonly pollMs: number;
  readonly confirmations: number;
  readonly graph: TransferGraphStore;
  readonly publish: (messages: readonly BusMessage[]) => Promise<void>;
  readonly head: () => Promise<number>;
  readonly blockHash: (number: number) => Promise<string>;
  readonly readBlocks: ReadBlocks;
  readonly messages: {
    readonly transfers: (batch: TransferBatch, key: string) => BusMessage[];
    readonly reverted: (key: string, network: Network, fromBlock: number) => BusMessage;
  };
  readonly log: (line: string) => void;
}

const sourceName = (name: string) => `ingest:${name}`;

export function chainFollower(options: FollowerOptions): ChainFollower {
  const key = options.network;
  let state: FollowerState = { next: options.fromBlock, recent: [] };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  const save = () => options.graph.writeSource(sourceName(options.name), state);

  /** Walks back to the last saved block the chain still has; publishes the revert of what follows it. */
  async function followFork(): Promise<void> {
    let fork: number | null = null;
    for (const [number, hash] of [...state.recent].reverse()) {
      if ((await options.blockHash(number)) === hash) {
        fork = number + 1;
        break;
      }
    }
    if (fork === null) {
      fork = state.recent[0]?.[0] ?? state.next;
      options.log(
        `ingest ${options.name}: a reorganisation deeper than ${options.confirmations} blocks; blocks before ${fork} stay as read`,
      );
    } else options.log(`ingest ${options.name}: reorganisation, blocks from ${fork} reverted`);
    await options.publish([options.messages.reverted(key, options.network, fork)]);
    const from = fork;
    state = { next: from, recent: state.recent.filter(([number]) => number < from) };
    await save();
  }

  async function syncOnce(): Promise<number> {
    const head = await options.head();
    let read = 0;
    while (state.next <= head && !stopped) {
      const fromBlock = state.next;
      const toBlock = Math.min(head, fromBlock + options.batchBlocks - 1);
      const { transfers, blocks } = await options.readBlocks(fromBlock, toBlock);
      const parent = state.recent.at(-1);
      if (parent && parent[0] === fromBlock - 1 && blocks[0] && blocks[0].parentHash !== parent[1]) {
        await followFork();
        continue;
      }
      for (let i = 1; i < blocks.length; i++)
        if (blocks[i]?.parentHash !== blocks[i - 1]?.hash) throw new Error(`block ${blocks[i]?.number} changed while it was read`);
      const finalThrough = head - options.confirmations;
      const batch: TransferBatch = {
        network: options.network,
        dataset: options.name,
        caveat: options.caveat,
        positions: 'blocks',
        finalThrough,
        transfers,
      };
      await options.publish(options.messages.transfers(batch, key));
      // The hash of the last block read is always kept: the next range's parent must match it.
      const recent: [number, string][] = [...state.recent, ...blocks.map((b): [number, string] => [b.number, b.hash])];
      state = { next: toBlock + 1, recent: recent.filter(([number]) => number > Math.min(finalThrough, toBlock - 1)) };
      await save();
      read += blocks.length;
    }
    return read;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = syncOnce()
        .catch((error: unknown) => options.log(`ingest ${options.name}: ${error instanceof Error ? error.message : String(error)}`))
        .finally(schedule);
    }, options.pollMs);
    timer.unref?.();
  };

  return {
    get lastBlock() {
      return state.next - 1;
    },
    async open() {
      const saved = (await options.graph.readSource(sourceName(options.name))) as FollowerState | null;
      if (saved) {
        state = saved;
        options.log(`ingest ${options.name}: resumed after block ${state.next - 1}`);
      }
    },
    syncOnce,
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
