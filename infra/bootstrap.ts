import { createRelay } from '../processors/relay.js';
import type { Config } from './config.js';
import type { Services } from './services.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { createCore } from './wiring/core.js';
import { inspectProcessorOf, processorSet } from './wiring/features.js';
import { accountRepositories, createAppServices } from './wiring/app-services.js';
import { lifecycleOf } from './wiring/lifecycle.js';
import { openPorts } from './topology/open-ports.js';
import { createReadModelRunner } from './topology/projections.js';
import { runs } from './topology/role.js';
import { systemClock } from './system/system-clock.js';
import { installNativeSha256 } from './system/native-sha256.js';
import { createFullCheckModule } from './full-check/full-check-module.js';
import { createTransferCheckModule } from './kyt/transfer-check-module.js';
import type { HostResolver } from './webhooks/ssrf-guard.js';
import { createX402Module } from './x402/x402-module.js';
import type { Logger } from '../domain/ports/logger.port.js';
import { registerBusLag, registerLogLag } from './metrics/lag-metrics.js';
import { createMonitorModule } from './monitors/monitor-module.js';

export { PROJECTIONS } from './read-models.js';

export type { Services } from './services.js';

/**
 * One process of the service: the adapters of its topology (topology/open-ports.ts), the parts every feature
 * shares (wiring/core.ts), the feature modules and their processors (wiring/features.ts), the routes'
 * services (wiring/app-services.ts), and what ROLE starts (wiring/lifecycle.ts).
 */
export async function createServices(
  config: Config,
  log: (message: string) => void = () => undefined,
  /** Test doubles of the outside world: a DNS resolver for the webhook SSRF guard; `logger`: main's (silent without). */
  outside: { webhookResolver?: HostResolver; logger?: Logger } = {},
): Promise<Services> {
  installNativeSha256();
  const onError = (error: unknown, _event?: unknown, where?: string) => log(`error in ${where ?? 'runner'}: ${String(error)}`);
  const ports = await openPorts(config, (error) => onError(error, undefined, 'the embedded bus'));
  const core = await createCore(config, ports, outside.logger);
  const { store, bus, commands, intel, metrics } = core;
  const readStore = ports.readStore;
  const fullCheck = createFullCheckModule({ config, commands, intel, contracts: core.contracts, bus, graph: ports.graph, log });
  const transferChecks = createTransferCheckModule({ config, commands, prices: fullCheck.prices, transfers: fullCheck.transfers });
  const sinks = [intel, core.inspectCompletions, fullCheck.runningJobs, core.streamChanges];
  const projections = createReadModelRunner({ config, ports, store, readStore, sinks, onError });
  const whenProjected = (position: Position | null) => projections.whenProcessed(position);
  const monitors = createMonitorModule({ commands, store, readStore, whenProjected, metrics, onError });
  const inspect = inspectProcessorOf(config, core);
  const modules = {
    config,
    core,
    readStore,
    whenProjected,
    fullCheck,
    transferChecks,
    monitors,
    inspect,
    webhookResolver: outside.webhookResolver,
  };
  const own = processorSet(modules, bus, commands, false);
  // With Kafka the relay copies `$all` onto the bus; the embedded bus reads the log itself, so there is none.
  const relay = config.BUS === 'kafka' ? createRelay({ store, bus, checkpoints: ports.processorCheckpoints, onError }) : null;
  const x402 = createX402Module({
    config,
    commands,
    readStore,
    pipeline: fullCheck.api,
    transferChecks: transferChecks.deps,
    ...(ports.rateLimits ? { rateLimits: ports.rateLimits } : {}),
  });
  const repositories = accountRepositories(readStore);
  const readiness = { ready: false };
  const app = createAppServices(modules, own, repositories, () => readiness.ready);
  registerBusLag(metrics, bus, () => bus.groups());
  const relayProgress = relay && runs(config.ROLE, 'projections') ? [{ name: 'relay', progress: () => relay.progress() }] : [];
  const progress = () => [{ name: 'projections', progress: () => projections.progress() }, ...relayProgress];
  registerLogLag(metrics, store, progress, () => systemClock.now());
  const parts = { config, store, bus, readStore, intel, commands, receipts: core.receipts, projections, relay, app, x402 };
  return {
    ...parts,
    repositories,
    fullCheck,
    transferChecks,
    monitors,
    ...lifecycleOf({ modules, ports, projections, relay, own, readiness }),
  };
}
