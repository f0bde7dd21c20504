import { fail } from '../../domain/shared/errors.js';
import { mayManage, type WebhookActor } from '../../domain/webhooks/webhook-access.js';
import type { WebhookSubscriptionDoc, WebhookSubscriptionRepository } from '../../projections/webhook-subscriptions.projection.js';

/**
 * Reads of webhook subscriptions with the actor's visibility, shared by the API-key routes and the
 * dashboard. The read model holds no secret, so nothing here can return one.
 */
export async function visibleSubscriptions(
  repository: WebhookSubscriptionRepository,
  actor: WebhookActor,
): Promise<readonly WebhookSubscriptionDoc[]> {
  if (actor.superAdmin) return repository.listAll();
  return repository.list({ subgroupIds: actor.memberships.map((m) => m.subgroupId), organizationIds: actor.adminOf });
}

/** The subscription if the actor manages it; otherwise 404, exactly as for an id that does not exist. */
export async function managedSubscription(
  repository: WebhookSubscriptionRepository,
  actor: WebhookActor,
  id: string,
): Promise<WebhookSubscriptionDoc> {
  const doc = await repository.get(id);
  if (!doc || !mayManage(actor, { subgroupId: doc.subgroup_id, organizationId: doc.organization_id })) {
    throw fail('not_found', 'no such webhook subscription');
  }
  return doc;
}
