import { hostname } from 'node:os';
import type { CommandDeps } from '../../commands/command-deps.js';
import type { ExposureBudget } from '../../domain/exposure/exposure.schema.js';
import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { ContractCodeReader } from '../../domain/ports/contract-code.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { createAddressCheckProcessors } from '../../processors/address-check/address-check.processors.js';
import { createExploreProcessor } from '../../processors/explore.processor.js';
import { createPipelineReaper, type PipelineReaper } from '../../processors/pipeline-reaper.js';
import type { Processor } from '../../processors/processor.js';
import { createProcessorRunner } from '../../processors/processor-runner.js';
import { createRunningJobsIndex, type RunningJobsIndex } from '../../projections/running-jobs.index.js';
import type { PipelineApi } from '../../read-api/pipeline-api.js';
import type { TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import { graphFoldProcessor } from '../../processors/graph/graph-fold.processor.js';
import type { ChainFollower } from '../chain/chain-follower.js';
import { createEtherscanTransferIndex } from '../chain/etherscan-transfer-index.js';
import { createEvmBlockIngester } from '../chain/evm-block-ingester.js';
import { routedTransferIndex } from '../chain/routed-transfer-index.js';
import { createTronHttpTransferIndex } from '../chain/tron-http-transfer-index.js';
import { foldTransferSamples } from '../chain/transfer-samples.js';
import type { Config } from '../config.js';
import { createSnapshotPrices } from '../prices/snapshot-prices.js';

/**
 * The full check, explore jobs and their reaper, assembled from the configuration: prices (the embedded
 * snapshot and operator pins), the transfer index (the transfer graph store: the samples of
 * SVC_SOURCES_DIR, the blocks the ingester reads from SVC_INGEST_RPC_URL and what `data import-transfers`
 * brought, folded by the graph pipeline), the pipeline processors on their own runner, the in-memory index
 * of running jobs the reaper sweeps, and the budgets the routes give new jobs.
 */

export interface FullCheckModule {
  readonly api: PipelineApi;
  /** The transfer index the pipeline reads: per network, a configured history API or the embedded index. */
  readonly transfers: TransferIndex;
  /** The transfer graph store: the samples, ingested blocks and imports (tests fold their own data sets into it). */
  readonly graph: TransferGraphStore;
  readonly prices: Prices;
  /** Folded from the log by the projection runner (pass it as a sink). */
  readonly runningJobs: RunningJobsIndex;
  readonly reaper: PipelineReaper;
  /** The block ingester, when SVC_INGEST_RPC_URL is set. */
  readonly ingester: ChainFollower | null;
  /** The pipeline's processors, for tests that simulate a pipeline that is down. */
  readonly processors: { start(): Promise<void>; stop(): Promise<void> };
  /** What those processors are (each its own consumer group), for another instance on another bus. */
  readonly pipeline: readonly Processor<CommandDeps>[];
  /** Loads the transfer data, then starts the processors and the reaper (in processes that run them). */
  start(options: { runProcessors: boolean }): Promise<void>;
  whenCaughtUp(): Promise<void>;
  close(): Promise<void>;
}

function budgets(config: Config): { check: ExposureBudget; exploreMax: ExposureBudget } {
  return {
    check: {
      maxNodes: config.SVC_GRAPH_MAX_NODES,
      maxEdges: config.SVC_GRAPH_MAX_EDGES,
      maxHops: config.SVC_GRAPH_MAX_HOPS,
      timeMs: config.SVC_GRAPH_TIME_BUDGET_MS,
      perNodeLimit: config.SVC_GRAPH_PER_NODE_LIMIT,
    },
    exploreMax: {
      maxNodes: config.SVC_EXPLORE_MAX_NODES,
      maxEdges: config.SVC_EXPLORE_MAX_NODES * 20,
      maxHops: config.SVC_EXPLORE_MAX_HOPS,
      timeMs: config.SVC_EXPLORE_TIME_BUDGET_MS,
      perNodeLimit: config.SVC_GRAPH_PER_NODE_LIMIT,
    },
  };
}

/** Per network: the Etherscan-compatible API or the TRON HTTP API when configured, else the graph store. */
function chooseTransferIndex(config: Config, embedded: TransferIndex, prices: Prices): TransferIndex {
  const etherscan = config.SVC_ETHERSCAN_URL
    ? createEtherscanTransferIndex({
        baseUrl: config.SVC_ETHERSCAN_URL,
        networks: config.SVC_ETHERSCAN_NETWORKS,
        prices,
        ...(config.SVC_ETHERSCAN_API_KEY ? { apiKey: config.SVC_ETHERSCAN_API_KEY } : {}),
      })
    : null;
  const tron = config.SVC_TRON_API_URL
    ? createTronHttpTransferIndex({
        baseUrl: config.SVC_TRON_API_URL,
        prices,
        ...(config.SVC_TRON_API_KEY ? { apiKey: config.SVC_TRON_API_KEY } : {}),
      })
    : null;
  const evm = (network: 'ETH' | 'BSC') => (etherscan && config.SVC_ETHERSCAN_NETWORKS.includes(network) ? etherscan : embedded);
  return routedTransferIndex({ ETH: evm('ETH'), BSC: evm('BSC'), TRON: tron ?? embedded });
}

export function createFullCheckModule(deps: {
  config: Config;
  commands: CommandDeps;
  intel: IntelIndex;
  /** eth_getCode for tier 1's smart_contract, as on the light screen. */
  contracts?: ContractCodeReader | undefined;
  bus: MessageBus;
  /** The transfer graph store bootstrap opened (LMDB under DATA_DIR/graph, or PostgreSQL). */
  graph: TransferGraphStore;
  log: (line: string) => void;
}): FullCheckModule {
  const { config, graph } = deps;
  const prices = createSnapshotPrices(config.SVC_PRICE_PINS ?? []);
  const transfers = chooseTransferIndex(config, graph, prices);
  const tierDeps = {
    intel: deps.intel,
    clock: deps.commands.clock,
    contracts: deps.contracts,
    transfers,
    now: () => performance.now(),
    breathe: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
  const runningJobs = createRunningJobsIndex();
  const reaper = createPipelineReaper({
    commands: deps.commands,
    running: () => runningJobs.running(),
    intervalMs: config.SVC_REAPER_INTERVAL_MS,
    onError: (error) => deps.log(`reaper: ${String(error)}`),
  });
  const pipeline = [...createAddressCheckProcessors(tierDeps), createExploreProcessor(tierDeps)];
  const runner = createProcessorRunner({ bus: deps.bus, processors: pipeline, context: deps.commands });
  // The graph pipeline's folding end. A PostgreSQL graph store is shared: the folders of every process are
  // one consumer group, each message folded once. An LMDB graph is this process's own: on Kafka every
  // process folds every message into its own (a group per instance), in every role (the API reads it too).
  const shared = config.GRAPH_STORE === 'postgres' || config.BUS !== 'kafka';
  const group = shared ? 'graph-fold' : `graph-fold-${config.INSTANCE_ID ?? hostname()}`;
  const folder = createProcessorRunner({ bus: deps.bus, processors: [graphFoldProcessor(group)], context: { graph } });
  const { check, exploreMax } = budgets(config);
  const ingester = config.SVC_INGEST_RPC_URL
    ? createEvmBlockIngester({
        rpcUrl: config.SVC_INGEST_RPC_URL,
        network: config.SVC_INGEST_NETWORK,
        fromBlock: config.SVC_INGEST_FROM_BLOCK,
        batchBlocks: config.SVC_INGEST_BATCH_BLOCKS,
        pollMs: config.SVC_INGEST_POLL_MS,
        confirmations: config.SVC_INGEST_CONFIRMATIONS,
        graph,
        bus: deps.bus,
        prices,
        log: deps.log,
      })
    : null;
  let running = false;
  let folding = false;

  async function loadSamples() {
    if (!config.SVC_SOURCES_DIR) return;
    const { files, folded } = await foldTransferSamples(config.SVC_SOURCES_DIR, prices, graph);
    if (folded > 0) deps.log(`transfer samples: ${folded} transfers folded from ${files} files`);
  }

  return {
    api: { checkBudget: check, exploreMaxBudget: exploreMax },
    transfers,
    graph,
    prices,
    runningJobs,
    reaper,
    ingester,
    pipeline,
    processors: {
      async start() {
        await runner.start();
        running = true;
      },
      async stop() {
        running = false;
        await runner.stop();
      },
    },
    async start({ runProcessors }) {
      await loadSamples();
      await folder.start();
      folding = true;
      if (!runProcessors) return;
      if (ingester) {
        await ingester.open();
        ingester.start();
      }
      await runner.start();
      running = true;
      reaper.start();
    },
    async whenCaughtUp() {
      if (running) await runner.whenCaughtUp();
      if (folding) await folder.whenCaughtUp();
    },
    async close() {
      await reaper.stop();
      await ingester?.stop();
      if (running) await runner.stop();
      if (folding) await folder.stop();
      running = false;
      folding = false;
    },
  };
}
