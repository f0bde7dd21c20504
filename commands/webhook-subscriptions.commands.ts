import type { Position } from '../domain/ports/event-store.port.js';
import { fail } from '../domain/shared/errors.js';
import { mayManage, type WebhookActor } from '../domain/webhooks/webhook-access.js';
import { TRANSFER_ALERT_EVENT, type AlertLevel, type WebhookEventType } from '../domain/webhooks/webhook-event-types.js';
import { SECRET_BYTES, secretFromBytes } from '../domain/webhooks/webhook-signature.js';
import { webhookSubscriptionDecider, type SubscriptionChanges } from '../domain/webhooks/webhook-subscription.decider.js';
import { webhookStream } from '../domain/webhooks/webhook-subscription.events.js';
import { syntheticPayload } from '../domain/webhooks/synthetic-event.js';
import { alertMinLevelOf } from './kyt/kyt-settings.commands.js';
import { scheduleDelivery } from './webhook-delivery.commands.js';
import type { WebhookDeps } from './webhook-deps.js';

/**
 * The webhook subscription use cases, shared by the API-key routes (/v1/webhooks) and the dashboard
 * (/api/webhooks): each surface resolves its caller to a WebhookActor and calls these. Every write
 * resolves with the position its read models must reach before a read shows it.
 */
export interface Written {
  readonly subscriptionId: string;
  readonly position: Position | null;
}

export interface CreateSubscriptionInput {
  readonly url: string;
  readonly eventTypes: readonly WebhookEventType[];
  /** Required when the actor belongs to several subgroups. */
  readonly subgroupId?: string;
  readonly alertMinLevel?: AlertLevel;
  readonly description?: string | null;
}

/** How long a replaced secret keeps signing by default, so receivers can switch without losing deliveries. */
export const DEFAULT_PREVIOUS_SECRET_HOURS = 24;

async function vetUrl(deps: WebhookDeps, url: string): Promise<void> {
  const reason = await deps.webhooks.transport.vet(url);
  if (reason !== null) throw fail('webhook_target_refused', reason);
}

function owningMembership(actor: WebhookActor, subgroupId: string | undefined) {
  if (subgroupId !== undefined) {
    const membership = actor.memberships.find((m) => m.subgroupId === subgroupId);
    if (!membership) throw fail('not_found', 'no such subgroup among yours');
    return membership;
  }
  const [only, ...others] = actor.memberships;
  if (!only) throw fail('webhook_requires_subgroup', 'a webhook belongs to a subgroup, and this account has none');
  if (others.length > 0) throw fail('bad_request', 'subgroup_id is required: this account belongs to several subgroups');
  return only;
}

/** Creates a subscription; the secret is returned here and on rotation only. */
export async function createSubscription(
  deps: WebhookDeps,
  actor: WebhookActor,
  input: CreateSubscriptionInput,
): Promise<Written & { secret: string }> {
  const membership = owningMembership(actor, input.subgroupId);
  await vetUrl(deps, input.url);
  const subscriptionId = deps.ids.newId();
  const secret = secretFromBytes(deps.random.bytes(SECRET_BYTES));
  const outcome = await deps.executor.execute(
    webhookStream(subscriptionId),
    webhookSubscriptionDecider,
    {
      type: 'CreateSubscription',
      actor,
      subscriptionId,
      subgroupId: membership.subgroupId,
      organizationId: membership.organizationId,
      url: input.url,
      eventTypes: input.eventTypes,
      // The subscription's own level; unnamed, its subgroup's default (Medium unless an operator chose another).
      alertMinLevel: input.alertMinLevel ?? (await alertMinLevelOf(deps, membership.subgroupId)),
      description: input.description ?? null,
      secret,
      at: deps.clock.now().toISOString(),
    },
    { commandId: `create-webhook:${subscriptionId}` },
  );
  return { subscriptionId, secret, position: outcome.position };
}

export async function updateSubscription(
  deps: WebhookDeps,
  actor: WebhookActor,
  subscriptionId: string,
  changes: SubscriptionChanges,
): Promise<Written> {
  // Existence and ownership first: a stranger learns nothing about someone else's URL rules.
  await requireManaged(deps, actor, subscriptionId);
  if (changes.url !== undefined) await vetUrl(deps, changes.url);
  const outcome = await deps.executor.execute(
    webhookStream(subscriptionId),
    webhookSubscriptionDecider,
    { type: 'UpdateSubscription', actor, changes, at: deps.clock.now().toISOString() },
    { commandId: deps.ids.newId() },
  );
  return { subscriptionId, position: outcome.position };
}

export async function rotateSecret(
  deps: WebhookDeps,
  actor: WebhookActor,
  subscriptionId: string,
  options: { previousSecretValidHours?: number } = {},
): Promise<Written & { secret: string; previousValidUntil: string | null }> {
  const now = deps.clock.now();
  const hours = options.previousSecretValidHours ?? DEFAULT_PREVIOUS_SECRET_HOURS;
  const previousValidUntil = hours > 0 ? new Date(now.getTime() + hours * 3_600_000).toISOString() : null;
  const secret = secretFromBytes(deps.random.bytes(SECRET_BYTES));
  const outcome = await deps.executor.execute(
    webhookStream(subscriptionId),
    webhookSubscriptionDecider,
    { type: 'RotateSecret', actor, secret, previousValidUntil, at: now.toISOString() },
    { commandId: deps.ids.newId() },
  );
  return { subscriptionId, secret, previousValidUntil, position: outcome.position };
}

export async function deleteSubscription(deps: WebhookDeps, actor: WebhookActor, subscriptionId: string): Promise<Written> {
  const outcome = await deps.executor.execute(
    webhookStream(subscriptionId),
    webhookSubscriptionDecider,
    { type: 'DeleteSubscription', actor, at: deps.clock.now().toISOString() },
    { commandId: deps.ids.newId() },
  );
  return { subscriptionId, position: outcome.position };
}

async function requireManaged(deps: WebhookDeps, actor: WebhookActor, subscriptionId: string) {
  const { state } = await deps.executor.load(webhookStream(subscriptionId), webhookSubscriptionDecider);
  if (state.status !== 'active' || !mayManage(actor, state)) throw fail('not_found', 'no such webhook subscription');
  return state;
}

/**
 * Sends a synthetic event to one subscription (POST /v1/webhooks/{id}/test, the dashboard's
 * POST /api/webhooks/test): the shape of a real event, `synthetic: true`, all-zero ids. It is delivered,
 * retried and recorded like any other delivery.
 */
export async function sendTestEvent(
  deps: WebhookDeps,
  actor: WebhookActor,
  subscriptionId: string,
  eventType: WebhookEventType = TRANSFER_ALERT_EVENT,
): Promise<{ deliveryId: string; eventType: WebhookEventType; position: Position | null }> {
  const subscription = await requireManaged(deps, actor, subscriptionId);
  const deliveryId = deps.ids.newId();
  const at = deps.clock.now().toISOString();
  const position = await scheduleDelivery(deps, {
    deliveryId,
    subscriptionId,
    subgroupId: subscription.subgroupId,
    eventType,
    occurredAt: at,
    payload: syntheticPayload(eventType, subscription.alertMinLevel),
    synthetic: true,
    sourceEventId: null,
  });
  return { deliveryId, eventType, position };
}
