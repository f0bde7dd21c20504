import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAlertMinLevel } from '../../commands/kyt/kyt-settings.commands.js';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import type { TransferCheckEvent } from '../../domain/kyt/transfer-check.events.js';
import type { AlertLevel } from '../../domain/webhooks/webhook-event-types.js';
import type { WebhookEventRaised } from '../../domain/webhooks/webhook-raised.js';
import { madeUpAlert, raise, until } from '../support/webhook-events.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { transferVerdictFixture } from '../support/transfer-verdict-fixture.js';
import { FIXTURE_COVERAGE } from '../support/intel-fixtures.js';

/**
 * The spec: a transfer alert reaches a subscription "at or above the subscription's alert_min_level".
 * The subgroup-level setting an operator sets from the CLI is only the default a new subscription gets;
 * it never silences what a subscription asked for. A completed check is decided by the real decider and
 * its raised event appended as the pipeline appends it, then fanned out and delivered for real.
 */
let svc: TestService;
const receivers: Receiver[] = [];
beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_TIMEOUT_MS: '2000' });
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await svc.close();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

/** The event the transfer-check decider raises when a check of this subgroup completes with these alerts. */
function completedCheckRaises(subgroupId: string, levels: AlertLevel[]): WebhookEventRaised {
  const at = new Date().toISOString();
  const checkId = svc.services.commands.ids.newId();
  const requested = transferCheckDecider.decide(
    {
      type: 'RequestTransferCheck',
      checkId,
      chain: 'ETH',
      txHash: `0x${'1c'.repeat(32)}`,
      requester: { channel: 'v2', userId: 'u', keyId: 'k', subgroupId },
      at,
    },
    transferCheckDecider.initialState(),
  );
  const state = requested.reduce(transferCheckDecider.evolve, transferCheckDecider.initialState());
  const alerts = levels.map((level, i) => ({ ...madeUpAlert(level, `Category ${i}`), ruleType: 'Direct exposure' as const }));
  const events: readonly TransferCheckEvent[] = transferCheckDecider.decide(
    { type: 'CompleteTransferCheck', verdict: transferVerdictFixture({ checkId, alerts }), alerts, sanctions: FIXTURE_COVERAGE, at },
    state,
  );
  const raised = events.find((event) => event.type === 'WebhookEventRaised');
  if (!raised) throw new Error(`the check raised no webhook event: ${JSON.stringify(events.map((e) => e.type))}`);
  return raised as unknown as WebhookEventRaised;
}

describe("a subscription's alert_min_level is its own", () => {
  it('a subscription created with Low receives a Low alert, even where the subgroup default is High', async () => {
    const account = await svc.account();
    const actor = await loadWebhookActor(svc.services.app.webhooks.commands, account.userId, 'api_key');
    const subgroupId = actor.memberships[0]!.subgroupId;
    // The operator's subgroup-level setting (`kyt alert-level --level High`).
    await setAlertMinLevel(svc.services.commands, subgroupId, 'High');
    const low = await receiver();
    const unnamed = await receiver();
    const asked = await createSubscription(svc.services.app.webhooks.commands, actor, {
      url: low.url,
      eventTypes: ['tx.policy.alert.triggered'],
      alertMinLevel: 'Low',
    });
    const defaulted = await createSubscription(svc.services.app.webhooks.commands, actor, {
      url: unnamed.url,
      eventTypes: ['tx.policy.alert.triggered'],
    });
    await svc.services.projections.whenProcessed(defaulted.position ?? asked.position);

    // A subscription that names no level gets the subgroup's default.
    expect(await svc.services.app.webhooks.subscriptions.get(defaulted.subscriptionId)).toMatchObject({ alert_min_level: 'High' });

    await raise(svc.services, completedCheckRaises(subgroupId, ['Low']));
    await raise(svc.services, completedCheckRaises(subgroupId, ['High', 'Low']));

    const received = await low.waitFor(2);
    const levels = received.map((r) => (r.json.payload.alerts as { riskLevel: string }[]).map((a) => a.riskLevel).sort());
    expect(levels.sort()).toEqual([['High', 'Low'], ['Low']]);
    await unnamed.waitFor(1);
    await until(async () => {
      await svc.services.whenCaughtUp();
      return true;
    });
    expect(unnamed.received).toHaveLength(1);
    expect(unnamed.received[0]!.json.payload).toMatchObject({
      worst_level: 'High',
      alerts: [expect.objectContaining({ riskLevel: 'High' })],
    });
  });
});
