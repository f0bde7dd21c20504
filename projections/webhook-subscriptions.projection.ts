import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { WebhookSubscriptionTarget } from '../domain/ports/webhook-subscriptions.port.js';
import type { AlertLevel, WebhookEventType } from '../domain/webhooks/webhook-event-types.js';

/**
 * Live webhook subscriptions, for the REST and dashboard reads and for the fan-out. The signing secret
 * is deliberately not copied here: no read can return it.
 */
export interface WebhookSubscriptionDoc extends Record<string, unknown> {
  id: string;
  subgroup_id: string;
  organization_id: string;
  url: string;
  event_types: WebhookEventType[];
  alert_min_level: AlertLevel;
  description: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  secret_rotated_at: string | null;
}

export const webhookSubscriptionsProjection = defineProjection({
  name: 'webhook-subscriptions',
  collection: 'webhook_subscriptions',
  indexes: ['subgroup_id', 'organization_id'],
  handles: ['WebhookSubscriptionCreated', 'WebhookSubscriptionUpdated', 'WebhookSecretRotated', 'WebhookSubscriptionDeleted'],
  idOf: (event) => event.data.subscriptionId,
  evolve: (doc: WebhookSubscriptionDoc | null, event): WebhookSubscriptionDoc | null => {
    switch (event.type) {
      case 'WebhookSubscriptionCreated': {
        const d = event.data;
        return {
          id: d.subscriptionId,
          subgroup_id: d.subgroupId,
          organization_id: d.organizationId,
          url: d.url,
          event_types: d.eventTypes,
          alert_min_level: d.alertMinLevel,
          description: d.description,
          created_by: d.createdBy,
          created_at: d.at,
          updated_at: d.at,
          secret_rotated_at: null,
        };
      }
      case 'WebhookSubscriptionUpdated': {
        const d = event.data;
        return (
          doc && {
            ...doc,
            ...(d.url !== undefined ? { url: d.url } : {}),
            ...(d.eventTypes !== undefined ? { event_types: d.eventTypes } : {}),
            ...(d.alertMinLevel !== undefined ? { alert_min_level: d.alertMinLevel } : {}),
            ...(d.description !== undefined ? { description: d.description } : {}),
            updated_at: d.at,
          }
        );
      }
      case 'WebhookSecretRotated':
        return doc && { ...doc, secret_rotated_at: event.data.at, updated_at: event.data.at };
      case 'WebhookSubscriptionDeleted':
        return null;
    }
  },
});

export interface WebhookSubscriptionRepository {
  get(id: string): Promise<WebhookSubscriptionDoc | null>;
  /** Subscriptions of these subgroups and of every subgroup of these organizations, oldest first. */
  list(scope: { subgroupIds: readonly string[]; organizationIds?: readonly string[] }): Promise<WebhookSubscriptionDoc[]>;
  /** Every subscription (platform super-admins on the dashboard). */
  listAll(): Promise<readonly WebhookSubscriptionDoc[]>;
  subscribedTo(subgroupIds: readonly string[], eventType: WebhookEventType): Promise<WebhookSubscriptionTarget[]>;
}

export function webhookSubscriptionRepository(store: ReadStore): WebhookSubscriptionRepository {
  const docs = store.collection<WebhookSubscriptionDoc>(webhookSubscriptionsProjection.collection, webhookSubscriptionsProjection.indexes);
  const where = (field: string, values: readonly string[]) =>
    Promise.all([...new Set(values)].map((value) => docs.find({ where: { [field]: value } })));
  const list: WebhookSubscriptionRepository['list'] = async ({ subgroupIds, organizationIds = [] }) => {
    const found = [...(await where('subgroup_id', subgroupIds)), ...(await where('organization_id', organizationIds))].flat();
    const unique = new Map(found.map((doc) => [doc.id, doc]));
    return [...unique.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  };
  return {
    get: async (id) => (await docs.get(id))?.doc ?? null,
    list,
    listAll: () => docs.find({ orderBy: { field: 'created_at', direction: 'asc' } }),
    async subscribedTo(subgroupIds, eventType) {
      return (await list({ subgroupIds }))
        .filter((doc) => doc.event_types.includes(eventType))
        .map((doc) => ({
          subscriptionId: doc.id,
          subgroupId: doc.subgroup_id,
          eventTypes: doc.event_types,
          alertMinLevel: doc.alert_min_level,
        }));
    },
  };
}
