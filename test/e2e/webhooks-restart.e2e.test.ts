import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { webhookEventRaised } from '../../domain/webhooks/webhook-raised.js';
import { freePort, spawnTsx } from '../support/processes.js';
import { startTestService } from '../support/test-service.js';
import { raise, until } from '../support/webhook-events.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * Scheduled retries live in the bus (delayed messages), not in a timer: they survive a restart and a
 * kill -9 between attempts. The retry is due about 10 s after the failed attempt, and the first process
 * stops its processors as soon as that attempt is recorded, so the retry is still on the bus.
 *
 * Every wait is on what it needs (a webhook arriving, an attempt recorded), never a clock of its own: on
 * Kafka a consumer group's first join or a rebalance after a kill -9 (the dead member's 6 s session, then
 * the join) takes as long as it takes on a loaded machine. Only the test's timeout bounds them.
 */
const ENV = { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '2', WEBHOOK_TIMEOUT_MS: '2000' };
/** Generous: it bounds the waits below, which end as soon as what they wait on has happened. */
const TEST_TIMEOUT_MS = 300_000;
/** Waits end on their event; `until`'s own bound is lifted. */
const UNBOUNDED = Number.POSITIVE_INFINITY;
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function failOnceThenAccept(): Promise<Receiver> {
  const hook = await startReceiver((nth) => (nth === 1 ? 503 : 200));
  cleanup.push(() => hook.close());
  return hook;
}

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-webhooks-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('webhook retries across restarts', () => {
  it('a restart between attempts: the schedule continues in the next process', { timeout: TEST_TIMEOUT_MS }, async () => {
    const hook = await failOnceThenAccept();
    const dir = await dataDir();
    const first = await startTestService(ENV, dir);
    const account = await first.account();
    const actor = await loadWebhookActor(first.services.app.webhooks.commands, account.userId, 'api_key');
    const { subscriptionId, position } = await createSubscription(first.services.app.webhooks.commands, actor, {
      url: hook.url,
      eventTypes: ['service.bfs.failed'],
    });
    await first.services.projections.whenProcessed(position);
    await raise(
      first.services,
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: { user_id: account.userId },
        payload: { job_id: 'j', address: 'a', network: 'ETH', error: 'e' },
      }),
      'explore',
    );
    await hook.arrival((received) => received.length >= 1); // on Kafka: once the fan-out's groups have joined
    const failed = await until(async () => {
      const [attempt] = await first.services.app.webhooks.deliveries.recentAttempts(subscriptionId);
      return attempt?.status === 'failed' && attempt;
    }, UNBOUNDED);
    await first.close();
    // the retry had not gone out when the first process stopped: it is on the bus for the next one
    expect(hook.received).toHaveLength(1);

    const second = await startTestService(ENV, dir);
    cleanup.push(() => second.close());
    const received = await hook.arrival((arrived) => arrived.length >= 2);
    expect(received[1]!.receivedAtMs).toBeGreaterThanOrEqual(Date.parse(failed.next_attempt_at!) - 1);
    expect(received[1]!.json).toMatchObject({ attempt: 2, delivery_id: received[0]!.json.delivery_id });
    const delivered = await until(async () => {
      await second.services.whenCaughtUp();
      const [delivery] = await second.services.app.webhooks.deliveries.recentDeliveries(subscriptionId);
      return delivery?.status === 'delivered' && delivery;
    }, UNBOUNDED);
    expect(delivered.attempts).toBe(2);
    expect(hook.received).toHaveLength(2);
  });

  it('kill -9 between attempts: the real service started again delivers the retry', { timeout: TEST_TIMEOUT_MS }, async () => {
    const hook = await failOnceThenAccept();
    const dir = await dataDir();
    const key = `svc_${'W'.repeat(44)}`;
    const port = await freePort();
    const env = {
      ...ENV,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SVC_DEMO_API_KEY: key,
      SVC_SOURCES_DIR: '',
      SVC_SYNC_ON_START: '0',
    };
    const { child } = await spawnTsx('infra/main.ts', env, /listening on/);
    cleanup.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    const call = async (method: string, path: string, body?: object) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };

    const created = await call('POST', '/v1/webhooks', { url: hook.url, event_types: ['tx.policy.alert.triggered'] });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const sent = await call('POST', `/v1/webhooks/${id}/test`);
    expect(sent.status).toBe(202);
    const deliveryId = sent.json.delivery_id as string;
    await hook.arrival((received) => received.length >= 1);
    await until(async () => (await call('GET', `/v1/webhooks/${id}/deliveries/${deliveryId}`)).json.status === 'failed', UNBOUNDED);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // Started again (in this process, on the same data directory: the lock of the killed one is taken over).
    const second = await startTestService(ENV, dir);
    cleanup.push(() => second.close());
    // the retry, once due and once the restarted consumers hold the partition (after the dead member's session)
    const received = await hook.arrival((arrived) => arrived.length >= 2);
    expect(received.map((r) => [r.json.delivery_id, r.json.attempt])).toEqual([
      [deliveryId, 1],
      [deliveryId, 2],
    ]);
    const { deliveries } = second.services.app.webhooks;
    await until(async () => {
      await second.services.whenCaughtUp();
      return (await deliveries.get(deliveryId))?.status === 'delivered';
    }, UNBOUNDED);
    // The delivery and its attempts are two read models: with real I/O (MongoDB) the first can show the
    // event before the second has applied it, so wait until the event seen is projected everywhere.
    await second.services.whenCaughtUp();
    expect(await deliveries.attemptsOf(deliveryId)).toEqual([
      expect.objectContaining({ attempt: 1, status: 'failed', http_status: 503 }),
      expect.objectContaining({ attempt: 2, status: 'delivered', http_status: 200 }),
    ]);
  });
});
