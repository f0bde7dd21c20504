import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription, deleteSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { MAX_ATTEMPTS } from '../../domain/webhooks/retry-schedule.js';
import type { AlertLevel, WebhookEventType } from '../../domain/webhooks/webhook-event-types.js';
import { webhookEventRaised } from '../../domain/webhooks/webhook-raised.js';
import { toBusMessage } from '../../processors/relay.js';
import { topicOfStream } from '../../processors/topics.js';
import { eventually } from '../contracts/eventually.js';
import { madeUpAlert, madeUpTransfer, raise, until } from '../support/webhook-events.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Answer, type Receiver } from '../support/webhook-receiver.js';

/**
 * Fan-out and delivery through a whole embedded service, against real receivers on loopback. The retry
 * schedule is scaled down (WEBHOOK_RETRY_SCALE) and the timeout shortened (WEBHOOK_TIMEOUT_MS) so that
 * the production schedule (about 2 h 35 min) runs in about a second with the same code.
 */
/** Long enough that a receiver answering at once is never taken for a hanging one on a loaded machine. */
const TIMEOUT_MS = 1000;
const ENV = { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.0001', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) };
let svc: TestService;
const receivers: Receiver[] = [];
beforeAll(async () => {
  svc = await startTestService(ENV);
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await svc.close();
});

async function receiver(answer: (nth: number) => Answer = () => 200): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

async function customer() {
  const account = await svc.account();
  const actor = await loadWebhookActor(svc.services.app.webhooks.commands, account.userId, 'api_key');
  const subgroupId = actor.memberships[0]!.subgroupId;
  const subscribe = async (url: string, eventTypes: WebhookEventType[], alertMinLevel?: AlertLevel) => {
    const created = await createSubscription(svc.services.app.webhooks.commands, actor, {
      url,
      eventTypes,
      ...(alertMinLevel ? { alertMinLevel } : {}),
    });
    await svc.services.projections.whenProcessed(created.position);
    return created;
  };
  return { ...account, actor, subgroupId, subscribe };
}

const deliveries = {
  of: (subscriptionId: string) => svc.services.app.webhooks.deliveries.recentDeliveries(subscriptionId),
  attempts: (subscriptionId: string) => svc.services.app.webhooks.deliveries.recentAttempts(subscriptionId),
};

/** Waits (bounded) until the subscription's only delivery has this status. */
async function settled(subscriptionId: string, status: string) {
  return until(async () => {
    await svc.services.whenCaughtUp();
    const [delivery] = await deliveries.of(subscriptionId);
    return delivery?.status === status && delivery;
  }, 15_000);
}

const alertEvent = (subgroupId: string, levels: AlertLevel[]) =>
  webhookEventRaised({
    eventType: 'tx.policy.alert.triggered',
    audience: { subgroup_id: subgroupId },
    payload: madeUpTransfer(
      subgroupId,
      levels.map((level, i) => madeUpAlert(level, `Category ${i}`)),
    ),
  });

describe('webhook delivery', () => {
  it('a receiver failing three times then answering 200 gets the event at attempt 4, same delivery_id, every attempt recorded and signed', async () => {
    const hook = await receiver((nth) => (nth <= 3 ? { status: 500, body: `failure ${nth}` } : 200));
    const alice = await customer();
    const { subscriptionId, secret } = await alice.subscribe(hook.url, ['tx.policy.alert.triggered']);
    await raise(svc.services, alertEvent(alice.subgroupId, ['High']));

    const received = await hook.waitFor(4);
    const delivery = await settled(subscriptionId, 'delivered');
    expect(delivery).toMatchObject({ attempts: 4, last_http_status: 200, last_error: null, next_attempt_at: null });
    expect(received.map((r) => r.json.attempt)).toEqual([1, 2, 3, 4]);
    expect(new Set(received.map((r) => r.json.delivery_id))).toEqual(new Set([delivery.delivery_id]));
    expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.delivery_id]));
    expect(received.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4']);
    for (const webhook of received) {
      expect(new Webhook(secret).verify(webhook.body, webhook.headers as Record<string, string>)).toMatchObject({
        schema_version: 1,
        event_type: 'tx.policy.alert.triggered',
      });
      expect(webhook.json.occurred_at).toBe(received[0]!.json.occurred_at);
    }
    const attempts = [...(await deliveries.attempts(subscriptionId))].sort((a, b) => a.attempt - b.attempt);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'delivered', 200],
    ]);
    expect(attempts[0]!.error).toBe('HTTP 500: failure 1');
    expect(attempts[3]!.payload_preview).toBe(received[3]!.body.slice(0, 200));
    // Each retry waited at least until its recorded time.
    for (let i = 1; i < 4; i++) expect(received[i]!.receivedAtMs).toBeGreaterThanOrEqual(Date.parse(attempts[i - 1]!.next_attempt_at!) - 1);
  });

  it('a receiver always answering 500 is given up at attempt 5', async () => {
    const hook = await receiver(() => 500);
    const bob = await customer();
    const { subscriptionId } = await bob.subscribe(hook.url, ['service.bfs.failed']);
    await raise(
      svc.services,
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: { user_id: bob.userId },
        payload: { job_id: 'j-1', address: '0xabc', network: 'ETH', error: 'budget exhausted' },
      }),
      'explore',
    );

    const delivery = await settled(subscriptionId, 'gave_up');
    expect(delivery).toMatchObject({ attempts: MAX_ATTEMPTS, next_attempt_at: null, last_http_status: 500 });
    await svc.services.whenCaughtUp();
    expect(hook.received).toHaveLength(MAX_ATTEMPTS);
    const attempts = await deliveries.attempts(subscriptionId);
    expect(attempts.map((a) => a.status).sort()).toEqual(['failed', 'failed', 'failed', 'failed', 'gave_up']);
  });

  it('a receiver hanging past the timeout: a timeout is recorded; deleting the subscription stops the retries', async () => {
    const hook = await receiver(() => 'hang');
    const carol = await customer();
    const { subscriptionId } = await carol.subscribe(hook.url, ['service.check.high_risk']);
    await raise(
      svc.services,
      webhookEventRaised({
        eventType: 'service.check.high_risk',
        audience: { user_id: carol.userId },
        payload: {
          check_id: 'c-1',
          address: '0xabc',
          network: 'ETH',
          risk_level: 'high',
          risk_score: 81,
          tier_hit: 2,
          categories: ['mixer'],
        },
      }),
    );
    const [first] = await until(async () => {
      const attempts = await deliveries.attempts(subscriptionId);
      return attempts.length > 0 && attempts;
    }, 15_000);
    expect(first).toMatchObject({ attempt: 1, status: 'failed', http_status: null, error: `timeout: no answer within ${TIMEOUT_MS} ms` });
    expect(first!.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);

    await deleteSubscription(svc.services.app.webhooks.commands, carol.actor, subscriptionId);
    const delivery = await settled(subscriptionId, 'gave_up');
    expect(delivery.last_error).toBe('the subscription was deleted');
    expect(delivery.attempts).toBeLessThan(MAX_ATTEMPTS);
  });

  it('fans every event type out to every matching subscription, transfer alerts filtered by alert_min_level', async () => {
    const hooks = { medium: await receiver(), severe: await receiver(), bfs: await receiver(), other: await receiver() };
    const dave = await customer();
    const stranger = await customer();
    await dave.subscribe(hooks.medium.url, ['tx.policy.alert.triggered', 'service.check.high_risk']);
    await dave.subscribe(hooks.severe.url, ['tx.policy.alert.triggered'], 'Severe');
    await dave.subscribe(hooks.bfs.url, ['service.bfs.completed', 'service.bfs.failed']);
    await stranger.subscribe(hooks.other.url, [
      'tx.policy.alert.triggered',
      'service.bfs.completed',
      'service.bfs.failed',
      'service.check.high_risk',
    ]);

    await raise(svc.services, alertEvent(dave.subgroupId, ['Low', 'Medium', 'High'])); // medium only
    await raise(svc.services, alertEvent(dave.subgroupId, ['Severe', 'Low'])); // medium and severe
    await raise(svc.services, alertEvent(dave.subgroupId, ['Low'])); // nobody
    await raise(
      svc.services,
      webhookEventRaised({
        eventType: 'service.bfs.completed',
        audience: { user_id: dave.userId },
        payload: {
          job_id: 'j-2',
          address: '0xabc',
          network: 'BSC',
          report_id: 'r-2',
          categories: [{ slug: 'mixer', severity: 8, contribution: 1234.5 }],
          complete: false,
        },
      }),
      'explore',
    );
    await raise(
      svc.services,
      webhookEventRaised({
        eventType: 'service.check.high_risk',
        audience: { user_id: dave.userId },
        payload: {
          check_id: 'c-2',
          address: 'TQ000',
          network: 'TRON',
          risk_level: 'severe',
          risk_score: 97,
          tier_hit: 'sanctions',
          categories: ['sanctions'],
        },
      }),
    );

    await hooks.medium.waitFor(3);
    await hooks.severe.waitFor(1);
    await hooks.bfs.waitFor(1);
    await until(async () => {
      await svc.services.whenCaughtUp();
      return true;
    });
    expect(hooks.other.received).toHaveLength(0);
    expect(hooks.severe.received).toHaveLength(1);
    expect(hooks.severe.received[0]!.json.payload).toMatchObject({
      worst_level: 'Severe',
      alerts: [expect.objectContaining({ riskLevel: 'Severe' })],
    });
    const medium = hooks.medium.received.map((r) => r.json);
    expect(medium).toHaveLength(3);
    const alerts = medium
      .filter((m) => m.event_type === 'tx.policy.alert.triggered')
      .map((m) => (m.payload.alerts as { riskLevel: string }[]).map((a) => a.riskLevel).sort());
    expect(alerts.sort()).toEqual([['High', 'Medium'], ['Severe']]);
    expect(medium.find((m) => m.event_type === 'service.check.high_risk')!.payload).toMatchObject({
      check_id: 'c-2',
      risk_level: 'severe',
    });
    expect(hooks.bfs.received[0]!.json).toMatchObject({ event_type: 'service.bfs.completed', payload: { job_id: 'j-2', complete: false } });
    const deliveryIds = [...hooks.medium.received, ...hooks.severe.received, ...hooks.bfs.received].map((r) => r.json.delivery_id);
    expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
  });

  it('a raised event relayed twice (at-least-once) is delivered once', async () => {
    const hook = await receiver();
    const frank = await customer();
    const { subscriptionId } = await frank.subscribe(hook.url, ['service.bfs.failed']);
    const eventId = await raise(
      svc.services,
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: { user_id: frank.userId },
        payload: { job_id: 'j-4', address: 'a', network: 'ETH', error: 'e' },
      }),
      'explore',
    );
    await settled(subscriptionId, 'delivered');
    for await (const event of svc.services.store.readAll()) {
      if (event.id === eventId) await svc.services.bus.publish(topicOfStream(event.streamId), [toBusMessage(event)]);
    }
    // Twice: a (wrongly) scheduled second delivery would be appended during the first catch-up.
    for (let round = 0; round < 2; round++) await svc.services.whenCaughtUp();
    expect(hook.received).toHaveLength(1);
    expect(await deliveries.of(subscriptionId)).toHaveLength(1);
  });

  it('a raised event that breaks the contract goes to the dead-letter topic; the valid ones are still delivered', async () => {
    const hook = await receiver();
    const erin = await customer();
    await erin.subscribe(hook.url, ['service.bfs.failed']);
    const broken = {
      type: 'WebhookEventRaised' as const,
      data: { event_type: 'service.bfs.failed' as const, audience: { user_id: erin.userId }, payload: { job_id: 'j' } },
    };
    const valid = webhookEventRaised({
      eventType: 'service.bfs.failed',
      audience: { user_id: erin.userId },
      payload: { job_id: 'j-3', address: 'a', network: 'ETH', error: 'e' },
    });
    const brokenId = await raise(svc.services, broken, 'explore');
    await raise(svc.services, valid, 'explore');
    const [delivered] = await hook.waitFor(1);
    expect(delivered!.json.payload.job_id).toBe('j-3');
    const dead: string[] = [];
    const consumer = await svc.services.bus.consume({
      group: 'test-webhook-dlt',
      topics: ['events.explore.dlt'],
      handle: async (batch) => void dead.push(...batch.map((m) => m.headers['event-id']!)),
    });
    // The valid event's delivery says nothing of when the broken one's last retry reached the DLT.
    try {
      await eventually(() => expect(dead).toContain(brokenId), 30_000);
    } finally {
      await consumer.stop();
    }
  });
});
