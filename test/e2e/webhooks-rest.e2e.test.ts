import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/webhook-events.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/** /v1/webhooks through the HTTP layer of a whole service, with a real receiver on loopback. */
let svc: TestService;
let hook: Receiver;
beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.0002', WEBHOOK_TIMEOUT_MS: '2000' });
  hook = await startReceiver(() => 200);
});
afterAll(async () => {
  await hook.close();
  await svc.close();
});

function api(apiKey: string) {
  const headers = { authorization: `Bearer ${apiKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return {
    call,
    create: (body: object) => call('POST', '/v1/webhooks', body),
    get: (id: string) => call('GET', `/v1/webhooks/${id}`),
  };
}

const body = (overrides: object = {}) => ({
  url: hook.url,
  event_types: ['tx.policy.alert.triggered', 'service.bfs.failed'],
  ...overrides,
});

describe('/v1/webhooks', () => {
  it('creates a subscription: the secret is shown once, the reads never show it', async () => {
    const user = api((await svc.account()).apiKey);
    const created = await user.create(body({ description: 'compliance inbox' }));
    expect(created.statusCode).toBe(201);
    const record = created.json();
    expect(record).toMatchObject({
      url: hook.url,
      event_types: ['tx.policy.alert.triggered', 'service.bfs.failed'],
      alert_min_level: 'Medium',
      description: 'compliance inbox',
    });
    expect(record.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(record.subgroup_id).toEqual(expect.any(String));

    const reads = [
      await user.get(record.id),
      await user.call('GET', '/v1/webhooks'),
      await user.call('PATCH', `/v1/webhooks/${record.id}`, { alert_min_level: 'High' }),
      await user.call('GET', `/v1/webhooks/${record.id}/deliveries`),
      await user.call('GET', `/v1/webhooks/${record.id}/attempts`),
    ];
    for (const read of reads) {
      expect(read.statusCode).toBe(200);
      expect(read.body).not.toContain(record.secret);
      expect(read.body).not.toContain('whsec_');
    }
    expect(reads[0]!.json()).toMatchObject({ id: record.id, url: hook.url });
    expect(reads[1]!.json().data.map((s: { id: string }) => s.id)).toEqual([record.id]);
    expect(reads[2]!.json()).toMatchObject({ id: record.id, alert_min_level: 'High' });
  });

  it('refuses unsafe targets and malformed bodies', async () => {
    const user = api((await svc.account()).apiKey);
    for (const url of [
      'http://hooks.example.com/x',
      'https://10.0.0.7/x',
      'https://169.254.169.254/latest',
      'https://user:pw@hooks.example.com/x',
      'not a url',
    ]) {
      const refused = await user.create(body({ url }));
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().error.code).toBe('webhook_target_refused');
    }
    for (const bad of [
      { event_types: [] },
      { event_types: ['tx.unknown'] },
      { alert_min_level: 'extreme' },
      { extra: 1 },
      { url: 'x'.repeat(3000) },
    ]) {
      const refused = await user.create(body(bad));
      expect(refused.statusCode, JSON.stringify(bad)).toBe(422);
      expect(refused.json().detail.length).toBeGreaterThan(0);
    }
    // an enum in any case is the enum (one vocabulary: `medium` is Medium)
    const anyCase = await user.create(body({ alert_min_level: 'medium', event_types: ['TX.POLICY.ALERT.TRIGGERED'] }));
    expect(anyCase.statusCode, anyCase.body).toBe(201);
    expect(anyCase.json()).toMatchObject({ alert_min_level: 'Medium', event_types: ['tx.policy.alert.triggered'] });
    const created = (await user.create(body())).json();
    expect((await user.call('PATCH', `/v1/webhooks/${created.id}`, {})).statusCode).toBe(422);
    expect((await user.call('PATCH', `/v1/webhooks/${created.id}`, { url: 'https://192.168.0.1/' })).json().error.code).toBe(
      'webhook_target_refused',
    );
  });

  it('is scoped to the subgroups of the key user: another customer gets 404 everywhere', async () => {
    const owner = api((await svc.account()).apiKey);
    const stranger = api((await svc.account()).apiKey);
    const { id } = (await owner.create(body())).json();
    const attempts = [
      await stranger.get(id),
      await stranger.call('PATCH', `/v1/webhooks/${id}`, { alert_min_level: 'Low' }),
      await stranger.call('DELETE', `/v1/webhooks/${id}`),
      await stranger.call('POST', `/v1/webhooks/${id}/rotate-secret`),
      await stranger.call('POST', `/v1/webhooks/${id}/test`),
      await stranger.call('GET', `/v1/webhooks/${id}/deliveries`),
      await stranger.call('GET', `/v1/webhooks/${id}/attempts`),
      await stranger.get('00000000-0000-0000-0000-000000000000'),
    ];
    for (const response of attempts) expect(response.statusCode).toBe(404);
    expect((await stranger.call('GET', '/v1/webhooks')).json().data).toEqual([]);
    expect((await stranger.create(body({ subgroup_id: (await owner.get(id)).json().subgroup_id }))).statusCode).toBe(404);
    expect((await owner.get(id)).json().alert_min_level).toBe('Medium');
  });

  it('needs a key, and an account with a subgroup', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/v1/webhooks' })).statusCode).toBe(401);
    const loner = api((await svc.account({ organization: false })).apiKey);
    const refused = await loner.create(body());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('webhook_requires_subgroup');
  });

  it('an account in several subgroups names the owning one', async () => {
    const { userId, apiKey } = await svc.account();
    const { commands } = svc.services;
    const join = {
      type: 'JoinOrganization',
      organizationId: commands.ids.newId(),
      organizationName: 'Second',
      subgroupId: commands.ids.newId(),
      subgroupName: 'Ops',
      role: 'member',
      at: new Date().toISOString(),
    } as const;
    await commands.executor.execute(accountStream(userId), accountDecider, join, { commandId: commands.ids.newId() });
    const user = api(apiKey);
    const ambiguous = await user.create(body());
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().error.message).toMatch(/subgroup_id is required/);
    const created = await user.create(body({ subgroup_id: join.subgroupId }));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ subgroup_id: join.subgroupId, organization_id: join.organizationId });
  });

  it('is described in the OpenAPI document', async () => {
    const paths = Object.keys((await svc.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/v1/webhooks', '/v1/webhooks/{id}', '/v1/webhooks/{id}/test', '/v1/webhooks/{id}/attempts']),
    );
  });

  it('deletes', async () => {
    const user = api((await svc.account()).apiKey);
    const { id } = (await user.create(body())).json();
    expect((await user.call('DELETE', `/v1/webhooks/${id}`)).statusCode).toBe(204);
    expect((await user.get(id)).statusCode).toBe(404);
    expect((await user.call('DELETE', `/v1/webhooks/${id}`)).statusCode).toBe(404);
    expect((await user.call('GET', '/v1/webhooks')).json().data).toEqual([]);
  });

  it('test events: the same envelope with synthetic: true, signed, recorded in the history; rotation signs with both secrets for a while', async () => {
    const user = api((await svc.account()).apiKey);
    const created = (await user.create(body({ alert_min_level: 'High' }))).json();
    const before = hook.received.length;
    const sent = await user.call('POST', `/v1/webhooks/${created.id}/test`);
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toMatchObject({ event_type: 'tx.policy.alert.triggered', status: 'pending', synthetic: true });
    const deliveryId = sent.json().delivery_id;

    const [delivery] = (await hook.waitFor(before + 1)).slice(before);
    const headers = delivery!.headers as Record<string, string>;
    expect(new Webhook(created.secret).verify(delivery!.body, headers)).toBeTruthy();
    expect(headers).toMatchObject({
      'x-service-event': 'tx.policy.alert.triggered',
      'x-service-delivery-id': deliveryId,
      'x-service-attempt': '1',
      'webhook-id': deliveryId,
    });
    expect(delivery!.json).toMatchObject({
      schema_version: 1,
      event_type: 'tx.policy.alert.triggered',
      delivery_id: deliveryId,
      attempt: 1,
    });
    const zero = '00000000-0000-0000-0000-000000000000';
    expect(delivery!.json.payload).toMatchObject({ synthetic: true, check_id: zero, subgroup_id: zero, worst_level: 'High' });
    expect(delivery!.json.payload.alerts).toEqual([
      expect.objectContaining({ category: 'Synthetic Test', riskLevel: 'High', direction: 'incoming' }),
    ]);

    const detail = await until(async () => {
      await svc.services.whenCaughtUp();
      const response = (await user.call('GET', `/v1/webhooks/${created.id}/deliveries/${deliveryId}`)).json();
      // The delivery and its attempts are two read models: wait until both show the delivered attempt.
      return response.status === 'delivered' && response.attempts?.length === 1 && response;
    });
    expect(detail).toMatchObject({
      delivery_id: deliveryId,
      synthetic: true,
      attempts: [expect.objectContaining({ attempt: 1, status: 'delivered', http_status: 200, error: null })],
    });
    expect(detail.attempts[0].payload_preview).toBe(delivery!.body.slice(0, 200));
    expect((await user.call('GET', `/v1/webhooks/${created.id}/attempts`)).json().data).toHaveLength(1);

    const rotated = await user.call('POST', `/v1/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const { secret, previous_secret_valid_until: validUntil } = rotated.json();
    expect(secret).not.toBe(created.secret);
    expect(Date.parse(validUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await user.get(created.id)).body).not.toContain(secret);
    await user.call('POST', `/v1/webhooks/${created.id}/test`, { event_type: 'service.check.high_risk' });
    const [after] = (await hook.waitFor(before + 2)).slice(before + 1);
    expect(after!.json).toMatchObject({ event_type: 'service.check.high_risk', payload: { synthetic: true, risk_level: 'high' } });
    const signed = after!.headers as Record<string, string>;
    expect(signed['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(after!.body, signed)).toBeTruthy();
    expect(new Webhook(created.secret).verify(after!.body, signed)).toBeTruthy();

    await user.call('POST', `/v1/webhooks/${created.id}/rotate-secret`, { previous_secret_valid_hours: 0 });
    await user.call('POST', `/v1/webhooks/${created.id}/test`);
    const [last] = (await hook.waitFor(before + 3)).slice(before + 2);
    expect(() => new Webhook(secret).verify(last!.body, last!.headers as Record<string, string>)).toThrow();
  });
});
