import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { outcomeError, webhookDeliveryDecider, type AttemptOutcome, type WebhookDeliveryCommand } from './webhook-delivery.decider.js';
import type { WebhookDeliveryEvent } from './webhook-delivery.events.js';

const spec = deciderSpec(webhookDeliveryDecider);
const T0 = '2026-11-22T10:00:00.000Z';
const schedule = {
  type: 'ScheduleDelivery',
  deliveryId: 'd-1',
  subscriptionId: 's-1',
  subgroupId: 'g-1',
  eventType: 'service.bfs.failed',
  occurredAt: T0,
  payload: { job_id: 'j', address: 'a', network: 'ETH', error: 'boom' },
  synthetic: false,
  sourceEventId: 'e-1',
  at: T0,
} as const satisfies WebhookDeliveryCommand;
const { type: _type, ...scheduledData } = schedule;
const scheduled: WebhookDeliveryEvent = { type: 'WebhookDeliveryScheduled', data: scheduledData };

const http = (responseCode: number, bodyPreview = ''): AttemptOutcome => ({ kind: 'response', responseCode, bodyPreview });
const attempt = (n: number, outcome: AttemptOutcome): WebhookDeliveryCommand => ({
  type: 'RecordAttempt',
  attempt: n,
  outcome,
  payloadPreview: '{"schema_version":1',
  durationMs: 12,
  attemptedAt: T0,
  retryDelayMs: 5000,
});
const attempted = (
  n: number,
  status: 'delivered' | 'failed' | 'gave_up',
  httpStatus: number | null,
  error: string | null,
): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    deliveryId: 'd-1',
    subscriptionId: 's-1',
    eventType: 'service.bfs.failed',
    attempt: n,
    status,
    httpStatus,
    error,
    payloadPreview: '{"schema_version":1',
    durationMs: 12,
    attemptedAt: T0,
    nextAttemptAt: status === 'failed' ? '2026-11-22T10:00:05.012Z' : null,
  },
});

describe('webhook delivery decider', () => {
  it('schedules a delivery once', () => {
    spec.given([]).when(schedule).then([scheduled]);
    spec.given([scheduled]).when(schedule).thenNothingHappened();
  });

  it('a 2xx delivers', () => {
    const state = spec
      .given([scheduled])
      .when(attempt(1, http(204)))
      .then([attempted(1, 'delivered', 204, null)]);
    expect(state.status).toBe('delivered');
  });

  it('5xx, 4xx, 3xx, timeouts, connection errors and refusals fail, with the next attempt after the delay', () => {
    spec
      .given([scheduled])
      .when(attempt(1, http(500, 'oops')))
      .then([attempted(1, 'failed', 500, 'HTTP 500: oops')]);
    spec
      .given([scheduled])
      .when(attempt(1, http(404)))
      .then([attempted(1, 'failed', 404, 'HTTP 404')]);
    expect(outcomeError(http(302))).toBe('HTTP 302 (redirects are not followed)');
    expect(outcomeError({ kind: 'timeout', afterMs: 10_000 })).toBe('timeout: no answer within 10000 ms');
    expect(outcomeError({ kind: 'connection_error', message: 'ECONNREFUSED' })).toBe('connection error: ECONNREFUSED');
    expect(outcomeError({ kind: 'refused', reason: 'x resolves to 10.0.0.1 is a private address' })).toMatch(/^refused by the SSRF guard/);
  });

  it('attempt 5 is the give-up boundary', () => {
    const history = [scheduled, ...[1, 2, 3, 4].map((n) => attempted(n, 'failed', 500, 'HTTP 500'))];
    const state = spec
      .given(history)
      .when(attempt(5, http(500)))
      .then([attempted(5, 'gave_up', 500, 'HTTP 500')]);
    expect(state.status).toBe('gave_up');
    spec
      .given([...history, attempted(5, 'gave_up', 500, 'HTTP 500')])
      .when(attempt(6, http(200)))
      .thenNothingHappened();
  });

  it('a repeated or out-of-turn attempt records nothing', () => {
    spec
      .given([scheduled, attempted(1, 'failed', 500, 'HTTP 500')])
      .when(attempt(1, http(200)))
      .thenNothingHappened();
    spec
      .given([scheduled])
      .when(attempt(3, http(200)))
      .thenNothingHappened();
    spec
      .given([scheduled, attempted(1, 'delivered', 200, null)])
      .when(attempt(2, http(200)))
      .thenNothingHappened();
  });

  it('an unknown delivery cannot be attempted', () => {
    spec
      .given([])
      .when(attempt(1, http(200)))
      .thenThrows('not_found');
  });

  it('a delivery whose subscription is gone is abandoned, once', () => {
    const abandoned: WebhookDeliveryEvent = {
      type: 'WebhookDeliveryAbandoned',
      data: { deliveryId: 'd-1', subscriptionId: 's-1', reason: 'deleted', at: T0 },
    };
    const state = spec.given([scheduled]).when({ type: 'AbandonDelivery', reason: 'deleted', at: T0 }).then([abandoned]);
    expect(state.status).toBe('gave_up');
    spec
      .given([scheduled, attempted(1, 'delivered', 200, null)])
      .when({ type: 'AbandonDelivery', reason: 'deleted', at: T0 })
      .thenNothingHappened();
  });
});
