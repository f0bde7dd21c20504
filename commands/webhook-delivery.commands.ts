import { present } from '../domain/shared/present.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { MAX_ATTEMPTS, retryDelayMs } from '../domain/webhooks/retry-schedule.js';
import { isFinal, webhookDeliveryDecider } from '../domain/webhooks/webhook-delivery.decider.js';
import { deliveryStream } from '../domain/webhooks/webhook-delivery.events.js';
import { preview, signedRequest } from '../domain/webhooks/webhook-envelope.js';
import type { WebhookEventType } from '../domain/webhooks/webhook-event-types.js';
import { signingSecrets, webhookSubscriptionDecider } from '../domain/webhooks/webhook-subscription.decider.js';
import { webhookStream } from '../domain/webhooks/webhook-subscription.events.js';
import type { CommandDeps } from './command-deps.js';
import type { WebhookDeps } from './webhook-deps.js';

export interface DeliveryToSchedule {
  readonly deliveryId: string;
  readonly subscriptionId: string;
  readonly subgroupId: string;
  readonly eventType: WebhookEventType;
  readonly occurredAt: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly synthetic: boolean;
  readonly sourceEventId: string | null;
}

/** Records a delivery as pending; scheduling the same delivery id again changes nothing. */
export async function scheduleDelivery(deps: CommandDeps, delivery: DeliveryToSchedule): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    deliveryStream(delivery.deliveryId),
    webhookDeliveryDecider,
    { type: 'ScheduleDelivery', ...delivery, at: deps.clock.now().toISOString() },
    { commandId: `schedule-delivery:${delivery.deliveryId}`, ...(delivery.sourceEventId ? { causationId: delivery.sourceEventId } : {}) },
  );
  return outcome.position;
}

export type AttemptResult = 'skipped' | 'abandoned' | 'recorded';

/**
 * Makes attempt number `attempt` of a delivery, if it is the next one: signs the envelope with the
 * subscription's current secret(s), POSTs it through the transport and records the outcome (with the
 * time of the next attempt when it failed and attempts remain). A redelivered or overtaken request is
 * skipped; a delivery whose subscription was deleted is abandoned. A crash between the POST and the
 * record repeats the attempt with the same delivery id (at-least-once; receivers dedupe on it).
 */
export async function attemptDelivery(deps: WebhookDeps, deliveryId: string, attempt: number): Promise<AttemptResult> {
  const stream = deliveryStream(deliveryId);
  const { state } = await deps.executor.load(stream, webhookDeliveryDecider);
  if (!state.scheduled || isFinal(state.status) || attempt !== state.attempts + 1) return 'skipped';
  const { state: subscription } = await deps.executor.load(webhookStream(state.subscriptionId), webhookSubscriptionDecider);
  if (subscription.status !== 'active') {
    const reason = 'the subscription was deleted';
    await deps.executor.execute(
      stream,
      webhookDeliveryDecider,
      { type: 'AbandonDelivery', reason, at: deps.clock.now().toISOString() },
      { commandId: `abandon:${deliveryId}` },
    );
    return 'abandoned';
  }
  const now = deps.clock.now();
  const content = {
    deliveryId,
    eventType: present(state.eventType, 'a scheduled delivery has its event type'),
    occurredAt: state.occurredAt,
    payload: state.payload,
  };
  const request = signedRequest(content, attempt, signingSecrets(subscription, now.toISOString()), now);
  const { outcome, durationMs } = await deps.webhooks.transport.post({ url: subscription.url, ...request });
  await deps.executor.execute(
    stream,
    webhookDeliveryDecider,
    {
      type: 'RecordAttempt',
      attempt,
      outcome,
      payloadPreview: preview(request.body),
      durationMs,
      attemptedAt: now.toISOString(),
      retryDelayMs: attempt < MAX_ATTEMPTS ? retryDelayMs(attempt + 1, deliveryId, deps.webhooks.retryScale) : 0,
    },
    { commandId: `attempt:${deliveryId}:${attempt}` },
  );
  return 'recorded';
}
