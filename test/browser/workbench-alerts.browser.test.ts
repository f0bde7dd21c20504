import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinSubgroup } from '../../commands/memberships.commands.js';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { givePassword } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The workbench's alert triage in Chromium, from a real transfer check on a local anvil chain: an
 * OFAC-listed sender (read from SVC_SOURCES_DIR, default ../shared/data) sends ETH, the check raises a
 * Severe alert, the processor opens its case, and a member triages it open → in_review → closed
 * (dismissed, with a note), reads the audit trail, prints the report and exports the CSV.
 * Screenshots go to test-artifacts/dashboard/.
 */
const sourcesDir = resolve(process.env.SVC_SOURCES_DIR || '../shared/data');
const OFAC_FOLDER = 'ofac-ultrasoundmoney-eth';
const dataMissing = existsSync(join(sourcesDir, OFAC_FOLDER, 'data.csv')) ? null : `no OFAC list at ${join(sourcesDir, OFAC_FOLDER)}`;
const skipReason = chromiumMissing ?? dataMissing;
if (skipReason) console.warn(`workbench alert browser tests skipped: ${skipReason}`);

const PASSWORD = 'password of the compliance officer';
const NOTE = 'False positive: the counterparty is our own test wallet';

function firstOfacEth(): { address: Address; name: string } {
  const [, line] = readFileSync(join(sourcesDir, OFAC_FOLDER, 'data.csv'), 'utf8').split(/\r?\n/);
  const [address, name] = line!.split(',');
  return { address: address as Address, name: name!.replace(/"/g, '') };
}

describe.skipIf(skipReason !== null)('workbench: alert triage in Chromium', () => {
  let anvil: Anvil;
  let linked: string;
  let svc: TestService;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let officer: { userId: string; email: string };
  let colleagueEmail: string;
  let checkId: string;

  async function expectNoSidewaysScroll() {
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 });
    linked = await mkdtemp(join(tmpdir(), 'svc-workbench-sources-'));
    await symlink(join(sourcesDir, OFAC_FOLDER), join(linked, OFAC_FOLDER));
    svc = await startTestService({ SVC_SOURCES_DIR: linked, CHAIN_RPC_ETH: anvil.rpcUrl, SVC_PASSWORD_SCRYPT_LOG_N: '12' });
    const opened = await svc.account({ depositUsd: 10 });
    officer = { userId: opened.userId, email: (await svc.services.app.accounts.get(opened.userId))!.email };
    await givePassword(svc.services, opened.userId, PASSWORD);
    // A colleague in the same subgroup, to assign the case to.
    const colleague = await svc.account({ organization: false });
    colleagueEmail = (await svc.services.app.accounts.get(colleague.userId))!.email;
    const { state } = await svc.services.commands.executor.load(accountStream(opened.userId), accountDecider);
    await joinSubgroup(svc.services.commands, colleague.userId, { ...state.memberships[0]!, role: 'member' });

    const sanctioned = firstOfacEth();
    const txHash = await transferChain(anvil.rpcUrl).sendNative(
      sanctioned.address,
      madeUpEvmAddress('workbench:recipient') as Address,
      '0.25',
    );
    const checked = await svc.app.inject({
      method: 'POST',
      url: '/v2/check-transfer',
      headers: { authorization: `Bearer ${opened.apiKey}` },
      payload: { chain: 'ETH', tx_hash: txHash },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json().policy_result.alerts).toHaveLength(1);
    checkId = checked.json().check_id;
    await svc.services.whenCaughtUp();

    base = await svc.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser(base);
    page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await anvil?.stop();
    if (linked) await rm(linked, { recursive: true, force: true });
  });

  it('lists the transfer check’s alert as an open case', async () => {
    await page.goto('/alerts');
    await page.getByLabel('Email').fill(officer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/alerts$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Alerts');
    const row = page.getByRole('row').filter({ hasText: 'Sanctioned entity / address' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Severe');
    expect(await row.textContent()).toContain('Open');
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-01-alerts-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-02-alerts-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('triages the case open → in_review → closed (dismissed) with a note, and shows the audit trail', async () => {
    await page.getByRole('row').filter({ hasText: 'Sanctioned entity / address' }).getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Sanctioned entity / address');
    expect(await page.textContent('main')).toContain(checkId);

    // Start the review and assign it, from the keyboard-reachable native controls.
    await page.getByLabel('Status', { exact: true }).selectOption('in_review');
    await page.getByLabel(/^Assignee/).selectOption({ label: colleagueEmail });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#trail').textContent()).toContain('Status Open → In review');
    expect(await page.locator('#trail').textContent()).toContain(`Assigned to ${colleagueEmail}`);
    expect(await page.locator('#case-state').textContent()).toContain('In review');

    // Closing without a note is refused with the reason shown next to the form.
    await page.getByLabel('Status', { exact: true }).selectOption('closed');
    await page.getByLabel(/^Reason/).selectOption('dismissed');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('form[data-method="PATCH"] [data-status]').textContent()).toContain('closing a case needs a note');
    browser.problems.length = 0; // the refused PATCH (422) is logged by Chromium as a failed load

    await page.getByLabel(/^Note/).fill(NOTE);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#trail').textContent()).toContain('Status In review → Closed, reason: dismissed');
    expect(await page.locator('#trail').textContent()).toContain(NOTE);
    expect(await page.locator('#case-state').textContent()).toContain('Closed');

    await page.getByRole('textbox', { name: /^Comment/ }).fill('Reviewed with the customer on the phone.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => page.locator('#trail').textContent()).toContain('Reviewed with the customer on the phone.');
    const trail = await page.locator('#trail li').allTextContents();
    expect(trail).toHaveLength(5);
    expect(trail.every((entry) => /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/.test(entry))).toBe(true);
    expect(trail.slice(1).every((entry) => entry.includes(officer.email))).toBe(true);
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-03-case-closed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-04-case-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(browser.problems).toEqual([]);
  });

  it('prints a report stating the verdict time and data versions', async () => {
    await page.getByRole('link', { name: 'Printable report' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Alert case report');
    const text = (await page.textContent('main'))!;
    expect(text).toContain('Verdict time');
    expect(text).toMatch(/Policy\s*standard/);
    expect(text).toContain('Taxonomy version');
    expect(text).toContain(NOTE);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header.top').isVisible()).toBe(false);
    await browser.screenshot(page, 'workbench-05-report-print');
    await page.emulateMedia({ media: 'screen' });
  });

  it('exports the alerts of a date range as CSV', async () => {
    await page.goto('/alerts');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download alerts CSV' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe(
      'alert_id,created_at,check_id,chain,tx_hash,risk_level,category,rule_type,actual_share,entity_name,entity_address,status,reason,note,assignee,updated_at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(checkId);
    expect(lines[1]).toContain(',Severe,Sanctioned entity / address,Direct exposure,100,');
    expect(lines[1]).toContain(`,closed,dismissed,${NOTE},${colleagueEmail},`);
  });

  it('History opens the transfer check’s verdict page, whose alert links to its closed case', async () => {
    await page.goto('/history?kind=check_transfer');
    const row = page.getByRole('row').filter({ hasText: 'Transfer check' });
    expect(await row.textContent()).toContain('Severe');
    await row.getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Transfer check');
    const text = (await page.textContent('main'))!;
    expect(text).toContain('block');
    expect(text).toContain('Already charged');
    expect(text).toMatch(/Policy\s*standard/);
    await expectNoSidewaysScroll();
    await browser.screenshot(page, 'workbench-11-transfer-verdict');
    await page.getByRole('link', { name: /case of the Sanctioned entity/ }).click();
    await expect.poll(() => page.locator('#case-state').textContent()).toContain('Closed');
  });
});
