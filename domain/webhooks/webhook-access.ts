import type { Membership } from '../accounts/account.decider.js';

/**
 * Who may manage a subscription. A subscription belongs to a subgroup (and that subgroup's
 * organization). Through an API key the key's user manages the subscriptions of the subgroups they are a
 * member of; through the dashboard, group admins also manage every subgroup of their organization and
 * platform super-admins every subscription (the spec's dashboard rule). Anyone else is told the
 * subscription does not exist (404), so ids of other customers' subscriptions reveal nothing.
 */
export type WebhookSurface = 'api_key' | 'dashboard';

export interface WebhookActor {
  readonly userId: string;
  readonly memberships: readonly Pick<Membership, 'subgroupId' | 'organizationId'>[];
  /** Organizations whose every subgroup this actor manages. */
  readonly adminOf: readonly string[];
  readonly superAdmin: boolean;
}

export interface WebhookOwner {
  readonly subgroupId: string;
  readonly organizationId: string;
}

export function webhookActor(
  account: { userId: string; memberships: readonly Membership[]; superAdmin: boolean },
  surface: WebhookSurface,
): WebhookActor {
  const dashboard = surface === 'dashboard';
  return {
    userId: account.userId,
    memberships: account.memberships.map((m) => ({ subgroupId: m.subgroupId, organizationId: m.organizationId })),
    adminOf: dashboard ? account.memberships.filter((m) => m.role === 'group_admin').map((m) => m.organizationId) : [],
    superAdmin: dashboard && account.superAdmin,
  };
}

export function mayManage(actor: WebhookActor, owner: WebhookOwner): boolean {
  return (
    actor.superAdmin || actor.adminOf.includes(owner.organizationId) || actor.memberships.some((m) => m.subgroupId === owner.subgroupId)
  );
}
