import type { LookupAddress } from 'node:dns';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../commands/accounts.commands.js';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { webhookEventRaised } from '../../domain/webhooks/webhook-raised.js';
import { createServices, type Services } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { adapterEnv } from '../external/adapter-env.js';
import { raise, until } from '../support/webhook-events.js';

/**
 * DNS rebinding through the whole pipeline: the subscription's host name resolves to a public address
 * when the subscription is saved and to a private one when the delivery connects. The DNS server is
 * played by an injected resolver; nothing leaves the machine (the private address is refused before
 * any connection, and the public one is never connected to).
 */
const answers: Record<string, string[]> = { 'hooks.rebind.example': ['93.184.216.34', '10.0.0.7'] };
const lookups: string[] = [];
async function rebindingDns(hostname: string): Promise<LookupAddress[]> {
  lookups.push(hostname);
  const script = answers[hostname] ?? [];
  const address = script[Math.min(lookups.filter((h) => h === hostname).length - 1, script.length - 1)];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
}

let dir: string;
let services: Services;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-ssrf-'));
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    WEBHOOK_RETRY_SCALE: '0.0001',
    WEBHOOK_TIMEOUT_MS: '1000',
    ...adapterEnv(),
  });
  services = await createServices(config, undefined, { webhookResolver: rebindingDns });
  await services.start();
});
afterAll(async () => {
  await services.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SSRF guard at delivery time', () => {
  it('refuses a private address even when the name first resolved to a public one', async () => {
    const commands = services.app.webhooks.commands;
    const { userId } = await openAccount(commands, { email: 'ssrf@example.test', organization: { name: 'Org', subgroup: 'Team' } });
    const actor = await loadWebhookActor(commands, userId, 'api_key');
    const created = await createSubscription(commands, actor, {
      url: 'https://hooks.rebind.example/aml',
      eventTypes: ['service.bfs.failed'],
    });
    expect(lookups).toEqual(['hooks.rebind.example']); // vetted on save: 93.184.216.34, public
    await services.projections.whenProcessed(created.position);

    await raise(
      services,
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: { user_id: userId },
        payload: { job_id: 'j', address: 'a', network: 'ETH', error: 'e' },
      }),
      'explore',
    );
    const delivery = await until(async () => {
      await services.whenCaughtUp();
      const [found] = await services.app.webhooks.deliveries.recentDeliveries(created.subscriptionId);
      return found?.status === 'gave_up' && found;
    }, 15_000);
    // Two read models: the attempt history may apply the last event just after the delivery shows it.
    await services.whenCaughtUp();
    const attempts = await services.app.webhooks.deliveries.attemptsOf(delivery.delivery_id);
    expect(attempts).toHaveLength(5);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({
        http_status: null,
        error: 'refused by the SSRF guard: hooks.rebind.example resolves to 10.0.0.7 is a private address',
      });
    }
    expect(lookups.length).toBe(6); // one at save time, then one per connection attempt
  });
});
