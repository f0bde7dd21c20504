import type { Position } from '../../domain/ports/event-store.port.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { alertCaseProcessor } from '../../processors/alert-case.processor.js';
import { createInspectProcessor } from '../../processors/inspect/inspect.processor.js';
import { ownEngineProvider } from '../../processors/inspect/own-engine.provider.js';
import type { Processor } from '../../processors/processor.js';
import { createProcessorRunner } from '../../processors/processor-runner.js';
import type { Config } from '../config.js';
import type { FullCheckModule } from '../full-check/full-check-module.js';
import type { TransferCheckModule } from '../kyt/transfer-check-module.js';
import type { MonitorModule } from '../monitors/monitor-module.js';
import { retroactiveExposure } from '../policies/retroactive-module.js';
import { httpRiskProviders } from '../providers/risk-providers.js';
import { systemClock } from '../system/system-clock.js';
import type { HostResolver } from '../webhooks/ssrf-guard.js';
import { createWebhookModule } from '../webhooks/webhook-module.js';
import type { Core } from './core.js';

/** The modules a process assembles once; every processor instance shares them. */
export interface Modules {
  readonly config: Config;
  readonly core: Core;
  readonly readStore: ReadStore;
  readonly whenProjected: (position: Position | null) => Promise<void>;
  readonly fullCheck: FullCheckModule;
  readonly transferChecks: TransferCheckModule;
  readonly monitors: MonitorModule;
  readonly inspect: Processor<unknown>;
  readonly webhookResolver?: HostResolver | undefined;
}

/** One processor instance: the bus it reads, the commands it issues, and its own webhook transport and KYT processor. */
export interface Instance {
  readonly bus: MessageBus;
  readonly commands: Core['commands'];
  readonly webhooks: ReturnType<typeof createWebhookModule>;
  readonly transfers: ReturnType<TransferCheckModule['processorFor']>;
  /** The full-check pipeline runs on fullCheck's own runner in this process, here for another instance. */
  readonly withPipeline: boolean;
}

/** A feature (named as its folders are, docs/ARCHITECTURE.md) and the processors it adds to each instance. */
export interface Feature {
  readonly name: string;
  processors(modules: Modules, instance: Instance): readonly Processor<unknown>[];
}

/** Every feature that runs processors, in the order their processors start. */
export const FEATURES: readonly Feature[] = [
  { name: 'webhooks', processors: (_, instance) => instance.webhooks.processors },
  { name: 'inspect', processors: (modules) => [modules.inspect] },
  { name: 'kyt', processors: (_, instance) => [instance.transfers] },
  { name: 'monitors', processors: (modules, instance) => [modules.monitors.processorFor(instance.commands)] },
  { name: 'alerts', processors: (_, instance) => [alertCaseProcessor(instance.commands)] },
  {
    name: 'policies',
    processors: (modules, instance) =>
      retroactiveExposure({
        config: modules.config,
        store: modules.core.store,
        readStore: modules.readStore,
        commands: { ...modules.transferChecks.deps, ...instance.commands },
        whenProjected: modules.whenProjected,
      }),
  },
  { name: 'full-check', processors: (modules, instance) => (instance.withPipeline ? modules.fullCheck.pipeline : []) },
];

/** The inspect's processor: the own engine and the configured outside providers. */
export function inspectProcessorOf(config: Config, core: Core): Processor<unknown> {
  return createInspectProcessor({
    providers: [
      ownEngineProvider({ intel: core.intel, contracts: core.contracts, clock: systemClock }),
      ...httpRiskProviders(config.INSPECT_PROVIDERS),
    ],
    providerTimeoutMs: config.SVC_INSPECT_PROVIDER_TIMEOUT_MS,
  });
}

/**
 * The processors of one instance on a bus, issuing commands through `commands`: this process's own, or
 * another instance in the same consumer groups (startProcessorsOn).
 */
export function processorSet(modules: Modules, bus: MessageBus, commands: Core['commands'], withPipeline: boolean) {
  const webhooks = createWebhookModule({
    settings: modules.config,
    commands,
    bus,
    readStore: modules.readStore,
    whenProjected: modules.whenProjected,
    ...(modules.webhookResolver ? { resolver: modules.webhookResolver } : {}),
  });
  const instance: Instance = { bus, commands, webhooks, transfers: modules.transferChecks.processorFor(commands), withPipeline };
  const processors = FEATURES.flatMap((feature) => feature.processors(modules, instance));
  return {
    webhooks,
    transfers: instance.transfers,
    topics: processors.flatMap((p) => p.topics),
    runner: createProcessorRunner({ bus, processors, context: commands }),
  };
}
export type ProcessorSet = ReturnType<typeof processorSet>;
