import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, ensureDemoAccount } from '../../infra/startup/demo-account.js';
import { ensureDemoPassword } from '../../infra/startup/demo-password.js';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { givePassword } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the whole service
 * listening on 127.0.0.1: log in, generate a key and screen with it, revoke it and see 401, usage, a webhook
 * to a local receiver with a test event seen in the delivery history, and a non-member getting 404.
 * Screenshots of each page go to test-artifacts/dashboard/.
 */
if (chromiumMissing) console.warn(`dashboard browser tests skipped: ${chromiumMissing}`);

const DEMO_PASSWORD = 'demo password for the browser';
const OTHER_PASSWORD = 'password of a stranger';
const SCREENED = '0x00000000000000000000000000000000beefcafe';

describe.skipIf(chromiumMissing !== null)('dashboard in Chromium', () => {
  let svc: TestService;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let newKey: string;
  let receiver: Receiver;
  let webhookId: string;

  const screen = (apiKey: string) =>
    fetch(`${base}/v2/screen`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: SCREENED, network: 'ETH' }),
    });

  /** Readable on a phone: nothing makes the page scroll sideways (wide tables scroll inside their box). */
  async function expectNoSidewaysScroll() {
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }

  async function logIn(email: string, password: string) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  beforeAll(async () => {
    svc = await startTestService({ SVC_DEMO_PASSWORD: DEMO_PASSWORD, SVC_PASSWORD_SCRYPT_LOG_N: '12', WEBHOOK_ALLOW_LOCAL: '1' });
    await ensureDemoAccount(svc.services);
    await ensureDemoPassword(svc.services);
    base = await svc.app.listen({ host: '127.0.0.1', port: 0 });
    receiver = await startReceiver();
    browser = await launchBrowser(base);
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await svc?.close();
  });

  it('refuses a wrong password with a clear message, then logs the demo account in', async () => {
    await page.goto('/');
    await expect.poll(() => page.url()).toBe(`${base}/login`);
    await browser.screenshot(page, '01-login');
    await logIn(DEMO_EMAIL, 'not the password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong email address or password.');
    await browser.screenshot(page, '02-login-error');
    browser.problems.length = 0; // the 401 of the refused login is logged by Chromium as a failed load
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(`${base}/account/api`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Account');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
  });

  it('generates a key shown once with a copy button; the key screens', async () => {
    // From the keyboard: every control is a native button, link or input.
    await page.getByRole('button', { name: 'Generate a new key' }).focus();
    await page.keyboard.press('Enter');
    const secret = page.getByLabel('New API key', { exact: true });
    await secret.waitFor({ state: 'visible' });
    newKey = await secret.inputValue();
    expect(newKey).toMatch(/^svc_[0-9A-Za-z]{44}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('[data-copy-status]').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newKey);
    const row = page.locator(`tr[data-key-prefix="${newKey.slice(4, 8)}"]`);
    await expect.poll(() => row.textContent()).toContain('Active');
    await browser.screenshot(page, '03-api-keys-new-key');

    const screened = await screen(newKey);
    expect(screened.status).toBe(200);
    expect((await screened.json()).address).toBe(SCREENED);
    await page.reload();
    expect(await page.getByLabel('New API key', { exact: true }).isVisible()).toBe(false);
    expect(await page.content()).not.toContain(newKey);
  });

  it('revokes the key from the list: the next call with it is 401', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Revoke key svc_${newKey.slice(4, 8)}…` }).click();
    const row = page.locator(`tr[data-key-prefix="${newKey.slice(4, 8)}"]`);
    await expect.poll(() => row.textContent()).toContain('Revoked');
    await browser.screenshot(page, '04-api-keys-revoked');
    const refused = await screen(newKey);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('invalid_api_key');
  });

  it('shows usage: the screened call in the rows and in the per-day charts', async () => {
    await svc.services.whenCaughtUp();
    await page.getByRole('link', { name: 'Usage' }).first().click();
    await page.waitForURL(`${base}/account/usage`);
    expect(await page.locator('table').textContent()).toContain(SCREENED);
    expect(await page.locator('figure.chart').count()).toBe(2);
    expect(await page.locator('figure.chart rect').count()).toBe(60);
    await browser.screenshot(page, '05-usage');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    // The key column stays in view on a phone: each row's cells stack under their column's name.
    const charged = page.locator('td[data-label="Charged"]').first();
    const box = (await charged.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await charged.textContent()).toBe('$0.10');
    await browser.screenshot(page, '06-usage-phone');
    await page.goto('/account/api');
    await expectNoSidewaysScroll();
    await browser.screenshot(page, '07-api-keys-phone');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('creates a webhook to a local receiver, edits it, rotates its secret, and sees a test event in the history', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${base}/webhooks`);
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('Compliance inbox');
    await page.getByLabel('Minimum alert level').selectOption('High');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByLabel('Signing secret of the new webhook', { exact: true }).locator('input');
    await secret.waitFor({ state: 'visible' });
    expect(await secret.inputValue()).toMatch(/^whsec_/);
    const card = page.locator('article', { hasText: receiver.url });
    await card.waitFor();
    webhookId = (await card.getAttribute('id'))!.slice('webhook-'.length);
    await browser.screenshot(page, '08-webhooks-created');

    await card.getByText('Edit event types, level and URL').click();
    await card.getByLabel('Address check found high risk').check();
    await card.getByLabel('Minimum alert level').selectOption('Low');
    await card.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator(`#webhook-${webhookId} p.hint`).first().textContent()).toContain('minimum level Low');
    await expect.poll(() => page.locator(`#webhook-${webhookId} p.hint`).first().textContent()).toContain('service.check.high_risk');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Rotate the secret of ${receiver.url}` }).click();
    const rotated = page.locator(`#secret-${webhookId}-value`);
    await rotated.waitFor({ state: 'visible' });
    expect(await rotated.inputValue()).toMatch(/^whsec_/);
    expect(await rotated.inputValue()).not.toBe(await secret.inputValue());

    await page.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
    const [arrived] = await receiver.waitFor(1);
    expect(arrived!.json.payload.synthetic).toBe(true);
    // The page re-renders the history by itself until the attempt shows up.
    const row = page.locator(`#history-${webhookId} tr[data-delivery="${arrived!.json.delivery_id}"]`);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('delivered');
    expect(await row.textContent()).toContain('200');
    expect(await row.textContent()).toContain('"schema_version":1');
    await browser.screenshot(page, '09-webhooks-test-delivered');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    await browser.screenshot(page, '10-webhooks-phone');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('a hundred deliveries keep the webhooks page short: previews open on demand, the history scrolls in its box', async () => {
    // Fill the history: 60 more test events (61 attempts with the first), as a busy endpoint would have.
    await page.evaluate(async (subscriptionId) => {
      const csrf = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!;
      for (let i = 0; i < 60; i++) {
        await fetch('/api/webhooks/test', {
          method: 'POST',
          headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
          body: JSON.stringify({ subscription_id: subscriptionId }),
        });
      }
    }, webhookId);
    await receiver.waitFor(61);
    await svc.services.whenCaughtUp();
    const rows = page.locator(`#history-${webhookId} tbody tr`);
    for (const width of [1200, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/webhooks');
      await expect.poll(() => rows.count()).toBe(61);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height, `page height at ${width} px`).toBeLessThan(width === 390 ? 3_200 : 2_000);
      await expectNoSidewaysScroll();
    }
    // One preview opened shows the 200 characters the history keeps.
    const first = rows.first().locator('details.preview');
    await first.locator('summary').click();
    expect(await first.locator('summary + code').textContent()).toMatch(/^\{"schema_version":1/);
    await browser.screenshot(page, '10b-webhooks-history-phone');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('has no console errors on the way', () => {
    expect(browser.problems).toEqual([]);
  });

  it('a user outside the demo’s organization gets 404 for its key, its webhooks page and the test action', async () => {
    const demo = (await svc.services.repositories.accounts.byEmail(DEMO_EMAIL))!;
    const demoKey = (await svc.services.repositories.apiKeys.listForUser(demo.userId)).find((k) => !k.revokedAt)!;
    const stranger = await svc.account();
    const email = (await svc.services.repositories.accounts.get(stranger.userId))!.email;
    await givePassword(svc.services, stranger.userId, OTHER_PASSWORD);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${base}/login`);
    await logIn(email, OTHER_PASSWORD);
    await page.waitForURL(`${base}/account/api`);
    const status = await page.evaluate(async (keyId) => {
      const csrf = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!;
      const response = await fetch(`/api/keys/${keyId}`, {
        method: 'DELETE',
        headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: '{}',
      });
      return response.status;
    }, demoKey.keyId);
    expect(status).toBe(404);
    expect((await svc.services.repositories.apiKeys.listForUser(demo.userId)).find((k) => k.keyId === demoKey.keyId)!.revokedAt).toBeNull();

    const demoSubgroup = demo.memberships[0]!.subgroupId;
    const shown = await page.goto(`/webhooks?subgroup=${demoSubgroup}`);
    expect(shown!.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    expect(await page.content()).not.toContain(receiver.url);
    await browser.screenshot(page, '11-not-found-for-a-non-member');
    const test = await page.evaluate(async (subscriptionId) => {
      const csrf = document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!;
      const response = await fetch('/api/webhooks/test', {
        method: 'POST',
        headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription_id: subscriptionId }),
      });
      return { status: response.status, body: await response.json() };
    }, webhookId);
    expect(test).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'no such webhook subscription' } } });
    expect(receiver.received).toHaveLength(61);
  });
});
