import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { chargeCall } from '../../commands/billing.commands.js';
import { ledgerPeriodStream, ledgerStream } from '../../domain/ledger/ledger.events.js';
import { webhookEventRaised } from '../../domain/webhooks/webhook-raised.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { raise, until } from '../support/webhook-events.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * Issue 16: `ledger replay` and the audit hung whenever a webhook retry was waiting (a delayed redelivery
 * keeps the consumer lag above zero, and they waited for every consumer). They read the log and the
 * ledger read models only, so they wait for those only: here a retry is scheduled minutes ahead
 * (the production schedule) and both verbs answer at once.
 */
const ENV = { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_TIMEOUT_MS: '1000' };
let svc: TestService;
let hook: Receiver;
beforeAll(async () => {
  svc = await startTestService(ENV);
  hook = await startReceiver(() => 500);
});
afterAll(async () => {
  await hook.close();
  await svc.close();
});

describe('ledger tools with a webhook retry waiting', () => {
  it('ledger replay and ledger show answer while a delayed redelivery is pending', { timeout: 45_000 }, async () => {
    const account = await svc.account({ depositUsd: 5 });
    await chargeCall(svc.services.commands, {
      userId: account.userId,
      chargeId: svc.services.commands.ids.newId(),
      product: 'screen',
      details: { endpoint: 'POST /v2/screen', keyId: account.keyId, network: null, subject: null },
    });
    const actor = await loadWebhookActor(svc.services.app.webhooks.commands, account.userId, 'api_key');
    const created = await createSubscription(svc.services.app.webhooks.commands, actor, {
      url: hook.url,
      eventTypes: ['service.bfs.failed'],
    });
    await svc.services.projections.whenProcessed(created.position);
    await raise(
      svc.services,
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: { user_id: account.userId },
        payload: { job_id: 'j-1', address: '0xabc', network: 'ETH', error: 'budget exhausted' },
      }),
      'explore',
    );
    // the first attempt failed: the next one waits in the bus (minutes, on the production schedule), so the
    // service as a whole never catches up while it waits
    // (attempt 2 comes 5 s after the first failure; attempt 3 waits 5 min after the second)
    await until(
      async () =>
        hook.received.length >= 2 &&
        (await svc.services.app.webhooks.deliveries.recentDeliveries(created.subscriptionId))[0]?.attempts === 2,
      20_000,
    );
    const caughtUpWithin = (ms: number) =>
      Promise.race([
        svc.services.whenCaughtUp().then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
      ]);
    await until(async () => !(await caughtUpWithin(300)));

    const answeredWithin = <T>(work: Promise<T>) =>
      Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5_000))]);
    const replay = await answeredWithin(runVerb(svc.services, { words: ['ledger', 'replay'], flags: { account: account.userId } }));
    expect(replay.exitCode).toBe(0);
    expect(replay.output).toMatchObject({
      mismatches: 0,
      accounts: [{ user_id: account.userId, replayed: { charges: 1, balance_micros: 4_900_000 } }],
    });
    const shown = await answeredWithin(runVerb(svc.services, { words: ['ledger', 'show'], flags: { user: account.userId } }));
    expect((shown.output as { events: { type: string }[] }).events.map((e) => e.type)).toContain('Charged');
  });

  it('ledger replay reports a period stream that the chain does not reach', async () => {
    const account = await svc.account({ depositUsd: 1 });
    const opening = {
      plan: { kind: 'ledger' },
      balanceMicros: 50_000_000,
      monthlyCapMicros: null,
      periodStart: null,
      periodUnitsUsed: 0,
      periodSpentMicros: 0,
    };
    await svc.services.store.append(
      ledgerPeriodStream(account.userId, '2030-01-01T00:00:00.000Z'),
      [
        {
          id: svc.services.commands.ids.newId(),
          type: 'PeriodOpened',
          data: { month: '2030-01-01T00:00:00.000Z', previous: ledgerStream(account.userId), opening, at: '2030-01-01T00:00:00.000Z' },
          metadata: { correlationId: 'forged', occurredAt: '2030-01-01T00:00:00.000Z', schemaVersion: 1 },
        },
      ],
      { expected: 'no_stream' },
    );
    const replay = await runVerb(svc.services, { words: ['ledger', 'replay'], flags: { account: account.userId } });
    expect(replay.exitCode).toBe(1);
    expect(JSON.stringify(replay.output)).toContain(
      `chain break: ${ledgerPeriodStream(account.userId, '2030-01-01T00:00:00.000Z')} is not reachable`,
    );
  });
});
