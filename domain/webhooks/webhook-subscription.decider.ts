import { present } from '../shared/present.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { mayManage, type WebhookActor } from './webhook-access.js';
import { WEBHOOK_EVENT_TYPES, type AlertLevel, type WebhookEventType } from './webhook-event-types.js';
import { webhookSubscriptionEventSchemas, type WebhookSubscriptionEvent } from './webhook-subscription.events.js';

export interface SubscriptionChanges {
  readonly url?: string;
  readonly eventTypes?: readonly WebhookEventType[];
  readonly alertMinLevel?: AlertLevel;
  readonly description?: string | null;
}

/** URLs arrive already vetted (commands/webhook-subscriptions.commands.ts): the decider keeps the invariants. */
export type WebhookSubscriptionCommand =
  | {
      type: 'CreateSubscription';
      actor: WebhookActor;
      subscriptionId: string;
      subgroupId: string;
      organizationId: string;
      url: string;
      eventTypes: readonly WebhookEventType[];
      alertMinLevel: AlertLevel;
      description: string | null;
      secret: string;
      at: string;
    }
  | { type: 'UpdateSubscription'; actor: WebhookActor; changes: SubscriptionChanges; at: string }
  | { type: 'RotateSecret'; actor: WebhookActor; secret: string; previousValidUntil: string | null; at: string }
  | { type: 'DeleteSubscription'; actor: WebhookActor; at: string };

export interface WebhookSubscriptionState {
  status: 'none' | 'active' | 'deleted';
  subscriptionId: string | null;
  subgroupId: string;
  organizationId: string;
  url: string;
  eventTypes: WebhookEventType[];
  alertMinLevel: AlertLevel;
  description: string | null;
  secret: string;
  previousSecret: { secret: string; validUntil: string } | null;
}

export const initialWebhookSubscriptionState = (): WebhookSubscriptionState => ({
  status: 'none',
  subscriptionId: null,
  subgroupId: '',
  organizationId: '',
  url: '',
  eventTypes: [],
  alertMinLevel: 'Medium',
  description: null,
  secret: '',
  previousSecret: null,
});

/** A set of event types in the spec's order, without repeats; refused when empty. */
export function normalizeEventTypes(types: readonly WebhookEventType[]): WebhookEventType[] {
  const set = WEBHOOK_EVENT_TYPES.filter((t) => types.includes(t));
  if (set.length === 0) throw fail('validation_error', 'subscribe to at least one event type');
  return set;
}

function requireManaged(state: WebhookSubscriptionState, actor: WebhookActor): void {
  if (state.status !== 'active' || !mayManage(actor, state)) throw fail('not_found', 'no such webhook subscription');
}

export function decideWebhookSubscription(
  command: WebhookSubscriptionCommand,
  state: WebhookSubscriptionState,
): WebhookSubscriptionEvent[] {
  switch (command.type) {
    case 'CreateSubscription': {
      if (state.status !== 'none') throw fail('invalid_state', 'this subscription id is taken');
      if (!command.actor.memberships.some((m) => m.subgroupId === command.subgroupId))
        throw fail('not_found', 'no such subgroup among yours');
      const { type: _t, actor, ...data } = command;
      return [
        {
          type: 'WebhookSubscriptionCreated',
          data: { ...data, eventTypes: normalizeEventTypes(command.eventTypes), createdBy: actor.userId },
        },
      ];
    }
    case 'UpdateSubscription': {
      requireManaged(state, command.actor);
      const { url, eventTypes, alertMinLevel, description } = command.changes;
      const normalized = eventTypes === undefined ? undefined : normalizeEventTypes(eventTypes);
      const changed = {
        ...(url !== undefined && url !== state.url ? { url } : {}),
        ...(normalized !== undefined && normalized.join() !== state.eventTypes.join() ? { eventTypes: normalized } : {}),
        ...(alertMinLevel !== undefined && alertMinLevel !== state.alertMinLevel ? { alertMinLevel } : {}),
        ...(description !== undefined && description !== state.description ? { description } : {}),
      };
      if (Object.keys(changed).length === 0) return [];
      return [
        {
          type: 'WebhookSubscriptionUpdated',
          data: {
            subscriptionId: present(state.subscriptionId, 'a created subscription has its id'),
            ...changed,
            updatedBy: command.actor.userId,
            at: command.at,
          },
        },
      ];
    }
    case 'RotateSecret':
      requireManaged(state, command.actor);
      return [
        {
          type: 'WebhookSecretRotated',
          data: {
            subscriptionId: present(state.subscriptionId, 'a created subscription has its id'),
            secret: command.secret,
            previousValidUntil: command.previousValidUntil,
            rotatedBy: command.actor.userId,
            at: command.at,
          },
        },
      ];
    case 'DeleteSubscription':
      requireManaged(state, command.actor);
      return [
        {
          type: 'WebhookSubscriptionDeleted',
          data: {
            subscriptionId: present(state.subscriptionId, 'a created subscription has its id'),
            deletedBy: command.actor.userId,
            at: command.at,
          },
        },
      ];
  }
}

export function evolveWebhookSubscription(state: WebhookSubscriptionState, event: WebhookSubscriptionEvent): WebhookSubscriptionState {
  switch (event.type) {
    case 'WebhookSubscriptionCreated': {
      const d = event.data;
      return {
        ...state,
        status: 'active',
        subscriptionId: d.subscriptionId,
        subgroupId: d.subgroupId,
        organizationId: d.organizationId,
        url: d.url,
        eventTypes: d.eventTypes,
        alertMinLevel: d.alertMinLevel,
        description: d.description,
        secret: d.secret,
      };
    }
    case 'WebhookSubscriptionUpdated': {
      const { subscriptionId: _s, updatedBy: _u, at: _a, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'WebhookSecretRotated': {
      const { previousValidUntil } = event.data;
      return {
        ...state,
        secret: event.data.secret,
        previousSecret: previousValidUntil === null ? null : { secret: state.secret, validUntil: previousValidUntil },
      };
    }
    case 'WebhookSubscriptionDeleted':
      return { ...state, status: 'deleted' };
  }
}

/** The secrets that sign a delivery made at `now`: the current one, and the replaced one while it lasts. */
export function signingSecrets(state: WebhookSubscriptionState, now: string): string[] {
  return state.previousSecret && state.previousSecret.validUntil > now ? [state.secret, state.previousSecret.secret] : [state.secret];
}

export const webhookSubscriptionDecider: Decider<WebhookSubscriptionCommand, WebhookSubscriptionEvent, WebhookSubscriptionState> = {
  decide: decideWebhookSubscription,
  evolve: evolveWebhookSubscription,
  initialState: initialWebhookSubscriptionState,
  parse: parserFor<WebhookSubscriptionEvent>(webhookSubscriptionEventSchemas),
};
