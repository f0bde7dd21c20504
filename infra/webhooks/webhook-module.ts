import type { CommandDeps } from '../../commands/command-deps.js';
import type { WebhookDeps } from '../../commands/webhook-deps.js';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import type { WebhookSubscriptionFinder } from '../../domain/ports/webhook-subscriptions.port.js';
import type { Processor } from '../../processors/processor.js';
import { webhookDeliveryProcessor } from '../../processors/webhook-delivery.processor.js';
import { webhookFanOutProcessor } from '../../processors/webhook-fanout.processor.js';
import { webhookDeliveryRepository } from '../../projections/webhook-deliveries.projection.js';
import { webhookSubscriptionRepository } from '../../projections/webhook-subscriptions.projection.js';
import type { WebhookAppServices } from '../../read-api/services.js';
import type { HostResolver } from './ssrf-guard.js';
import { createUndiciWebhookTransport } from './undici-webhook-transport.js';

export interface WebhookSettings {
  readonly WEBHOOK_ALLOW_LOCAL: '0' | '1';
  readonly WEBHOOK_TIMEOUT_MS: number;
  readonly WEBHOOK_RETRY_SCALE: number;
}

/** Everything webhooks add to a service: the transport, the processors, and what the HTTP layer reads. */
export function createWebhookModule(deps: {
  settings: WebhookSettings;
  commands: CommandDeps;
  bus: MessageBus;
  readStore: ReadStore;
  /** Resolves once the read models reflect `position` (the fan-out reads subscriptions as of its event). */
  whenProjected: (position: Position | null) => Promise<void>;
  resolver?: HostResolver;
}): { app: WebhookAppServices; processors: Processor<unknown>[]; close(): Promise<void> } {
  const transport = createUndiciWebhookTransport({
    allowLocal: deps.settings.WEBHOOK_ALLOW_LOCAL === '1',
    timeoutMs: deps.settings.WEBHOOK_TIMEOUT_MS,
    ...(deps.resolver ? { resolver: deps.resolver } : {}),
  });
  const commands: WebhookDeps = { ...deps.commands, webhooks: { transport, retryScale: deps.settings.WEBHOOK_RETRY_SCALE } };
  const subscriptions = webhookSubscriptionRepository(deps.readStore);
  const finder: WebhookSubscriptionFinder = {
    async subscribedTo(subgroupIds, eventType, asOf) {
      await deps.whenProjected(asOf);
      return subscriptions.subscribedTo(subgroupIds, eventType);
    },
  };
  return {
    app: { commands, subscriptions, deliveries: webhookDeliveryRepository(deps.readStore) },
    processors: [
      webhookFanOutProcessor({ commands: deps.commands, subscriptions: finder, bus: deps.bus }),
      webhookDeliveryProcessor({ commands, bus: deps.bus }),
    ],
    close: () => transport.close(),
  };
}
