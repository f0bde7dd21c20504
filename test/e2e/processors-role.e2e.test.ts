import { expect, it } from 'vitest';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { accountsProjection } from '../../projections/accounts.projection.js';
import { webhookSubscriptionsProjection } from '../../projections/webhook-subscriptions.projection.js';
import { startTestService } from '../support/test-service.js';

/**
 * A processors-only process reads webhook subscriptions (the fan-out looks them up as of its event), so it
 * folds that read model itself instead of trusting another process to have folded it in time; it folds no
 * other read model.
 */
it('a ROLE=processors process folds the webhook subscriptions its fan-out reads, and no other read model', async () => {
  // The roles split needs EventStoreDB to run as separate processes; here the role runs alone in one.
  const svc = await startTestService({ SVC_SOURCES_DIR: '', WEBHOOK_ALLOW_LOCAL: '1' }, undefined, (config) => ({
    ...config,
    ROLE: 'processors',
  }));
  try {
    const account = await svc.account();
    const commands = svc.services.app.webhooks.commands;
    const actor = await loadWebhookActor(commands, account.userId, 'api_key');
    const created = await createSubscription(commands, actor, { url: 'http://127.0.0.1:9/hook', eventTypes: ['service.check.high_risk'] });
    await svc.services.projections.whenProcessed(created.position);

    const subscriptions = svc.services.readStore.collection(webhookSubscriptionsProjection.collection);
    expect(await subscriptions.count({})).toBe(1);
    if (svc.services.config.READ_STORE !== 'mongo') {
      expect(await svc.services.readStore.collection(accountsProjection.collection).count({})).toBe(0);
    }
  } finally {
    await svc.close();
  }
});
