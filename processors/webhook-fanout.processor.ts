import type { CommandDeps } from '../commands/command-deps.js';
import { scheduleDelivery } from '../commands/webhook-delivery.commands.js';
import { subgroupsOfUser } from '../commands/webhook-actor.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { deadLetterTopic, HEADER, type MessageBus } from '../domain/ports/message-bus.port.js';
import type { WebhookSubscriptionFinder } from '../domain/ports/webhook-subscriptions.port.js';
import { parseWebhookPayload } from '../domain/webhooks/webhook-event-types.js';
import { payloadFor } from '../domain/webhooks/webhook-matching.js';
import { WEBHOOK_EVENT_RAISED, WEBHOOK_SOURCE_FAMILIES, webhookEventRaisedSchema } from '../domain/webhooks/webhook-raised.js';
import { asConsequenceOf } from './event-scope.js';
import { storedEventOf, type BusEvent, type Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Webhook fan-out: every WebhookEventRaised (domain/webhooks/webhook-raised.ts) becomes one pending
 * delivery per matching subscription of its audience, whichever surface created the subscription. The
 * delivery id derives from the raised event's id and the subscription id, so a redelivered event
 * schedules nothing new. A raised event that breaks the contract goes to the dead-letter topic with
 * the reason, without holding back the valid ones.
 */
export function webhookFanOutProcessor(deps: {
  commands: CommandDeps;
  subscriptions: WebhookSubscriptionFinder;
  bus: Pick<MessageBus, 'publish'>;
}): Processor<unknown> {
  async function fanOut(event: BusEvent): Promise<void> {
    const parsed = webhookEventRaisedSchema.safeParse(event.data);
    let payload: Record<string, unknown>;
    try {
      if (!parsed.success) throw parsed.error;
      payload = parseWebhookPayload(parsed.data.event_type, parsed.data.payload);
    } catch (error) {
      await deps.bus.publish(deadLetterTopic(event.message.topic), [
        {
          key: event.message.key,
          value: event.message.value,
          headers: { ...event.message.headers, [HEADER.error]: String(error).slice(0, 2000) },
        },
      ]);
      return;
    }
    const raised = parsed.data;
    const audience =
      'subgroup_id' in raised.audience ? [raised.audience.subgroup_id] : await subgroupsOfUser(deps.commands, raised.audience.user_id);
    if (audience.length === 0) return;
    const targets = await deps.subscriptions.subscribedTo(audience, raised.event_type, positionOf(event));
    const source = storedEventOf(event);
    const occurredAt = raised.occurred_at ?? String(event.metadata.occurredAt ?? deps.commands.clock.now().toISOString());
    await Promise.all(
      targets.map(async (target) => {
        const delivered = payloadFor(target, raised.event_type, payload);
        if (delivered === null) return;
        await scheduleDelivery(deps.commands, {
          // uuid v5 of (raised event, subscription): the same pair always names the same delivery.
          deliveryId: deps.commands.ids.eventId(`webhook-delivery:${source.id}:${target.subscriptionId}`, 0),
          subscriptionId: target.subscriptionId,
          subgroupId: target.subgroupId,
          eventType: raised.event_type,
          occurredAt,
          payload: delivered,
          synthetic: delivered.synthetic === true,
          sourceEventId: source.id,
        });
      }),
    );
  }

  return {
    name: 'webhook-fanout',
    topics: WEBHOOK_SOURCE_FAMILIES.map(topicOfFamily),
    async handle(batch) {
      await Promise.all(
        batch.filter((event) => event.type === WEBHOOK_EVENT_RAISED).map((event) => asConsequenceOf(event, () => fanOut(event))),
      );
    },
  };
}

function positionOf(event: BusEvent): Position | null {
  const commit = event.message.headers[HEADER.commit];
  const prepare = event.message.headers[HEADER.prepare];
  return commit === undefined || prepare === undefined ? null : { commit: BigInt(commit), prepare: BigInt(prepare) };
}
