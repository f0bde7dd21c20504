import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { policyAlert, recordCompletedTransferCheck } from '../support/alert-fixtures.js';
import { givePassword, logIn, type DashboardSession } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The workbench keeps the dashboard's rules: pages need a session (else the login page), every change a
 * CSRF token (the screen form's field, the alert actions' header), and someone outside the subgroup
 * gets 404 for a case, its report and its actions; the CSP header is on every page.
 */
let svc: TestService;
let member: DashboardSession;
let stranger: DashboardSession;
let alertId: string;
const PASSWORD = 'workbench e2e password';

async function sessionFor(organization: boolean): Promise<{ session: DashboardSession; userId: string; keyId: string }> {
  const opened = await svc.account({ depositUsd: 5, organization });
  await givePassword(svc.services, opened.userId, PASSWORD);
  const email = (await svc.services.app.accounts.get(opened.userId))!.email;
  return { session: await logIn(svc.app, email, PASSWORD), userId: opened.userId, keyId: opened.keyId };
}

describe('dashboard workbench: sessions, CSRF and scope', () => {
  beforeAll(async () => {
    svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '12' });
    const owner = await sessionFor(true);
    member = owner.session;
    stranger = (await sessionFor(true)).session;
    const { state } = await svc.services.commands.executor.load(accountStream(owner.userId), accountDecider);
    await recordCompletedTransferCheck(svc.services, {
      checkId: '0193c000-0000-7000-8000-000000000001',
      requester: { channel: 'v2', userId: owner.userId, keyId: owner.keyId, subgroupId: state.memberships[0]!.subgroupId },
      alerts: [policyAlert('High', 'Mixer', madeUpEvmAddress('workbench-e2e:mixer'))],
    });
    await svc.services.whenCaughtUp();
    alertId = (await svc.services.app.alerts.cases.page([state.memberships[0]!.subgroupId], {}, { page: 1, pageSize: 1 })).rows[0]!.alertId;
  }, 60_000);
  afterAll(async () => svc?.close());

  it('pages without a session redirect to the login page', async () => {
    for (const url of [
      '/alerts',
      `/alerts/${alertId}`,
      '/screen',
      '/alerts/export.csv?since=2026-01-01&until=2026-12-31',
      '/account/usage.csv?since=2026-01-01&until=2026-12-31',
    ]) {
      const response = await svc.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(303);
      expect(response.headers.location).toMatch(/^\/login\?next=/);
    }
  });

  it('the member sees the case with the CSP header; a stranger gets 404 for the case, its report and its actions', async () => {
    const page = await svc.app.inject({ method: 'GET', url: `/alerts/${alertId}`, headers: { cookie: member.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('Mixer');
    for (const url of [`/alerts/${alertId}`, `/alerts/${alertId}/report`]) {
      expect((await svc.app.inject({ method: 'GET', url, headers: { cookie: stranger.cookie } })).statusCode).toBe(404);
    }
    const patch = await svc.app.inject({
      method: 'PATCH',
      url: `/api/alerts/${alertId}`,
      headers: { cookie: stranger.cookie, 'x-csrf-token': stranger.csrf },
      payload: { status: 'in_review' },
    });
    expect(patch.statusCode).toBe(404);
    const list = await svc.app.inject({ method: 'GET', url: '/alerts', headers: { cookie: stranger.cookie } });
    expect(list.body).not.toContain('Mixer');
  });

  it('alert actions need the CSRF header; with it the member triages', async () => {
    const without = await svc.app.inject({
      method: 'PATCH',
      url: `/api/alerts/${alertId}`,
      headers: { cookie: member.cookie },
      payload: { status: 'in_review' },
    });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.code).toBe('csrf_failed');
    const withToken = await svc.app.inject({
      method: 'PATCH',
      url: `/api/alerts/${alertId}`,
      headers: { cookie: member.cookie, 'x-csrf-token': member.csrf },
      payload: { status: 'in_review', assignee: 'none' },
    });
    expect(withToken.statusCode, withToken.body).toBe(200);
    expect(withToken.json()).toMatchObject({ status: 'in_review', assignee: null });
  });

  it('the screen form needs its CSRF field and charges nothing without it', async () => {
    const form = (fields: Record<string, string>) =>
      svc.app.inject({
        method: 'POST',
        url: '/screen',
        headers: { cookie: member.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    const address = madeUpEvmAddress('workbench-e2e:screened');
    const refused = await form({ address, network: 'ETH', kind: 'screen' });
    expect(refused.statusCode).toBe(403);
    const other = await form({ address, network: 'ETH', kind: 'screen', csrf: stranger.csrf });
    expect(other.statusCode).toBe(403);
    const today = new Date().toISOString().slice(0, 10);
    const usage = await svc.app.inject({
      method: 'GET',
      url: `/account/usage.csv?since=${today}&until=${today}`,
      headers: { cookie: member.cookie },
    });
    expect(usage.statusCode).toBe(200);
    expect(usage.body.trim().split('\r\n')).toEqual([expect.stringMatching(/^call_id,/)]);
    const screened = await form({ address, network: 'ETH', kind: 'screen', csrf: member.csrf });
    expect(screened.statusCode).toBe(200);
    expect(screened.body).toContain('Charged $0.10');
    await svc.services.whenCaughtUp(); // usage rows are a read model
    const after = await svc.app.inject({
      method: 'GET',
      url: `/account/usage.csv?since=${today}&until=${today}`,
      headers: { cookie: member.cookie },
    });
    expect(after.body.trim().split('\r\n')).toHaveLength(2);
    // A range over a year long is refused, not truncated silently.
    expect(
      (
        await svc.app.inject({
          method: 'GET',
          url: '/account/usage.csv?since=2020-01-01&until=2026-01-01',
          headers: { cookie: member.cookie },
        })
      ).statusCode,
    ).toBe(400);
  });
});
