import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { givePassword } from '../support/dashboard-login.js';
import { fixtureText, SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { entitledAccount, inspectClient, recordedProviderEnv, sourcesSubset } from '../support/inspect-harness.js';
import { startRecordedProviders, type RecordedProviders } from '../support/recorded-providers.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * History's verdict pages in Chromium for the kinds that had none: a light screen made through the API
 * (its verdict summary kept) and a multi-provider inspect (the engine and the recorded GoPlus and
 * Chainalysis answers on 127.0.0.1), and the end-date filter. Screenshots in test-artifacts/dashboard/.
 */
if (chromiumMissing) console.warn(`workbench history browser tests skipped: ${chromiumMissing}`);

const PASSWORD = 'password of the analyst';
const [SANCTIONED] = fixtureText('ofac-ultrasoundmoney-eth/data.csv')
  .split(/\r?\n/)
  .slice(1, 2)
  .map((line) => (line.split(',')[0] ?? '').toLowerCase()) as [string];

describe.skipIf(chromiumMissing !== null)('workbench: History verdict pages in Chromium', () => {
  let recorded: RecordedProviders;
  let sources: Awaited<ReturnType<typeof sourcesSubset>>;
  let svc: TestService;
  let browser: TestBrowser;
  let page: Page;
  let inspectId: string;
  let screenId: string;

  async function expectNoSidewaysScroll() {
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }

  /** The page at 1280 px and at 390 px, both screenshotted, nothing wider than the window. */
  async function atBothWidths(name: string) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectNoSidewaysScroll();
    await browser.screenshot(page, `${name}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    await browser.screenshot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  beforeAll(async () => {
    recorded = await startRecordedProviders();
    sources = await sourcesSubset(SOURCE_FIXTURES, ['ofac-ultrasoundmoney-eth']);
    svc = await startTestService({ ...recordedProviderEnv(recorded), SVC_SOURCES_DIR: sources.dir, SVC_PASSWORD_SCRYPT_LOG_N: '12' });
    recorded.answer('goplus', { fixture: 'goplus/address-security.flagged.json' }, SANCTIONED);
    recorded.answer('chainalysis', { fixture: 'chainalysis/address.sanctioned.json' }, SANCTIONED);
    const { userId, apiKey } = await entitledAccount(svc);
    const headers = { authorization: `Bearer ${apiKey}` };
    const screened = await svc.app.inject({ method: 'POST', url: '/v2/screen', headers, payload: { address: SANCTIONED, network: 'ETH' } });
    expect(screened.statusCode).toBe(200);
    const inspected = await inspectClient(svc, apiKey).inspect({ address: SANCTIONED, network: 'ETH' });
    expect(inspected.statusCode).toBe(200);
    inspectId = inspected.json<{ check_id: string }>().check_id;
    await svc.services.whenCaughtUp();
    const usage = (await svc.app.inject({ method: 'GET', url: '/v2/me/usage', headers })).json<{
      rows: { call_id: string; product: string }[];
    }>();
    screenId = usage.rows.find((row) => row.product === 'screen')?.call_id ?? '';
    await givePassword(svc.services, userId, PASSWORD);
    const email = (await svc.services.app.accounts.get(userId))?.email ?? '';
    browser = await launchBrowser(await svc.app.listen({ host: '127.0.0.1', port: 0 }));
    page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/history');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/history$/);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await recorded?.close();
    await sources?.remove();
  });

  it("History shows the light screen's stored risk level and the inspect's worst level", async () => {
    const rows = (await page.getByRole('row').allTextContents()).slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.includes('Light screen'))).toContain('sanctioned');
    expect(rows.find((row) => row.includes('Inspect'))).toContain('sanctioned');
    await page.getByLabel('Risk level').selectOption('sanctioned');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await page.getByRole('row').allTextContents()).length).toBe(3);
    await atBothWidths('workbench-20-history-levels');
  });

  it('the light screen row opens its stored verdict: level, score and the sanctions match', async () => {
    await page.goto('/history?kind=screen');
    await page.getByRole('row').nth(1).getByRole('link').click();
    await page.waitForURL(new RegExp(`/checks/screen/${screenId}$`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Light screen');
    expect(await page.textContent('main')).toContain(SANCTIONED);
    const match = (await page.locator('section.sanctions').textContent()) ?? '';
    expect(match).toMatch(/List\s*US/);
    expect(await page.locator('.stat').first().textContent()).toContain('sanctioned');
    await atBothWidths('workbench-21-stored-screen');
    // Someone else's screen, or one that does not exist: a plain 404 page.
    const missing = await page.goto('/checks/screen/00000000-0000-0000-0000-000000000000');
    expect(missing?.status()).toBe(404);
    browser.problems.length = 0; // the 404 load is logged by Chromium
  });

  it('the inspect row opens its verdict: the decision, each provider, shown again at no cost', async () => {
    await page.goto('/history?kind=inspect');
    await page.getByRole('row').nth(1).getByRole('link').click();
    await page.waitForURL(new RegExp(`/checks/inspect/${inspectId}$`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Inspect');
    const main = (await page.textContent('main')) ?? '';
    expect(main).toContain('do not deal');
    expect(main).toContain('Already charged');
    expect(await page.locator('tbody tr td:first-child').allTextContents()).toEqual(['service', 'provider_a', 'provider_b']);
    await atBothWidths('workbench-22-inspect');
    expect(browser.problems).toEqual([]);
  });

  it("the end date keeps its whole day: today's checks up to today, none up to yesterday", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.goto('/history');
    await page.getByLabel('To').fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await page.getByRole('row').allTextContents()).length).toBe(3);
    expect(page.url()).toContain(`to=${today}`);
    await page.getByLabel('To').fill(yesterday);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.textContent('main')).toContain('No checks match.');
    expect(await page.getByLabel('To').inputValue()).toBe(yesterday);
    await atBothWidths('workbench-23-history-to');
  });

  it('Usage takes an end day too: up to yesterday nothing, up to today both calls', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.goto('/account/usage');
    await page.getByRole('textbox', { name: /^To keeps calls/ }).fill(yesterday);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`No recorded calls up to ${yesterday}.`);
    await page.getByRole('textbox', { name: /^To keeps calls/ }).fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await page.locator('tbody tr').allTextContents()).length).toBe(2);
    expect(page.url()).toContain(`to=${today}`);
    await atBothWidths('workbench-24-usage-to');
  });
});
