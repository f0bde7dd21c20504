import { attemptDelivery } from '../commands/webhook-delivery.commands.js';
import type { WebhookDeps } from '../commands/webhook-deps.js';
import type { BusMessage, MessageBus } from '../domain/ports/message-bus.port.js';
import { MAX_ATTEMPTS } from '../domain/webhooks/retry-schedule.js';
import type { WebhookDeliveryEvent } from '../domain/webhooks/webhook-delivery.events.js';
import { asConsequenceOf, correlationOf } from './event-scope.js';
import type { BusEvent, Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Webhook delivery: attempt 1 as soon as a delivery is scheduled; each failed attempt with attempts left
 * becomes a message on the topic of the next attempt, delayed (`notBefore`) until its time. The delay
 * lives in the bus, so a restart or a crash loses no retry: the message is durable before the failure
 * event that caused it is committed, and an uncommitted failure event is read again and republished
 * (duplicates are skipped by attempt number). One topic per attempt number keeps every message of a
 * topic on the same delay, so a due retry never waits behind a later one.
 */
export const DELIVERIES_TOPIC = topicOfFamily('delivery');
export const attemptTopic = (attempt: number): string => `webhooks.attempt-${attempt}`;
const RETRY_TOPICS = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => attemptTopic(i + 2));
const ATTEMPT_DUE = 'WebhookAttemptDue';

export function webhookDeliveryProcessor(deps: { commands: WebhookDeps; bus: Pick<MessageBus, 'publish'> }): Processor<unknown> {
  return {
    name: 'webhook-delivery',
    topics: [DELIVERIES_TOPIC, ...RETRY_TOPICS],
    async handle(batch) {
      const attempts = new Map<string, { deliveryId: string; attempt: number; event: BusEvent }>();
      const retries = new Map<string, BusMessage[]>();
      for (const event of batch) {
        if (event.type === ATTEMPT_DUE) {
          const due = event.data as { deliveryId: string; attempt: number };
          attempts.set(`${due.deliveryId}:${due.attempt}`, { ...due, event });
          continue;
        }
        const delivery = { type: event.type, data: event.data } as WebhookDeliveryEvent;
        if (delivery.type === 'WebhookDeliveryScheduled')
          attempts.set(`${delivery.data.deliveryId}:1`, { deliveryId: delivery.data.deliveryId, attempt: 1, event });
        if (delivery.type === 'WebhookDeliveryAttempted' && delivery.data.status === 'failed' && delivery.data.nextAttemptAt) {
          const next = delivery.data.attempt + 1;
          const topic = attemptTopic(next);
          retries.set(topic, [
            ...(retries.get(topic) ?? []),
            retryMessage(event, delivery.data.deliveryId, next, delivery.data.nextAttemptAt),
          ]);
        }
      }
      await Promise.all([
        ...[...attempts.values()].map(({ deliveryId, attempt, event }) =>
          asConsequenceOf(event, () => attemptDelivery(deps.commands, deliveryId, attempt)),
        ),
        ...[...retries].map(([topic, messages]) => deps.bus.publish(topic, messages)),
      ]);
    },
  };
}

function retryMessage(cause: BusEvent, deliveryId: string, attempt: number, dueAt: string): BusMessage {
  return {
    key: cause.streamId,
    // The retry keeps the chain's correlation: the attempt it triggers is logged and recorded under it.
    value: {
      type: ATTEMPT_DUE,
      data: { deliveryId, attempt },
      metadata: { causationId: cause.id, correlationId: correlationOf(cause)?.correlationId },
    },
    headers: { 'event-type': ATTEMPT_DUE, 'stream-id': cause.streamId },
    notBefore: Date.parse(dueAt),
  };
}
