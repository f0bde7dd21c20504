import { readFileSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { givePassword } from '../support/dashboard-login.js';
import { PARTIES, writeFullCheckSources } from '../support/full-check-data.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Screening from the workbench in Chromium, on the tests' own sources (made-up addresses in the official
 * formats): the full-check graph (test/support/full-check-data.ts) and the official-format OFAC fixture.
 * A light screen of a listed address shows its sanctions match; a full check of `d` shows its tiers and
 * a drawn route to the stolen-funds address; both calls appear in Usage. Screenshots in test-artifacts/dashboard/.
 */
if (chromiumMissing) console.warn(`workbench screen browser tests skipped: ${chromiumMissing}`);

const PASSWORD = 'password of the analyst';
/** In test/fixtures/sources/ofac-sdn-official: EXAMPLE SANCTIONED GROUP, programs CYBER2 and DPRK3. */
const LISTED = '0xaEDb177D69Ae5562ac7295653FCe454562bF69CC';

describe.skipIf(chromiumMissing !== null)('workbench: screening in Chromium', () => {
  let sources: string;
  let svc: TestService;
  let browser: TestBrowser;
  let page: Page;
  let email: string;

  async function expectNoSidewaysScroll() {
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => !el.closest('.table-wrap') && el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 3)
        .map((el) => `${el.tagName}.${el.className}`)
        .concat(
          [`w=${window.innerWidth}`],
          [...document.querySelectorAll('body, main, section, .table-wrap')].map(
            (el) => `${el.tagName}.${el.className}:${el.scrollWidth}/${el.clientWidth}`,
          ),
        ),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), wide.join(', ')).toBeLessThanOrEqual(0);
  }

  beforeAll(async () => {
    sources = await writeFullCheckSources();
    await cp(join('test', 'fixtures', 'sources', 'ofac-sdn-official'), join(sources, 'ofac-sdn-official'), { recursive: true });
    svc = await startTestService({ SVC_SOURCES_DIR: sources, SVC_PASSWORD_SCRYPT_LOG_N: '12' });
    const opened = await svc.account({ depositUsd: 5 });
    email = (await svc.services.app.accounts.get(opened.userId))!.email;
    await givePassword(svc.services, opened.userId, PASSWORD);
    browser = await launchBrowser(await svc.app.listen({ host: '127.0.0.1', port: 0 }));
    page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    if (sources) await rm(sources, { recursive: true, force: true });
  });

  it('a light screen of a sanctioned address shows the match with its list, entity, program and list date', async () => {
    await page.goto('/screen');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/screen$/);
    await page.getByLabel('Address').fill(LISTED);
    await page.getByLabel('Network').selectOption('ETH');
    await page.getByRole('radio', { name: /Light screen/ }).check();
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Light screen');
    const match = (await page.locator('section.sanctions').textContent())!;
    expect(match).toContain('EXAMPLE SANCTIONED GROUP');
    expect(match).toMatch(/List\s*US/);
    expect(match).toMatch(/Program\s*\S/);
    expect(match).toContain('List date');
    expect(await page.textContent('main')).toContain('Charged $0.10');
    expect(await page.textContent('main')).toContain('Verdict time');
    // The labels: one legend for the three numbers, and a date called the list's only when the list gives it.
    const labels = page.locator('section[aria-labelledby="labels-title"]');
    expect(await labels.locator('dl.legend-confidence dt').allTextContents()).toEqual([
      'Confidence of a label',
      'Confidence of a category',
      'Trust weight',
    ]);
    expect(await labels.getByRole('columnheader').allTextContents()).not.toContain('First seen');
    const sdnRow = labels.getByRole('row').filter({ hasText: 'OFAC' }).first();
    expect(await sdnRow.locator('td[data-label="Date"]').textContent()).toMatch(/^\d{4}-\d\d-\d\d, the list's date$/);
    // a source that dates nothing is never given a "first seen": the page says when its files were imported
    const undatedRow = labels.getByRole('row').filter({ hasText: 'legacy SDN.CSV' });
    expect(await undatedRow.locator('td[data-label="Date"]').textContent()).toMatch(
      /^no date from the source; imported from files of \d{4}-\d\d-\d\d$/,
    );
    expect(await page.textContent('main')).not.toContain('§');
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-06-light-screen-sanctioned');
  });

  it('a bad address is refused above the form, nothing charged', async () => {
    await page.goto('/screen');
    await page.getByLabel('Address').fill('0x1234');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not an ETH address');
    browser.problems.length = 0; // the 422 page load is logged by Chromium
  });

  it('a full check shows the tiers and draws the route to the labelled entity', async () => {
    await page.goto('/screen');
    await page.getByLabel('Address').fill(PARTIES.d);
    await page.getByRole('radio', { name: /Full check/ }).check();
    await page.getByRole('button', { name: 'Run' }).click();
    // The running page reloads itself until the verdict is there.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 }).toBe('Full check');
    const tiers = (await page.locator('section', { has: page.getByRole('heading', { name: 'Tiers' }) }).textContent())!;
    expect(tiers).toContain('yes');
    const routes = page.locator('figure.route svg');
    expect(await routes.count()).toBeGreaterThan(0);
    const described = await page.locator('figure.route figcaption').allTextContents();
    const toExploiter = described.find((text) => text.includes('example bridge exploiter'));
    expect(toExploiter, described.join('\n')).toBeDefined();
    // Addresses in the order funds moved: r → a → b → d, with the USD traced.
    expect(toExploiter).toContain(`${PARTIES.r} → ${PARTIES.a} → ${PARTIES.b} → ${PARTIES.d}`);
    expect(toExploiter).toMatch(/\$10,500/);
    // Each hop carries what it moved at 3,500 USD per ETH (r →10→ a →6→ b →5→ d), not the route's 10,500.
    const exploiterRoute = page.locator('figure.route').filter({ hasText: 'example bridge exploiter' });
    expect(await exploiterRoute.locator('svg.wide text.usd').allTextContents()).toEqual(['$35,000', '$21,000', '$17,500']);
    expect(await exploiterRoute.locator('svg.tall text.usd').allTextContents()).toEqual(['$35,000', '$21,000', '$17,500']);
    expect(await page.textContent('main')).toContain('Charged $1.00');
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-07-full-check-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    // The route fits the phone: its tall drawing, wholly in view across.
    expect(await exploiterRoute.locator('svg.wide').isVisible()).toBe(false);
    const tall = (await exploiterRoute.locator('svg.tall').boundingBox())!;
    expect(tall.x).toBeGreaterThanOrEqual(0);
    expect(tall.x + tall.width).toBeLessThanOrEqual(390);
    await browser.screenshot(page, 'workbench-08-full-check-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(browser.problems).toEqual([]);
  });

  it('both calls appear in Usage, the table whole at 1280 px, the full check linking to its verdict; the CSV has both', async () => {
    await page.goto('/account/usage');
    const rows = await page.getByRole('row').allTextContents();
    expect(rows.some((row) => row.includes('POST /v2/screen'))).toBe(true);
    expect(rows.some((row) => row.includes('check-address'))).toBe(true);
    // A USD plan: no Units column. Nothing cut off: the table needs no scrolling inside its box either.
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'Time',
      'Endpoint',
      'Network',
      'Subject',
      'Key',
      'Charged',
      'Refunded',
    ]);
    expect(await page.locator('.table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    // Addresses stay on one line (shortened; the whole value for screen readers and on hover).
    const subjectHeights = await page.locator('code.hash').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    expect(Math.max(...subjectHeights)).toBeLessThan(24);
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-09-usage-1280');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download usage CSV' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe(
      'call_id,created_at,product,endpoint,network,subject,key_id,units,charged_usd,refunded_units,refunded_usd,refund_reason',
    );
    expect(
      csv
        .slice(1)
        .map((line) => line.split(',')[2])
        .sort(),
    ).toEqual(['check_address', 'screen']);

    await page.getByRole('row').filter({ hasText: 'check-address' }).getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Full check');
    expect(await page.textContent('main')).toContain('Already charged');
  });

  it('History lists both checks with their risk levels and filters by kind, network and risk level', async () => {
    await page.goto('/history');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('History');
    const rows = (await page.getByRole('row').allTextContents()).slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.includes('Full check'))).toContain('medium');
    // The light screen's verdict summary is kept: its level shows, not "unknown".
    expect(rows.find((row) => row.includes('Light screen'))).toContain('sanctioned');
    await browser.screenshot(page, 'workbench-10-history');
    await page.getByLabel('Risk level').selectOption('medium');
    await page.getByLabel('Network').selectOption('ETH');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await page.getByRole('row').allTextContents()).length).toBe(2);
    await page.getByLabel('Kind').selectOption('screen');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.textContent('main')).toContain('No checks match.');
    await page.goto('/history?kind=check_address');
    await page.getByRole('row').nth(1).getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Full check');
    await expectNoSidewaysScroll();
  });
});
