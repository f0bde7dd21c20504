import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { givePassword } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The API reference at /docs in Chromium: reached from the dashboard's navigation, it renders every
 * operation of the served OpenAPI document under the page's strict CSP (a blocked script or style would
 * be a console error), and "Try it out" reaches the service; the x402 app's /docs renders its own
 * document. Screenshots in test-artifacts/docs/.
 */
if (chromiumMissing) console.warn(`docs browser tests skipped: ${chromiumMissing}`);

const PASSWORD = 'password of the reader';
const ARTIFACTS = join('test-artifacts', 'docs');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** The x402 channel on, with a chain nobody answers on: its document and /docs need no payment. */
const X402_ENV = {
  X402_PAY_TO: madeUpEvmAddress('docs-pay-to'),
  X402_RPC_URL: 'http://127.0.0.1:9',
  X402_GAS_WALLET_KEY: `0x${'11'.repeat(32)}`,
};

const operationsOf = (document: { paths: Record<string, Record<string, unknown>> }) =>
  Object.values(document.paths).flatMap((item) => Object.keys(item).filter((key) => METHODS.includes(key)));

describe.skipIf(chromiumMissing !== null)('API docs page in Chromium', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let page: Page;
  let email: string;
  let x402: FastifyInstance;

  beforeAll(async () => {
    svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '12', ...X402_ENV });
    const x402Services = svc.services.x402.app;
    if (!x402Services) throw new Error('the x402 app is not configured');
    x402 = await buildX402App(x402Services);
    const opened = await svc.account({ depositUsd: 5 });
    const account = await svc.services.app.accounts.get(opened.userId);
    if (!account) throw new Error('the account was not projected');
    email = account.email;
    await givePassword(svc.services, opened.userId, PASSWORD);
    browser = await launchBrowser(await svc.app.listen({ host: '127.0.0.1', port: 0 }));
    page = await browser.newPage();
    await mkdir(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await x402?.close();
    await svc?.close();
  });

  it('is linked from the dashboard and renders every operation of the document, with nothing blocked', async () => {
    await page.goto('/account/api');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/account\/api$/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API docs' }).click();
    await page.waitForURL(/\/docs$/);

    const document = (await svc.app.inject({ url: '/v2/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(10);
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 15_000 }).toBe(operations.length);
    expect(await page.locator('.info .title').textContent()).toContain('Risk screening service');
    await expect.poll(() => page.locator('.opblock-summary-path').filter({ hasText: '/v2/screen' }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, '01-docs.png'), fullPage: false });
    expect(browser.problems).toEqual([]);
  });

  it('"Try it out" calls the service from the page (the CSP lets it reach its own origin only)', async () => {
    const health = page.locator('.opblock').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/v2\/health$/ }) });
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await expect
      .poll(() => health.locator('.live-responses-table tr.response .response-col_status').first().textContent())
      .toContain('200');
    await health.screenshot({ path: join(ARTIFACTS, '02-try-health.png') });
    expect(browser.problems).toEqual([]);
  });

  it("the x402 app's /docs renders its own document (paid and free routes), with nothing blocked", async () => {
    const base = await x402.listen({ host: '127.0.0.1', port: 0 });
    const document = (await x402.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(3);
    await page.goto(`${base}/docs`);
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 15_000 }).toBe(operations.length);
    await expect.poll(() => page.locator('.opblock-summary-path').filter({ hasText: '/screen/' }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, '03-x402-docs.png'), fullPage: false });
    expect(browser.problems).toEqual([]);
  });
});
