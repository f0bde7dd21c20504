import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { webhookSubscriptionRepository, webhookSubscriptionsProjection } from './webhook-subscriptions.projection.js';

const created = (id: string, subgroupId: string, organizationId: string, at: string) =>
  event(`webhook-${id}`, 'WebhookSubscriptionCreated', {
    subscriptionId: id,
    subgroupId,
    organizationId,
    createdBy: 'u1',
    url: `https://hooks.example.com/${id}`,
    eventTypes: ['service.check.high_risk'],
    alertMinLevel: 'Medium',
    description: null,
    secret: 'whsec_never_copied',
    at,
  });

const spec = projectionSpec(webhookSubscriptionsProjection, webhookSubscriptionRepository);

describe('the webhook subscriptions read model', () => {
  it('a created subscription is readable without its secret', async () => {
    await spec
      .given([])
      .when([created('w1', 's1', 'o1', '2026-03-01T09:00:00.000Z')])
      .thenDocument('w1', {
        id: 'w1',
        subgroup_id: 's1',
        organization_id: 'o1',
        url: 'https://hooks.example.com/w1',
        event_types: ['service.check.high_risk'],
        alert_min_level: 'Medium',
        description: null,
        created_by: 'u1',
        created_at: '2026-03-01T09:00:00.000Z',
        updated_at: '2026-03-01T09:00:00.000Z',
        secret_rotated_at: null,
      });
  });

  it('an update changes only the fields it names; a rotation dates the secret, never copies it', async () => {
    await spec
      .given([created('w1', 's1', 'o1', '2026-03-01T09:00:00.000Z')])
      .when([
        event('webhook-w1', 'WebhookSubscriptionUpdated', {
          subscriptionId: 'w1',
          alertMinLevel: 'High',
          description: 'to the SIEM',
          updatedBy: 'u2',
          at: '2026-03-02T09:00:00.000Z',
        }),
        event('webhook-w1', 'WebhookSecretRotated', {
          subscriptionId: 'w1',
          secret: 'whsec_new',
          previousValidUntil: null,
          rotatedBy: 'u2',
          at: '2026-03-03T09:00:00.000Z',
        }),
      ])
      .then((_subscriptions, documents) => {
        const doc = documents.get('w1');
        expect(doc).toMatchObject({
          url: 'https://hooks.example.com/w1',
          alert_min_level: 'High',
          description: 'to the SIEM',
          secret_rotated_at: '2026-03-03T09:00:00.000Z',
          updated_at: '2026-03-03T09:00:00.000Z',
        });
        expect(JSON.stringify(doc)).not.toContain('whsec');
      });
  });

  it('a deleted subscription is gone', async () => {
    await spec
      .given([created('w1', 's1', 'o1', '2026-03-01T09:00:00.000Z')])
      .when([event('webhook-w1', 'WebhookSubscriptionDeleted', { subscriptionId: 'w1', deletedBy: 'u1', at: '2026-03-02T09:00:00.000Z' })])
      .thenDocument('w1', null);
  });

  it('lists by subgroup and organization once each, oldest first, and finds the subscribers of an event type', async () => {
    await spec
      .given([created('w2', 's1', 'o1', '2026-03-02T09:00:00.000Z'), created('w3', 's2', 'o1', '2026-03-03T09:00:00.000Z')])
      .when([created('w1', 's9', 'o9', '2026-03-01T09:00:00.000Z')])
      .then(async (subscriptions) => {
        const scoped = await subscriptions.list({ subgroupIds: ['s1', 's9'], organizationIds: ['o1'] });
        expect(scoped.map((s) => s.id)).toEqual(['w1', 'w2', 'w3']);
        expect((await subscriptions.listAll()).map((s) => s.id)).toEqual(['w1', 'w2', 'w3']);
        expect(await subscriptions.subscribedTo(['s1'], 'service.check.high_risk')).toEqual([
          { subscriptionId: 'w2', subgroupId: 's1', eventTypes: ['service.check.high_risk'], alertMinLevel: 'Medium' },
        ]);
        expect(await subscriptions.subscribedTo(['s1'], 'service.bfs.completed')).toEqual([]);
      });
  });
});
