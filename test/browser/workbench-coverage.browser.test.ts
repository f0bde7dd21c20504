import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOneSource } from '../../infra/sources/import-sources.js';
import { SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { givePassword } from '../support/dashboard-login.js';
import { PARTIES, writeFullCheckSources } from '../support/full-check-data.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * What a verdict page says it was checked against, in Chromium. The tests' own sources hold US lists
 * only (OFAC, official formats, made-up addresses): a light screen and a full check must say the UK and EU
 * lists were NOT checked. Then our own UK (OFSI ConList.csv) and EU (FSF XML 1.1) fixtures are imported:
 * the same pages must name all three with each list's date. The full check of `t` is driven only by a
 * one-hop exposure to the sanctioned `s`: its Sources and Confidence are the exposure's. Screenshots in
 * test-artifacts/dashboard/coverage-*.png.
 */
if (chromiumMissing) console.warn(`workbench coverage browser tests skipped: ${chromiumMissing}`);

const PASSWORD = 'password of the analyst';

describe.skipIf(chromiumMissing !== null)('workbench: which sanctions lists a verdict was checked against', () => {
  let sources: string;
  let svc: TestService;
  let browser: TestBrowser;
  let page: Page;

  async function run(address: string, kind: 'Light screen' | 'Full check'): Promise<void> {
    await page.goto('/screen');
    await page.getByLabel('Address').fill(address);
    await page.getByLabel('Network').selectOption('ETH');
    await page.getByRole('radio', { name: new RegExp(kind) }).check();
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 }).toBe(kind);
  }

  const coverageLine = async () => (await page.locator('[data-coverage="sanctions"]').textContent())!.replace(/\s+/g, ' ');
  const stat = async (label: string) => (await page.locator('.stat', { hasText: label }).locator('.value').textContent())!.trim();

  beforeAll(async () => {
    sources = await writeFullCheckSources();
    await cp(join(SOURCE_FIXTURES, 'ofac-sdn-official'), join(sources, 'ofac-sdn-official'), { recursive: true });
    svc = await startTestService({ SVC_SOURCES_DIR: sources, SVC_PASSWORD_SCRYPT_LOG_N: '12' });
    const opened = await svc.account({ depositUsd: 10 });
    const email = (await svc.services.app.accounts.get(opened.userId))!.email;
    await givePassword(svc.services, opened.userId, PASSWORD);
    browser = await launchBrowser(await svc.app.listen({ host: '127.0.0.1', port: 0 }));
    page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/screen');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/screen$/);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    if (sources) await rm(sources, { recursive: true, force: true });
  });

  it('with only US lists, a light screen says the UK and EU lists were not checked, naming each US list with its date', async () => {
    await run(PARTIES.s, 'Light screen');
    const line = await coverageLine();
    expect(line).toMatch(/^Checked against the US sanctions lists: OFAC /);
    expect(line).toContain('OFAC SDN List of 2025-01-15');
    expect(line).toMatch(/days old/);
    expect(line).toContain('Not checked against the UK and EU sanctions lists: none is held, so this verdict says nothing about them.');
    expect(await page.locator('[data-coverage="sanctions"]').getAttribute('class')).toBe('warn-box');
    expect(await page.textContent('main')).not.toContain('No match on the US, UK or EU sanctions lists');
    await browser.screenshot(page, 'coverage-screen-us-only');
  });

  it('with only US lists, a full check driven by one-hop sanctions exposure says so too, with the exposure’s sources, confidence and data', async () => {
    await run(PARTIES.t, 'Full check');
    expect(await coverageLine()).toContain('Not checked against the UK and EU sanctions lists');
    expect(await page.locator('section[aria-labelledby="sdn-title"]').textContent()).toContain(
      'No match on the US sanctions lists checked.',
    );
    expect(await stat('Risk level')).toBe('high');
    expect(Number(await stat('Sources'))).toBeGreaterThanOrEqual(1);
    expect(await stat('Confidence')).toMatch(/^\d+%$/);
    const versions = (await page.locator('section[aria-labelledby="dv-title"]').textContent())!.replace(/\s+/g, ' ');
    expect(versions).toContain('ofac_brave_lists');
    expect(versions).toMatch(
      /Transfer data\s*tx-sample-eth-lazarus\/LazarusTabularTxsFullCheckTest\.csv, sha256:[0-9a-f]{64}, as of 2024-06-15/,
    );
    await browser.screenshot(page, 'coverage-full-check-us-only');
  });

  it('once the UK and EU lists are imported, both pages name the three jurisdictions and each list checked', async () => {
    await importOneSource(svc.services.commands, 'ofsi_uk', join(SOURCE_FIXTURES, 'ofsi-uk-consolidated'));
    await importOneSource(svc.services.commands, 'eu_fsf', join(SOURCE_FIXTURES, 'eu-fsf-consolidated'));
    await svc.services.projections.whenCaughtUp();

    await run(PARTIES.s, 'Light screen');
    let line = await coverageLine();
    expect(line).toMatch(
      /^Checked against the US, UK and EU sanctions lists: US: .*; UK: UK OFSI Consolidated List of 2026-03-14, \d+ days old; EU: EU Consolidated Financial Sanctions List of 2026-03-20, \d+ days old\.$/,
    );
    expect(line).not.toContain('Not checked');
    expect(await page.locator('[data-coverage="sanctions"]').getAttribute('class')).toBe('hint');
    await browser.screenshot(page, 'coverage-screen-us-uk-eu');

    await run(PARTIES.t, 'Full check');
    line = await coverageLine();
    expect(line).toMatch(/^Checked against the US, UK and EU sanctions lists/);
    expect(line).not.toContain('Not checked');
    expect(await page.locator('section[aria-labelledby="sdn-title"]').textContent()).toContain(
      'No match on the US, UK and EU sanctions lists checked.',
    );
    await browser.screenshot(page, 'coverage-full-check-us-uk-eu');
    expect(browser.problems).toEqual([]);
  });
});
