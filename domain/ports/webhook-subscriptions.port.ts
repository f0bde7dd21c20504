import type { Position } from './event-store.port.js';
import type { AlertLevel, WebhookEventType } from '../webhooks/webhook-event-types.js';

/** A live subscription as the fan-out needs it. */
export interface WebhookSubscriptionTarget {
  readonly subscriptionId: string;
  readonly subgroupId: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly alertMinLevel: AlertLevel;
}

/**
 * Finds the subscriptions an event goes to (a read model). `asOf` is the position of the raised event:
 * the answer reflects at least every subscription change appended before it.
 */
export interface WebhookSubscriptionFinder {
  subscribedTo(
    subgroupIds: readonly string[],
    eventType: WebhookEventType,
    asOf: Position | null,
  ): Promise<readonly WebhookSubscriptionTarget[]>;
}
