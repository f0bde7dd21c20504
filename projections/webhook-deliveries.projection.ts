import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { DeliveryStatus } from '../domain/webhooks/webhook-delivery.events.js';

/** One row per delivery with its current status, and one row per attempt: the delivery history. */
export interface WebhookDeliveryDoc extends Record<string, unknown> {
  delivery_id: string;
  subscription_id: string;
  subgroup_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  synthetic: boolean;
  occurred_at: string;
  created_at: string;
  updated_at: string;
  next_attempt_at: string | null;
  last_http_status: number | null;
  last_error: string | null;
}

export interface WebhookAttemptDoc extends Record<string, unknown> {
  delivery_id: string;
  subscription_id: string;
  event_type: string;
  attempt: number;
  status: 'delivered' | 'failed' | 'gave_up';
  http_status: number | null;
  error: string | null;
  payload_preview: string;
  duration_ms: number;
  attempted_at: string;
  next_attempt_at: string | null;
}

export const webhookDeliveriesProjection = defineProjection({
  name: 'webhook-deliveries',
  collection: 'webhook_deliveries',
  indexes: [['subscription_id', 'created_at']],
  handles: ['WebhookDeliveryScheduled', 'WebhookDeliveryAttempted', 'WebhookDeliveryAbandoned'],
  idOf: (event) => event.data.deliveryId,
  evolve: (doc: WebhookDeliveryDoc | null, event): WebhookDeliveryDoc | null => {
    switch (event.type) {
      case 'WebhookDeliveryScheduled': {
        const d = event.data;
        return {
          delivery_id: d.deliveryId,
          subscription_id: d.subscriptionId,
          subgroup_id: d.subgroupId,
          event_type: d.eventType,
          status: 'pending',
          attempts: 0,
          synthetic: d.synthetic,
          occurred_at: d.occurredAt,
          created_at: d.at,
          updated_at: d.at,
          next_attempt_at: d.at,
          last_http_status: null,
          last_error: null,
        };
      }
      case 'WebhookDeliveryAttempted': {
        const d = event.data;
        return (
          doc && {
            ...doc,
            status: d.status,
            attempts: d.attempt,
            updated_at: d.attemptedAt,
            next_attempt_at: d.nextAttemptAt,
            last_http_status: d.httpStatus,
            last_error: d.error,
          }
        );
      }
      case 'WebhookDeliveryAbandoned':
        return doc && { ...doc, status: 'gave_up', updated_at: event.data.at, next_attempt_at: null, last_error: event.data.reason };
    }
  },
});

export const webhookAttemptsProjection = defineProjection({
  name: 'webhook-attempts',
  collection: 'webhook_attempts',
  indexes: [
    ['subscription_id', 'attempted_at'],
    ['delivery_id', 'attempted_at'],
  ],
  handles: ['WebhookDeliveryAttempted'],
  idOf: (event) => `${event.data.deliveryId}:${event.data.attempt}`,
  evolve: (_doc: WebhookAttemptDoc | null, event) => {
    const d = event.data;
    return {
      delivery_id: d.deliveryId,
      subscription_id: d.subscriptionId,
      event_type: d.eventType,
      attempt: d.attempt,
      status: d.status,
      http_status: d.httpStatus,
      error: d.error,
      payload_preview: d.payloadPreview,
      duration_ms: d.durationMs,
      attempted_at: d.attemptedAt,
      next_attempt_at: d.nextAttemptAt,
    };
  },
});

/** The spec's delivery history: the last 100 attempts. */
export const HISTORY_LIMIT = 100;

export interface WebhookDeliveryRepository {
  get(deliveryId: string): Promise<WebhookDeliveryDoc | null>;
  /** The subscription's latest deliveries, newest first. */
  recentDeliveries(subscriptionId: string, limit?: number): Promise<readonly WebhookDeliveryDoc[]>;
  /** The subscription's latest attempts, newest first. */
  recentAttempts(subscriptionId: string, limit?: number): Promise<readonly WebhookAttemptDoc[]>;
  attemptsOf(deliveryId: string): Promise<readonly WebhookAttemptDoc[]>;
}

export function webhookDeliveryRepository(store: ReadStore): WebhookDeliveryRepository {
  const deliveries = store.collection<WebhookDeliveryDoc>(webhookDeliveriesProjection.collection, webhookDeliveriesProjection.indexes);
  const attempts = store.collection<WebhookAttemptDoc>(webhookAttemptsProjection.collection, webhookAttemptsProjection.indexes);
  return {
    get: async (deliveryId) => (await deliveries.get(deliveryId))?.doc ?? null,
    recentDeliveries: (subscriptionId, limit = HISTORY_LIMIT) =>
      deliveries.find({ where: { subscription_id: subscriptionId }, orderBy: { field: 'created_at', direction: 'desc' }, limit }),
    recentAttempts: (subscriptionId, limit = HISTORY_LIMIT) =>
      attempts.find({ where: { subscription_id: subscriptionId }, orderBy: { field: 'attempted_at', direction: 'desc' }, limit }),
    attemptsOf: (deliveryId) => attempts.find({ where: { delivery_id: deliveryId }, orderBy: { field: 'attempted_at', direction: 'asc' } }),
  };
}
