import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { webhookAttemptsProjection, webhookDeliveriesProjection, webhookDeliveryRepository } from './webhook-deliveries.projection.js';

const scheduled = (deliveryId: string, at: string) =>
  event(`delivery-${deliveryId}`, 'WebhookDeliveryScheduled', {
    deliveryId,
    subscriptionId: 'w1',
    subgroupId: 's1',
    eventType: 'service.check.high_risk',
    occurredAt: at,
    payload: { check_id: 'c1' },
    synthetic: false,
    sourceEventId: 'e1',
    at,
  });
const attempted = (
  deliveryId: string,
  attempt: number,
  status: 'delivered' | 'failed' | 'gave_up',
  attemptedAt: string,
  next: string | null,
) =>
  event(`delivery-${deliveryId}`, 'WebhookDeliveryAttempted', {
    deliveryId,
    subscriptionId: 'w1',
    eventType: 'service.check.high_risk',
    attempt,
    status,
    httpStatus: status === 'delivered' ? 200 : 503,
    error: status === 'delivered' ? null : 'HTTP 503',
    payloadPreview: '{"check_id":"c1"}',
    durationMs: 12,
    attemptedAt,
    nextAttemptAt: next,
  });

describe('the webhook deliveries read model', () => {
  const deliveries = projectionSpec(webhookDeliveriesProjection, webhookDeliveryRepository);

  it('a scheduled delivery is pending, due now', async () => {
    await deliveries
      .given([])
      .when([scheduled('d1', '2026-03-01T09:00:00.000Z')])
      .thenDocument('d1', {
        delivery_id: 'd1',
        subscription_id: 'w1',
        subgroup_id: 's1',
        event_type: 'service.check.high_risk',
        status: 'pending',
        attempts: 0,
        synthetic: false,
        occurred_at: '2026-03-01T09:00:00.000Z',
        created_at: '2026-03-01T09:00:00.000Z',
        updated_at: '2026-03-01T09:00:00.000Z',
        next_attempt_at: '2026-03-01T09:00:00.000Z',
        last_http_status: null,
        last_error: null,
      });
  });

  it('each attempt moves its status, count and next attempt; an abandonment gives up', async () => {
    await deliveries
      .given([scheduled('d1', '2026-03-01T09:00:00.000Z')])
      .when([
        attempted('d1', 1, 'failed', '2026-03-01T09:00:01.000Z', '2026-03-01T09:00:31.000Z'),
        event('delivery-d1', 'WebhookDeliveryAbandoned', {
          deliveryId: 'd1',
          subscriptionId: 'w1',
          reason: 'subscription deleted',
          at: '2026-03-01T09:00:10.000Z',
        }),
      ])
      .then((_repository, documents) =>
        expect(documents.get('d1')).toMatchObject({
          status: 'gave_up',
          attempts: 1,
          last_http_status: 503,
          next_attempt_at: null,
          last_error: 'subscription deleted',
        }),
      );
  });

  it('an attempt of a delivery never scheduled creates nothing', async () => {
    await deliveries
      .given([])
      .when([attempted('d1', 1, 'delivered', '2026-03-01T09:00:01.000Z', null)])
      .thenDocument('d1', null);
  });

  it('lists a subscription’s deliveries newest first', async () => {
    await deliveries
      .given([scheduled('d1', '2026-03-01T09:00:00.000Z')])
      .when([scheduled('d2', '2026-03-02T09:00:00.000Z')])
      .then(async (repository) => {
        expect((await repository.recentDeliveries('w1')).map((d) => d.delivery_id)).toEqual(['d2', 'd1']);
        expect((await repository.recentDeliveries('w1', 1)).map((d) => d.delivery_id)).toEqual(['d2']);
        expect(await repository.get('d1')).toMatchObject({ status: 'pending' });
      });
  });
});

describe('the webhook attempts read model', () => {
  const attempts = projectionSpec(webhookAttemptsProjection, webhookDeliveryRepository);

  it('one row per attempt, in order for the delivery and newest first for the subscription', async () => {
    await attempts
      .given([
        scheduled('d1', '2026-03-01T09:00:00.000Z'),
        attempted('d1', 1, 'failed', '2026-03-01T09:00:01.000Z', '2026-03-01T09:00:31.000Z'),
      ])
      .when([attempted('d1', 2, 'delivered', '2026-03-01T09:00:31.000Z', null)])
      .then(async (repository, documents) => {
        expect(documents.get('d1:2')).toMatchObject({ attempt: 2, status: 'delivered', http_status: 200, error: null, duration_ms: 12 });
        expect((await repository.attemptsOf('d1')).map((a) => a.attempt)).toEqual([1, 2]);
        expect((await repository.recentAttempts('w1')).map((a) => a.attempt)).toEqual([2, 1]);
      });
  });

  it('a scheduled delivery has no attempt row', async () => {
    await attempts
      .given([])
      .when([scheduled('d1', '2026-03-01T09:00:00.000Z')])
      .thenUnchanged();
  });
});
