import { present } from '../shared/present.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { WebhookEventType } from './webhook-event-types.js';
import { webhookDeliveryEventSchemas, type DeliveryStatus, type WebhookDeliveryEvent } from './webhook-delivery.events.js';
import { MAX_ATTEMPTS } from './retry-schedule.js';

/** What one attempt to POST came to (the WebhookTransport port's answer). */
export type AttemptOutcome =
  | { readonly kind: 'response'; readonly responseCode: number; readonly bodyPreview: string }
  | { readonly kind: 'timeout'; readonly afterMs: number }
  | { readonly kind: 'connection_error'; readonly message: string }
  | { readonly kind: 'refused'; readonly reason: string };

export type WebhookDeliveryCommand =
  | {
      type: 'ScheduleDelivery';
      deliveryId: string;
      subscriptionId: string;
      subgroupId: string;
      eventType: WebhookEventType;
      occurredAt: string;
      payload: Readonly<Record<string, unknown>>;
      synthetic: boolean;
      sourceEventId: string | null;
      at: string;
    }
  | {
      type: 'RecordAttempt';
      attempt: number;
      outcome: AttemptOutcome;
      payloadPreview: string;
      durationMs: number;
      attemptedAt: string;
      /** Wait before the next attempt if this one failed (retry-schedule.ts). */
      retryDelayMs: number;
    }
  | { type: 'AbandonDelivery'; reason: string; at: string };

export interface WebhookDeliveryState {
  scheduled: boolean;
  deliveryId: string | null;
  subscriptionId: string;
  eventType: WebhookEventType | null;
  occurredAt: string;
  payload: Readonly<Record<string, unknown>>;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
}

export const initialWebhookDeliveryState = (): WebhookDeliveryState => ({
  scheduled: false,
  deliveryId: null,
  subscriptionId: '',
  eventType: null,
  occurredAt: '',
  payload: {},
  status: 'pending',
  attempts: 0,
});

export const isFinal = (status: DeliveryStatus): boolean => status === 'delivered' || status === 'gave_up';

/** The error text of an outcome, or null for a 2xx. 3xx counts as a failure: redirects are not followed. */
export function outcomeError(outcome: AttemptOutcome): string | null {
  switch (outcome.kind) {
    case 'response': {
      if (outcome.responseCode >= 200 && outcome.responseCode < 300) return null;
      const why = outcome.responseCode >= 300 && outcome.responseCode < 400 ? ' (redirects are not followed)' : '';
      return `HTTP ${outcome.responseCode}${why}${outcome.bodyPreview ? `: ${outcome.bodyPreview}` : ''}`;
    }
    case 'timeout':
      return `timeout: no answer within ${outcome.afterMs} ms`;
    case 'connection_error':
      return `connection error: ${outcome.message}`;
    case 'refused':
      return `refused by the SSRF guard: ${outcome.reason}`;
  }
}

export function decideWebhookDelivery(command: WebhookDeliveryCommand, state: WebhookDeliveryState): WebhookDeliveryEvent[] {
  switch (command.type) {
    case 'ScheduleDelivery': {
      if (state.scheduled) return []; // fan-out redelivered: already scheduled
      const { type: _t, ...data } = command;
      return [{ type: 'WebhookDeliveryScheduled', data: { ...data, payload: { ...data.payload } } }];
    }
    case 'RecordAttempt': {
      if (!state.scheduled) throw fail('not_found', 'no such delivery');
      // A redelivered attempt message, or an attempt overtaken by another: the record is already there.
      if (isFinal(state.status) || command.attempt !== state.attempts + 1) return [];
      const error = outcomeError(command.outcome);
      const status = error === null ? 'delivered' : command.attempt >= MAX_ATTEMPTS ? 'gave_up' : 'failed';
      const nextAttemptAt =
        status === 'failed' ? new Date(Date.parse(command.attemptedAt) + command.durationMs + command.retryDelayMs).toISOString() : null;
      return [
        {
          type: 'WebhookDeliveryAttempted',
          data: {
            deliveryId: present(state.deliveryId, 'a scheduled delivery has its id'),
            subscriptionId: state.subscriptionId,
            eventType: present(state.eventType, 'a scheduled delivery has its event type'),
            attempt: command.attempt,
            status,
            httpStatus: command.outcome.kind === 'response' ? command.outcome.responseCode : null,
            error,
            payloadPreview: command.payloadPreview,
            durationMs: Math.max(0, Math.round(command.durationMs)),
            attemptedAt: command.attemptedAt,
            nextAttemptAt,
          },
        },
      ];
    }
    case 'AbandonDelivery':
      if (!state.scheduled) throw fail('not_found', 'no such delivery');
      if (isFinal(state.status)) return [];
      return [
        {
          type: 'WebhookDeliveryAbandoned',
          data: {
            deliveryId: present(state.deliveryId, 'a scheduled delivery has its id'),
            subscriptionId: state.subscriptionId,
            reason: command.reason,
            at: command.at,
          },
        },
      ];
  }
}

export function evolveWebhookDelivery(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryScheduled':
      return {
        ...state,
        scheduled: true,
        deliveryId: event.data.deliveryId,
        subscriptionId: event.data.subscriptionId,
        eventType: event.data.eventType,
        occurredAt: event.data.occurredAt,
        payload: event.data.payload,
      };
    case 'WebhookDeliveryAttempted':
      return { ...state, status: event.data.status, attempts: event.data.attempt };
    case 'WebhookDeliveryAbandoned':
      return { ...state, status: 'gave_up' };
  }
}

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  decide: decideWebhookDelivery,
  evolve: evolveWebhookDelivery,
  initialState: initialWebhookDeliveryState,
  parse: parserFor<WebhookDeliveryEvent>(webhookDeliveryEventSchemas),
};
