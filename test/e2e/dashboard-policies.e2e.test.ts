import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { evaluateFacts } from '../../domain/kyt/policy-engine.js';
import { STANDARD_POLICY } from '../../domain/kyt/standard-policy.js';
import { recordCompletedTransferCheck, stolenFundsFact } from '../support/alert-fixtures.js';
import { givePassword, logIn, type DashboardSession } from '../support/dashboard-login.js';
import { formFields, withFields } from '../support/html-form.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Policies in the workbench, through the real server and its forms as a browser would post them: the
 * list, a new draft, the editor refusing bad entries next to the field concerned (422, the form kept as
 * typed), a saved edit in the history (who, why), a backtest whose job page compares the draft with the
 * active policy and links the affected check, activation; CSRF on every form, 404 for anyone outside the
 * subgroup, and stored text shown escaped.
 */
const PASSWORD = 'policies workbench e2e password';
const CHECK_ID = '0193c000-0000-7000-8000-0000000000a1';
const XSS_NAME = '<script>alert(1)</script>Tuned';
const XSS_REASON = '<img src=x onerror=alert(2)> lower I2';

let svc: TestService;
let member: DashboardSession;
let stranger: DashboardSession;
let subgroupId: string;
let policyId: string;
let editUrl: string;

async function sessionFor(): Promise<{ session: DashboardSession; userId: string; keyId: string }> {
  const opened = await svc.account({ depositUsd: 5, organization: true });
  await givePassword(svc.services, opened.userId, PASSWORD);
  const email = (await svc.services.app.accounts.get(opened.userId))!.email;
  return { session: await logIn(svc.app, email, PASSWORD), userId: opened.userId, keyId: opened.keyId };
}

const get = (url: string, session: DashboardSession = member) =>
  svc.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
const post = (url: string, body: string, session: DashboardSession = member) =>
  svc.app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('dashboard workbench: policies', () => {
  beforeAll(async () => {
    svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '12' });
    const owner = await sessionFor();
    member = owner.session;
    stranger = (await sessionFor()).session;
    const { state } = await svc.services.commands.executor.load(accountStream(owner.userId), accountDecider);
    subgroupId = state.memberships[0]!.subgroupId;
    const facts = [stolenFundsFact('dashboard-policies:sender')];
    const standard = evaluateFacts(STANDARD_POLICY, facts);
    await recordCompletedTransferCheck(svc.services, {
      checkId: CHECK_ID,
      requester: { channel: 'v2', userId: owner.userId, keyId: owner.keyId, subgroupId },
      alerts: standard.alerts,
      explanations: standard.matches.map((m) => ({ rule_id: m.ruleId, category_slug: m.categorySlug })),
      facts,
    });
    await svc.services.whenCaughtUp();
    // An analyst closed the standard policy's Low alert as a real finding.
    const alertId = (await svc.services.app.alerts.cases.page([subgroupId], {}, { page: 1, pageSize: 1 })).rows[0]!.alertId;
    const closed = await svc.app.inject({
      method: 'PATCH',
      url: `/api/alerts/${alertId}`,
      headers: { cookie: member.cookie, 'x-csrf-token': member.csrf },
      payload: { status: 'closed', reason: 'flagged', note: 'exploit proceeds' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await svc.services.whenCaughtUp();
  }, 60_000);
  afterAll(async () => svc?.close());

  it('lists the standard policy as active, with the navigation link and the CSP header', async () => {
    const page = await get('/policies');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<a href="/policies" aria-current="page">Policies</a>');
    expect(page.body).toMatch(/<a href="\/policies\/standard\?subgroup_id=[^"]+">standard<\/a> <span class="badge ok">active<\/span>/);
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('creates a draft only with the CSRF field; the name is shown escaped', async () => {
    const fields = { name: XSS_NAME, reason: 'start from the standard rules', based_on: 'standard' };
    expect((await post(`/policies?subgroup_id=${subgroupId}`, form(fields))).statusCode).toBe(403);
    expect((await post(`/policies?subgroup_id=${subgroupId}`, form({ ...fields, csrf: stranger.csrf }))).statusCode).toBe(403);
    const noReason = await post(`/policies?subgroup_id=${subgroupId}`, form({ ...fields, reason: '', csrf: member.csrf }));
    expect(noReason.statusCode).toBe(422);
    expect(noReason.body).toMatch(/<p class="field-error" id="err-reason" role="alert">/);
    const created = await post(`/policies?subgroup_id=${subgroupId}`, form({ ...fields, csrf: member.csrf }));
    expect(created.statusCode, created.body).toBe(303);
    editUrl = created.headers.location as string;
    policyId = /^\/policies\/([^/]+)\/edit\?/.exec(editUrl)![1]!;
    const list = await get('/policies');
    expect(list.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;Tuned');
    expect(list.body).not.toContain(XSS_NAME);
  });

  it('refuses bad rule entries next to their fields with 422, keeping what was typed, then saves a good edit', async () => {
    const editor = await get(editUrl);
    expect(editor.statusCode).toBe(200);
    const fields = formFields(editor.body, `/policies/${policyId}/edit`);
    const rowOf = (id: string) => /^rules\.(\d+)\.id$/.exec(fields.find(([n, v]) => /^rules\.\d+\.id$/.test(n) && v === id)![0])![1];
    const i2 = rowOf('I2');
    const d1 = rowOf('D1');
    const refused = await post(
      editUrl,
      withFields(fields, {
        [`rules.${i2}.min_usd`]: 'lots',
        [`rules.${d1}.min_share_percent`]: '150',
        [`rules.${d1}.slugs`]: 'no_such_category',
        reason: 'x',
      }),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(
      new RegExp(`id="rules\\.${i2}\\.min_usd" name="rules\\.${i2}\\.min_usd" value="lots"[^>]*aria-invalid="true"`),
    );
    expect(refused.body).toContain(
      `<p class="field-error" id="err-rules.${i2}.min_usd" role="alert">enter a number, such as 1000 or 2.5</p>`,
    );
    expect(refused.body).toContain(`<p class="field-error" id="err-rules.${d1}.min_share_percent" role="alert">`);
    // Checked by the rules' checks once the shapes are right: an unknown category, next to the categories.
    const unknown = await post(editUrl, withFields(fields, { [`rules.${d1}.slugs`]: 'no_such_category', reason: 'x' }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toMatch(new RegExp(`id="err-rules\\.${d1}\\.categories" role="alert">unknown category no_such_category`));

    const saved = await post(editUrl, withFields(fields, { [`rules.${i2}.min_usd`]: '5000', reason: XSS_REASON }));
    expect(saved.statusCode, saved.body).toBe(303);
    const page = await get(saved.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&lt;img src=x onerror=alert(2)&gt; lower I2');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toMatch(/edited the draft/);
    expect(page.body).toMatch(/<td data-label="USD ≥" class="num">5,000<\/td>/);
  });

  it('edits need the CSRF field', async () => {
    const fields = formFields((await get(editUrl)).body, `/policies/${policyId}/edit`);
    const body = withFields(fields, { reason: 'no token' }).replace(/(^|&)csrf=[^&]*/, '');
    expect((await post(editUrl, body)).statusCode).toBe(403);
  });

  it('backtests the draft: the job page compares it with the active policy and links the affected check', async () => {
    const url = `/policies/${policyId}/backtest?subgroup_id=${subgroupId}`;
    const reversed = await post(url, form({ csrf: member.csrf, from: '2026-12-02', to: '2026-12-01', version: '' }));
    expect(reversed.statusCode).toBe(422);
    expect(reversed.body).toContain('<p class="field-error" id="err-from" role="alert">from must be before to</p>');
    const today = Date.now();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const started = await post(url, form({ csrf: member.csrf, from: day(today - 86_400_000), to: day(today + 86_400_000), version: '' }));
    expect(started.statusCode, started.body).toBe(303);
    const jobUrl = started.headers.location as string;
    let page = await get(jobUrl);
    for (let i = 0; i < 50 && page.body.includes('data-status="running"'); i++) {
      expect(page.body).toContain('<meta http-equiv="refresh"');
      await new Promise((resolve) => setTimeout(resolve, 100));
      page = await get(jobUrl);
    }
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-status="completed"');
    expect(page.body).toContain(
      `<h1>Backtest of &lt;script&gt;alert(1)&lt;/script&gt;Tuned draft <code class="hint">${policyId}</code></h1>`,
    );
    expect(page.body).toMatch(/<dt>Changed level<\/dt><dd>1<\/dd>/);
    expect(page.body).toMatch(/<dt>New alerts<\/dt><dd>0 /);
    expect(page.body).toContain('<dt>Flagged by analysts</dt><dd>1 of 1 still alerted</dd>');
    expect(page.body).toMatch(/<th scope="row">Raised when checked<\/th><td class="num" data-label="Low">1<\/td>/);
    expect(page.body).toContain(`<a href="/checks/transfer/${CHECK_ID}">${CHECK_ID}</a>`);
    expect(page.body).toMatch(
      /<code>I2<\/code><\/td><td data-label="Level"><span class="badge [a-z]+" data-level="High">High<\/span><\/td>\s*<td class="num" data-label="Backtested">1<\/td><td class="num" data-label="Active policy">0<\/td>/,
    );
    expect((await get(jobUrl, stranger)).statusCode).toBe(404);
  });

  it('activates the draft (a reason is required) and the list shows it active in version 1', async () => {
    const url = `/policies/${policyId}/activate?subgroup_id=${subgroupId}`;
    const noReason = await post(url, form({ csrf: member.csrf, version: '', reason: '' }));
    expect(noReason.statusCode).toBe(422);
    expect(noReason.body).toContain('<p class="field-error" id="err-reason" role="alert">');
    expect((await post(url, form({ version: '', reason: 'approved' }))).statusCode).toBe(403);
    const activated = await post(url, form({ csrf: member.csrf, version: '', reason: 'approved by the MLRO' }));
    expect(activated.statusCode, activated.body).toBe(303);
    const page = await get(activated.headers.location as string);
    expect(page.body).toContain('<span class="badge ok">active</span> version 1');
    expect(page.body).toMatch(/activated version <strong>1<\/strong>/);
    const list = await get('/policies');
    expect(list.body).toMatch(/&lt;\/script&gt;Tuned<\/a> <span class="badge ok">active<\/span>/);
  });

  it('hides the subgroup’s policies from anyone outside it (404), for pages and forms alike', async () => {
    for (const url of [
      `/policies/${policyId}`,
      `/policies/${policyId}/edit`,
      `/policies?subgroup_id=${subgroupId}`,
      `/policies/standard?subgroup_id=${subgroupId}`,
      `/policies/${'x'.repeat(101)}`,
      `/policies/backtests/${'x'.repeat(101)}`,
    ])
      expect((await get(url, stranger)).statusCode, url).toBe(404);
    for (const action of ['edit', 'activate', 'backtest'])
      expect(
        (await post(`/policies/${policyId}/${action}`, form({ csrf: stranger.csrf, reason: 'x', row_count: '0' }), stranger)).statusCode,
        action,
      ).toBe(404);
    const own = await get('/policies', stranger);
    expect(own.statusCode).toBe(200);
    expect(own.body).not.toContain('Tuned');
  });
});
