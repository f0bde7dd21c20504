import { join } from 'node:path';
import { createCommandExecutor } from '../commands/command-executor.js';
import type { CommandDeps } from '../commands/command-deps.js';
import { comparePositions, type EventStore } from '../domain/ports/event-store.port.js';
import type { MessageBus } from '../domain/ports/message-bus.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { createProcessorRunner } from '../processors/processor-runner.js';
import { createInspectProcessor } from '../processors/inspect/inspect.processor.js';
import { ownEngineProvider } from '../processors/inspect/own-engine.provider.js';
import { type ProjectionRunner } from '../processors/projection-runner.js';
import { createRelay, type Relay } from '../processors/relay.js';
import { familyOfTopic } from '../processors/topics.js';
import { accountRepository } from '../projections/accounts.projection.js';
import { apiKeyRepository } from '../projections/api-keys.projection.js';
import { balanceRepository } from '../projections/balances.projection.js';
import { createIntelIndex } from '../projections/intel-index.js';
import { createInspectCompletions } from '../projections/inspect-completions.js';
import { createStreamChanges } from '../projections/stream-changes.js';
import { addressCheckEventSchemas } from '../domain/address-check/address-check.events.js';
import { idempotencyEventSchemas } from '../domain/idempotency/idempotency.events.js';
import { transferCheckEventSchemas } from '../domain/kyt/transfer-check.events.js';
import { keyProviderSelectionRepository } from '../projections/key-provider-selections.projection.js';
import { usageRepository } from '../projections/usage.projection.js';
import { sessionRepository } from '../projections/sessions.projection.js';
import { subgroupRepository } from '../projections/subgroups.projection.js';
import { usageDayRepository } from '../projections/usage-days.projection.js';
import { scryptPasswordHasher } from './system/scrypt-password-hasher.js';
import type { AppServices } from '../read-api/services.js';
import { API_VERSION } from '../read-api/api-version.js';
import type { Config } from './config.js';
import { openPorts } from './topology/open-ports.js';
import { createReadModelRunner } from './topology/projections.js';
import { runs } from './topology/role.js';
import { httpRiskProviders, providerCatalog } from './providers/risk-providers.js';
import { rpcContractCodeReader } from './chain/rpc-contract-code.js';
import { cryptoRandom } from './system/crypto-random.js';
import { systemClock } from './system/system-clock.js';
import { uuidIds } from './system/uuid-ids.js';
import { createFullCheckModule, type FullCheckModule } from './full-check/full-check-module.js';
import { createTransferCheckModule, type TransferCheckModule } from './kyt/transfer-check-module.js';
import type { HostResolver } from './webhooks/ssrf-guard.js';
import { createWebhookModule } from './webhooks/webhook-module.js';
import { createX402Module, type X402Module } from './x402/x402-module.js';
import { silentLogger, type Logger } from '../domain/ports/logger.port.js';
import { trackConsumerGroups } from './metrics/consumer-groups.js';
import { registerBusLag, registerLogLag } from './metrics/lag-metrics.js';
import { createServiceMetrics } from './metrics/service-metrics.js';
import { timedEventStore } from './metrics/timed-event-store.js';
import { createAsyncCorrelation } from './system/async-correlation.js';
import { createMonitorModule, type MonitorModule } from './monitors/monitor-module.js';
import { TRANSFER_CHECK_TIMEOUT_MS } from '../domain/kyt/transfer-check.events.js';
import { alertCaseAppServices } from './alerts/alert-cases-module.js';
import { policyAppServices } from './policies/policy-module.js';
import { alertCaseProcessor } from '../processors/alert-case.processor.js';
import { retroactiveExposure } from './policies/retroactive-module.js';
import type { VerdictSigner } from '../domain/ports/verdict-signer.port.js';
import { Ed25519VerdictSigner } from './receipts/ed25519-verdict-signer.js';

export { PROJECTIONS } from './read-models.js';

export interface Services {
  readonly config: Config;
  readonly store: EventStore;
  readonly bus: MessageBus;
  readonly readStore: ReadStore;
  readonly intel: IntelIndex & { apply(event: { type: string; data: unknown }): void };
  readonly commands: CommandDeps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };
  /** The verdict receipts' signer and key ring (rotation by the CLI). */
  readonly receipts: Ed25519VerdictSigner;
  readonly projections: ProjectionRunner;
  readonly relay: Relay;
  readonly app: AppServices;
  /** The x402 channel: the x402 app's services (null while the channel is off) and its accounting read models. */
  readonly x402: X402Module;
  /** Full check, explore jobs and the reaper: the transfer index, prices, pipeline processors. */
  readonly fullCheck: FullCheckModule;
  /** Transfer checks (KYT): decoders, prices and the commands' deps (the x402 channel and tests use them). */
  readonly transferChecks: TransferCheckModule;
  /** Monitors: the re-evaluation processor, monthly renewals and the operator's stats. */
  readonly monitors: MonitorModule;
  readonly repositories: {
    readonly accounts: ReturnType<typeof accountRepository>;
    readonly apiKeys: ReturnType<typeof apiKeyRepository>;
    readonly usage: ReturnType<typeof usageRepository>;
    readonly balances: ReturnType<typeof balanceRepository>;
  };
  /** Replays the log into the read models and starts the relay and processors. */
  start(): Promise<void>;
  /** Resolves once everything appended so far is projected, relayed and processed (tests never sleep). */
  whenCaughtUp(): Promise<void>;
  /** Stops in reverse start order, waiting for work in flight. */
  close(): Promise<void>;
  /**
   * Starts one more instance of every processor on `bus`, in the same consumer groups, with its own command
   * executor on `store` (default: this service's), as a ROLE=processors process would; scale-out tests run
   * several in one process. It shares this process's read models and in-memory indexes.
   */
  startProcessorsOn(options: { bus: MessageBus; store?: EventStore }): Promise<{ whenCaughtUp(): Promise<void>; stop(): Promise<void> }>;
}

/** Passes of `whenCaughtUp` at most: processors that kept appending would otherwise hold it forever. */
const MAX_CATCH_UP_PASSES = 20;

/** Embedded by default; see openPorts for the adapters and ROLE (in start) for what this process runs. */
export async function createServices(
  config: Config,
  log: (message: string) => void = () => undefined,
  /** Test doubles of the outside world: a DNS resolver for the webhook SSRF guard; `logger`: main's (silent without). */
  outside: { webhookResolver?: HostResolver; logger?: Logger } = {},
): Promise<Services> {
  const opened = await openPorts(config);
  const { readStore, processorCheckpoints } = opened;
  // Metrics wrap the chosen adapters: append latency on any event store, the consumer groups this process runs.
  const metrics = createServiceMetrics({ token: config.METRICS_TOKEN ?? null });
  const store = timedEventStore(opened.store, metrics.registry);
  const bus = trackConsumerGroups(opened.bus);
  const correlation = createAsyncCorrelation();
  const intel = createIntelIndex({ requiredSanctions: config.SVC_REQUIRED_SANCTIONS });
  const inspectCompletions = createInspectCompletions();
  // smart_contract.is_contract from eth_getCode on the networks with an RPC configured, in every product's verdict.
  const contracts =
    config.SVC_RPC_URL_ETH || config.SVC_RPC_URL_BSC
      ? rpcContractCodeReader({ rpcUrls: { ETH: config.SVC_RPC_URL_ETH, BSC: config.SVC_RPC_URL_BSC } })
      : undefined;
  // The streams commands wait on (commands/wait-for-stream.ts): checks' outcomes and idempotent twins.
  const streamChanges = createStreamChanges([
    ...Object.keys(addressCheckEventSchemas),
    ...Object.keys(transferCheckEventSchemas),
    ...Object.keys(idempotencyEventSchemas),
  ]);

  const receipts = await Ed25519VerdictSigner.open(
    config.RECEIPT_KEYS_FILE ?? join(config.DATA_DIR, 'receipt-keys.json'),
    systemClock.now(),
  );
  const commands = {
    receipts,
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds, correlation }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: uuidIds.newId(),
    correlation,
    log: outside.logger ?? silentLogger,
    changes: streamChanges,
    intel,
    ...(contracts ? { contracts } : {}),
  };
  const fullCheck = createFullCheckModule({ config, commands, intel, contracts, bus, graph: opened.graph, log });
  const transferChecks = createTransferCheckModule({ config, commands, prices: fullCheck.prices, transfers: fullCheck.transfers });
  const onError = (error: unknown, _event?: unknown, where?: string) => log(`error in ${where ?? 'runner'}: ${String(error)}`);
  const sinks = [intel, inspectCompletions, fullCheck.runningJobs, streamChanges];
  const projections = createReadModelRunner({ config, ports: opened, store, readStore, sinks, onError });
  const inspectProcessor = createInspectProcessor({
    providers: [ownEngineProvider({ intel, contracts, clock: systemClock }), ...httpRiskProviders(config.INSPECT_PROVIDERS)],
    providerTimeoutMs: config.SVC_INSPECT_PROVIDER_TIMEOUT_MS,
  });
  const monitors = createMonitorModule({
    commands,
    store,
    readStore,
    whenProjected: (position) => projections.whenProcessed(position),
    metrics,
    onError,
  });
  /**
   * The processors of one instance on a bus, issuing commands through `context`: this process's own, or
   * another instance in the same consumer groups (startProcessorsOn). The full-check pipeline runs here
   * only for another instance; this process's runs on fullCheck's runner (with its reaper).
   */
  const processorSet = (onBus: MessageBus, context: typeof commands, withPipeline: boolean) => {
    const webhooks = createWebhookModule({
      settings: config,
      commands: context,
      bus: onBus,
      readStore,
      whenProjected: (position) => projections.whenProcessed(position),
      ...(outside.webhookResolver ? { resolver: outside.webhookResolver } : {}),
    });
    const pipeline = withPipeline ? fullCheck.pipeline : [];
    const transfers = transferChecks.processorFor(context);
    const processors = [
      ...webhooks.processors,
      inspectProcessor,
      transfers,
      monitors.processorFor(context),
      alertCaseProcessor(context),
      ...retroactiveExposure({
        config,
        store,
        readStore,
        commands: { ...transferChecks.deps, ...context },
        whenProjected: (position) => projections.whenProcessed(position),
      }),
      ...pipeline,
    ];
    return {
      webhooks,
      transfers,
      topics: processors.flatMap((p) => p.topics),
      runner: createProcessorRunner({ bus: onBus, processors, context }),
    };
  };
  const { webhooks, transfers, topics, runner: processors } = processorSet(bus, commands, false);
  // The embedded bus has no consumer outside this process: it carries only the families processors read.
  const consumed = new Set([...topics, ...fullCheck.pipeline.flatMap((p) => p.topics)].map(familyOfTopic));
  const relay = createRelay({
    store,
    bus,
    checkpoints: processorCheckpoints,
    onError,
    ...(config.BUS === 'kafka' ? {} : { relays: (family: string) => consumed.has(family) }),
  });

  const x402 = createX402Module({
    config,
    commands,
    readStore,
    pipeline: fullCheck.api,
    transferChecks: transferChecks.deps,
    ...(opened.rateLimits ? { rateLimits: opened.rateLimits } : {}),
  });
  const repositories = {
    accounts: accountRepository(readStore),
    apiKeys: apiKeyRepository(readStore),
    usage: usageRepository(readStore),
    balances: balanceRepository(readStore),
  };
  let ready = false;
  const app: AppServices = {
    commands,
    apiKeys: repositories.apiKeys,
    accounts: repositories.accounts,
    usage: repositories.usage,
    whenProjected: (position) => projections.whenProcessed(position),
    dashboard: {
      passwords: scryptPasswordHasher({ log2N: config.SVC_PASSWORD_SCRYPT_LOG_N }),
      sessions: sessionRepository(readStore),
      subgroups: subgroupRepository(readStore),
      usageDays: usageDayRepository(readStore),
      settings: {
        sessionTtlMs: config.SVC_SESSION_TTL_MINUTES * 60_000,
        cookieSecure: config.SVC_COOKIE_SECURE,
        loginMaxFailures: config.SVC_LOGIN_MAX_FAILURES,
        loginWindowMs: config.SVC_LOGIN_WINDOW_MINUTES * 60_000,
        loginMaxConcurrentChecks: config.SVC_LOGIN_MAX_CONCURRENT_CHECKS,
        loginMaxQueuedChecks: config.SVC_LOGIN_MAX_QUEUED_CHECKS,
      },
    },
    inspect: {
      catalog: providerCatalog(config.INSPECT_PROVIDERS),
      completions: inspectCompletions,
      keySelections: keyProviderSelectionRepository(readStore),
      waitMs: config.SVC_INSPECT_WAIT_MS,
      wallClockCapMs: config.SVC_INSPECT_WALL_CLOCK_CAP_MS,
    },
    pipeline: fullCheck.api,
    transfers: transferChecks.api,
    info: () => ({ mode: config.MODE, version: API_VERSION, ready }),
    sanctionsMaxAgeDays: config.SVC_SANCTIONS_MAX_AGE_DAYS,
    webhooks: webhooks.app,
    monitors: monitors.api,
    alerts: alertCaseAppServices(readStore),
    policies: policyAppServices(store, readStore, commands),
    correlation,
    metrics,
  };
  registerBusLag(metrics, bus, () => bus.groups());
  const relayRuns = runs(config.ROLE, 'projections');
  registerLogLag(
    metrics,
    store,
    () => [
      { name: 'projections', progress: () => projections.progress() },
      ...(relayRuns ? [{ name: 'relay', progress: () => relay.progress() }] : []),
    ],
    () => systemClock.now(),
  );

  return {
    config,
    store,
    bus,
    readStore,
    intel,
    commands,
    receipts,
    projections,
    relay,
    app,
    x402,
    repositories,
    fullCheck,
    transferChecks,
    monitors,
    async start() {
      await fullCheck.runningJobs.load(readStore);
      await projections.start();
      await projections.whenCaughtUp();
      await fullCheck.start({ runProcessors: runs(config.ROLE, 'processors') });
      // One relay per deployment (its checkpoint is a compare-and-set): in the all-in-one or projections process.
      if (relayRuns) await relay.start();
      if (runs(config.ROLE, 'processors')) {
        await processors.start();
        // Transfer checks a stopped process left in flight (their requests already committed on the bus),
        // in the background: a hung node must not hold the start. Past the 15-minute cap the reaper has them.
        const now = systemClock.now().getTime();
        const orphans = fullCheck.runningJobs
          .running()
          .filter((job) => job.kind === 'transfer_check' && now - Date.parse(job.requestedAt) < TRANSFER_CHECK_TIMEOUT_MS);
        void transfers.resume(orphans.map((job) => job.id));
        monitors.renewals.start();
      }
      ready = true;
    },
    async whenCaughtUp() {
      // Processors append as they handle (a risk change, an alert case, a delivery attempt): pass again until
      // a pass finds the log where it started, so what they appended is projected too.
      for (let pass = 0; pass < MAX_CATCH_UP_PASSES; pass += 1) {
        const head = await store.headPosition();
        await projections.whenCaughtUp();
        await relay.whenCaughtUp();
        await processors.whenCaughtUp();
        await fullCheck.whenCaughtUp();
        const after = await store.headPosition();
        if (head === null ? after === null : after !== null && comparePositions(head, after) === 0) return;
      }
    },
    async startProcessorsOn(options) {
      const executor = createCommandExecutor({ store: options.store ?? store, clock: systemClock, ids: uuidIds, correlation });
      const instance = processorSet(options.bus, { ...commands, executor, bootId: uuidIds.newId() }, true);
      await instance.runner.start();
      return {
        whenCaughtUp: () => instance.runner.whenCaughtUp(),
        async stop() {
          await instance.runner.stop();
          await instance.webhooks.close();
        },
      };
    },
    async close() {
      ready = false;
      await monitors.renewals.stop();
      await processors.stop();
      await fullCheck.close();
      await opened.graph.close();
      await webhooks.close();
      await relay.stop();
      await projections.stop();
      await bus.close();
      await processorCheckpoints.close();
      await readStore.close();
      await store.close();
    },
  };
}
