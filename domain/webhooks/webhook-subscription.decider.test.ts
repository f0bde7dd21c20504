import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { webhookActor } from './webhook-access.js';
import { signingSecrets, webhookSubscriptionDecider, type WebhookSubscriptionCommand } from './webhook-subscription.decider.js';
import type { WebhookSubscriptionEvent } from './webhook-subscription.events.js';

const spec = deciderSpec(webhookSubscriptionDecider);
const T0 = '2026-11-22T10:00:00.000Z';
const membership = (subgroupId: string, organizationId: string, role: 'member' | 'group_admin' = 'member') => ({
  subgroupId,
  organizationId,
  organizationName: 'Org',
  subgroupName: 'Team',
  role,
});
const alice = webhookActor({ userId: 'alice', memberships: [membership('g-1', 'o-1')], superAdmin: false }, 'api_key');
const mallory = webhookActor({ userId: 'mallory', memberships: [membership('g-9', 'o-9')], superAdmin: false }, 'api_key');
const orgAdmin = (surface: 'api_key' | 'dashboard') =>
  webhookActor({ userId: 'ada', memberships: [membership('g-2', 'o-1', 'group_admin')], superAdmin: false }, surface);
const superAdmin = (surface: 'api_key' | 'dashboard') => webhookActor({ userId: 'root', memberships: [], superAdmin: true }, surface);

const create: WebhookSubscriptionCommand = {
  type: 'CreateSubscription',
  actor: alice,
  subscriptionId: 's-1',
  subgroupId: 'g-1',
  organizationId: 'o-1',
  url: 'https://hooks.example.com/a',
  eventTypes: ['service.check.high_risk', 'tx.policy.alert.triggered', 'service.check.high_risk'],
  alertMinLevel: 'Medium',
  description: null,
  secret: 'whsec_one',
  at: T0,
};
const created: WebhookSubscriptionEvent = {
  type: 'WebhookSubscriptionCreated',
  data: {
    subscriptionId: 's-1',
    subgroupId: 'g-1',
    organizationId: 'o-1',
    createdBy: 'alice',
    url: 'https://hooks.example.com/a',
    eventTypes: ['tx.policy.alert.triggered', 'service.check.high_risk'],
    alertMinLevel: 'Medium',
    description: null,
    secret: 'whsec_one',
    at: T0,
  },
};
const deleted: WebhookSubscriptionEvent = {
  type: 'WebhookSubscriptionDeleted',
  data: { subscriptionId: 's-1', deletedBy: 'alice', at: T0 },
};

describe('webhook subscription decider', () => {
  it('creates in a subgroup of the actor, with a normalized set of event types', () => {
    const state = spec.given([]).when(create).then([created]);
    expect(state.status).toBe('active');
  });

  it('refuses a subgroup the actor is not a member of, an empty set, and a taken id', () => {
    spec
      .given([])
      .when({ ...create, actor: mallory })
      .thenThrows('not_found');
    spec
      .given([])
      .when({ ...create, eventTypes: [] })
      .thenThrows('validation_error');
    spec.given([created]).when(create).thenThrows('invalid_state');
  });

  it('updates only what changed', () => {
    spec
      .given([created])
      .when({ type: 'UpdateSubscription', actor: alice, changes: { url: 'https://hooks.example.com/b', alertMinLevel: 'Medium' }, at: T0 })
      .then([
        {
          type: 'WebhookSubscriptionUpdated',
          data: { subscriptionId: 's-1', url: 'https://hooks.example.com/b', updatedBy: 'alice', at: T0 },
        },
      ]);
    spec
      .given([created])
      .when({
        type: 'UpdateSubscription',
        actor: alice,
        changes: { eventTypes: ['service.check.high_risk', 'tx.policy.alert.triggered'] },
        at: T0,
      })
      .thenNothingHappened();
  });

  it('someone else, or a deleted subscription: not found', () => {
    spec.given([created]).when({ type: 'DeleteSubscription', actor: mallory, at: T0 }).thenThrows('not_found');
    spec
      .given([created])
      .when({ type: 'RotateSecret', actor: mallory, secret: 'whsec_x', previousValidUntil: null, at: T0 })
      .thenThrows('not_found');
    spec.given([created, deleted]).when({ type: 'DeleteSubscription', actor: alice, at: T0 }).thenThrows('not_found');
    spec
      .given([created, deleted])
      .when({ type: 'UpdateSubscription', actor: alice, changes: { url: 'https://x.example' }, at: T0 })
      .thenThrows('not_found');
  });

  it('group admins and super-admins act on the dashboard only', () => {
    spec
      .given([created])
      .when({ type: 'DeleteSubscription', actor: orgAdmin('api_key'), at: T0 })
      .thenThrows('not_found');
    spec
      .given([created])
      .when({ type: 'DeleteSubscription', actor: orgAdmin('dashboard'), at: T0 })
      .thenMatches((events) => expect(events).toHaveLength(1));
    spec
      .given([created])
      .when({ type: 'DeleteSubscription', actor: superAdmin('api_key'), at: T0 })
      .thenThrows('not_found');
    spec
      .given([created])
      .when({ type: 'DeleteSubscription', actor: superAdmin('dashboard'), at: T0 })
      .thenMatches((events) => expect(events).toHaveLength(1));
  });

  it('a rotated secret signs alone, or beside the previous one until it expires', () => {
    const until = '2026-11-23T10:00:00.000Z';
    const state = spec
      .given([created])
      .when({ type: 'RotateSecret', actor: alice, secret: 'whsec_two', previousValidUntil: until, at: T0 })
      .then([
        {
          type: 'WebhookSecretRotated',
          data: { subscriptionId: 's-1', secret: 'whsec_two', previousValidUntil: until, rotatedBy: 'alice', at: T0 },
        },
      ]);
    expect(signingSecrets(state, T0)).toEqual(['whsec_two', 'whsec_one']);
    expect(signingSecrets(state, until)).toEqual(['whsec_two']);
    const immediate = spec
      .given([created])
      .when({ type: 'RotateSecret', actor: alice, secret: 'whsec_two', previousValidUntil: null, at: T0 })
      .thenMatches(() => undefined);
    expect(signingSecrets(immediate, T0)).toEqual(['whsec_two']);
  });
});
