import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantSuperAdmin, joinSubgroup } from '../../commands/memberships.commands.js';
import { givePassword, logIn, type DashboardSession } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/webhook-events.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * The dashboard's webhooks page and /api/webhooks on the webhooks module's commands, against a real
 * receiver on 127.0.0.1: the actions, the delivery history, and who gets 404.
 */
const PASSWORD = 'a long enough password';
let svc: TestService;
let receiver: Receiver;
beforeAll(async () => {
  svc = await startTestService({
    SVC_PASSWORD_SCRYPT_LOG_N: '10',
    WEBHOOK_ALLOW_LOCAL: '1',
    WEBHOOK_RETRY_SCALE: '0.0001',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await svc.close();
});

async function user(options: { organization?: boolean } = {}) {
  const { userId } = await svc.account(options);
  const account = (await svc.services.repositories.accounts.get(userId))!;
  await givePassword(svc.services, userId, PASSWORD);
  const session = await logIn(svc.app, account.email, PASSWORD);
  return { userId, membership: account.memberships[0], session };
}

const call = (session: DashboardSession, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload: object = {}) =>
  svc.app.inject({ method, url, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf }, payload });
const page = (session: DashboardSession, url: string) => svc.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

/** The page once its history shows `text` (bounded polling: the attempt is recorded after the answer). */
const historyShows = (session: DashboardSession, subgroupId: string, text: RegExp) =>
  until(async () => {
    await svc.services.whenCaughtUp();
    const body = (await page(session, `/webhooks?subgroup=${subgroupId}`)).body;
    return text.test(body) && body;
  });

describe('webhooks page', () => {
  it('creates, edits, rotates, tests and shows the delivery in the history', async () => {
    const owner = await user();
    const subgroupId = owner.membership!.subgroupId;
    const created = await call(owner.session, 'POST', '/api/webhooks', {
      url: receiver.url,
      event_types: ['tx.policy.alert.triggered'],
      subgroup_id: subgroupId,
      description: 'compliance inbox',
    });
    expect(created.statusCode).toBe(201);
    const subscription = created.json();
    expect(subscription.secret).toMatch(/^whsec_/);
    const listed = (await page(owner.session, '/webhooks')).body;
    expect(listed).toContain(receiver.url);
    expect(listed).toContain('compliance inbox');
    expect(listed).not.toContain(subscription.secret);

    const edited = await call(owner.session, 'PATCH', `/api/webhooks/${subscription.id}`, {
      event_types: ['tx.policy.alert.triggered', 'service.check.high_risk'],
      alert_min_level: 'High',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ event_types: ['tx.policy.alert.triggered', 'service.check.high_risk'], alert_min_level: 'High' });
    expect((await page(owner.session, '/webhooks')).body).toContain('minimum level High');

    const rotated = await call(owner.session, 'POST', `/api/webhooks/${subscription.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(subscription.secret);

    const before = receiver.received.length;
    const test = await call(owner.session, 'POST', '/api/webhooks/test', { subscription_id: subscription.id });
    expect(test.statusCode).toBe(202);
    const { delivery_id: deliveryId } = test.json();
    const [arrived] = (await receiver.waitFor(before + 1)).slice(before);
    expect(arrived!.json.delivery_id).toBe(deliveryId);
    expect(arrived!.json.payload.synthetic).toBe(true);
    const history = await historyShows(owner.session, subgroupId, new RegExp(`<tr data-delivery="${deliveryId}">[\\s\\S]*?delivered`));
    const row = new RegExp(`<tr data-delivery="${deliveryId}">[\\s\\S]*?</tr>`).exec(history)![0];
    expect(row).toContain('<td class="num" data-label="HTTP">200</td>');
    expect(row).toContain('tx.policy.alert.triggered');
    expect(row).toContain('&quot;schema_version&quot;:1');

    expect((await call(owner.session, 'DELETE', `/api/webhooks/${subscription.id}`)).statusCode).toBe(200);
    expect((await page(owner.session, '/webhooks')).body).not.toContain(receiver.url);
  });

  it('shows the refusal of a target URL and of an empty set of event types', async () => {
    const owner = await user();
    const refused = await call(owner.session, 'POST', '/api/webhooks', {
      url: 'http://10.1.2.3/hook',
      event_types: ['service.bfs.failed'],
      subgroup_id: owner.membership!.subgroupId,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('webhook_target_refused');
    const empty = await call(owner.session, 'POST', '/api/webhooks', {
      url: receiver.url,
      event_types: [],
      subgroup_id: owner.membership!.subgroupId,
    });
    expect(empty.statusCode).toBe(422);
  });

  it('a user without any subgroup is told how to get one', async () => {
    const loner = await user({ organization: false });
    const response = await page(loner.session, '/webhooks');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('your account belongs to none yet');
  });
});

describe('who may act on a subgroup’s webhooks', () => {
  async function ownedWebhook() {
    const owner = await user();
    const subgroupId = owner.membership!.subgroupId;
    const created = await call(owner.session, 'POST', '/api/webhooks', {
      url: receiver.url,
      event_types: ['service.bfs.failed'],
      subgroup_id: subgroupId,
    });
    expect(created.statusCode).toBe(201);
    return { owner, membership: owner.membership!, id: created.json().id as string };
  }

  async function expectNotFound(session: DashboardSession, subgroupId: string, id: string) {
    const shown = await page(session, `/webhooks?subgroup=${subgroupId}`);
    expect(shown.statusCode).toBe(404);
    expect(shown.headers['content-type']).toMatch(/^text\/html/);
    expect(shown.body).not.toContain(receiver.url);
    for (const [method, url, payload] of [
      ['POST', '/api/webhooks/test', { subscription_id: id }],
      ['PATCH', `/api/webhooks/${id}`, { alert_min_level: 'Low' }],
      ['POST', `/api/webhooks/${id}/rotate-secret`, {}],
      ['DELETE', `/api/webhooks/${id}`, {}],
    ] as const) {
      const response = await call(session, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect((await page(session, '/webhooks?subgroup=no-such-subgroup')).statusCode).toBe(404);
  }

  it('a user of another organization gets 404 for the page and every action', async () => {
    const { membership, id } = await ownedWebhook();
    const stranger = await user();
    await expectNotFound(stranger.session, membership.subgroupId, id);
  });

  it('a plain member of a sibling subgroup gets 404; a member of the owning subgroup may act', async () => {
    const { membership, id } = await ownedWebhook();
    const sibling = await user({ organization: false });
    await svc.services.app.whenProjected(
      await joinSubgroup(svc.services.commands, sibling.userId, {
        ...membership,
        subgroupId: `${membership.subgroupId}-sibling`,
        subgroupName: 'Sibling',
        role: 'member',
      }),
    );
    await expectNotFound(sibling.session, membership.subgroupId, id);

    const colleague = await user({ organization: false });
    await svc.services.app.whenProjected(await joinSubgroup(svc.services.commands, colleague.userId, { ...membership, role: 'member' }));
    expect((await page(colleague.session, '/webhooks')).body).toContain(receiver.url);
    expect((await call(colleague.session, 'POST', '/api/webhooks/test', { subscription_id: id })).statusCode).toBe(202);
  });

  it('a group admin of the organization and a platform super-admin may act without being members', async () => {
    const { membership, id } = await ownedWebhook();
    const admin = await user({ organization: false });
    await svc.services.app.whenProjected(
      await joinSubgroup(svc.services.commands, admin.userId, {
        ...membership,
        subgroupId: `${membership.subgroupId}-admins`,
        subgroupName: 'Admins',
        role: 'group_admin',
      }),
    );
    const superAdmin = await user({ organization: false });
    await svc.services.app.whenProjected(await grantSuperAdmin(svc.services.commands, superAdmin.userId));
    for (const actor of [admin, superAdmin]) {
      const shown = await page(actor.session, `/webhooks?subgroup=${membership.subgroupId}`);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain(receiver.url);
      expect(shown.body).toContain('Only members of this subgroup add webhooks to it.');
      expect((await call(actor.session, 'PATCH', `/api/webhooks/${id}`, { alert_min_level: 'Severe' })).statusCode).toBe(200);
      expect((await call(actor.session, 'POST', '/api/webhooks/test', { subscription_id: id })).statusCode).toBe(202);
    }
  });
});
