import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../commands/accounts.commands.js';
import { joinSubgroup } from '../../commands/memberships.commands.js';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { DEMO_EMAIL, ensureDemoAccount } from '../../infra/startup/demo-account.js';
import { ensureDemoPassword } from '../../infra/startup/demo-password.js';
import { DEMO_SOURCES, mineDemoChain, type DemoChain } from '../demo/kyt-demo-chain.js';
import { chromiumMissing, launchBrowser, type TestBrowser } from '../support/browser.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The KYT workbench on the demo chain (test/demo/kyt-demo-chain.ts, what `npm run demo:kyt` mines): a
 * sanctioned sender, a sender funded by it one hop earlier, and an exchange, on a local anvil the service
 * indexes. The demo account checks the transfers (one from the workbench's own form), then reads each
 * check's evidence, triages the cases (assigning one to a colleague by name), prints the case file,
 * watches an address and inspects one, at 1280 and 390 px. Screenshots: test-artifacts/dashboard/kyt-*.
 */
if (chromiumMissing) console.warn(`KYT workbench browser tests skipped: ${chromiumMissing}`);

const PASSWORD = 'password of the demo account';
const COLLEAGUE = { email: 'ana.lima@example.test', name: 'Ana Lima' };
const ETH_USD = 3300; // the price snapshot's ETH on the chain's day
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase();

describe.skipIf(chromiumMissing !== null)('KYT workbench on the demo chain, in Chromium', () => {
  let anvil: Anvil;
  let chain: DemoChain;
  let svc: TestService;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let demoKey: string;
  let subgroupId: string;
  const checks = new Map<string, string>();

  const txOf = (name: 'sanctioned' | 'indirect' | 'clean') => chain.transfers.find((t) => t.name === name)!;

  async function expectNoSidewaysScroll() {
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }

  /** The element is wholly inside the 390 px viewport, across. */
  async function expectAcrossInView(selector: string) {
    const box = (await page.locator(selector).first().boundingBox())!;
    expect(box, selector).not.toBeNull();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }

  async function atPhoneWidth(name: string, check?: () => Promise<void>) {
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll();
    await check?.();
    await browser.screenshot(page, name);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  const api = (method: string, url: string, payload?: unknown) =>
    svc.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${demoKey}` }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 });
    chain = await mineDemoChain(anvil.rpcUrl);
    svc = await startTestService({
      SVC_SOURCES_DIR: DEMO_SOURCES,
      CHAIN_RPC_ETH: anvil.rpcUrl,
      SVC_INGEST_RPC_URL: anvil.rpcUrl,
      SVC_INGEST_POLL_MS: '3600000',
      SVC_DEMO_PASSWORD: PASSWORD,
      SVC_PASSWORD_SCRYPT_LOG_N: '12',
    });
    await svc.services.fullCheck.ingester!.syncOnce();
    demoKey = (await ensureDemoAccount(svc.services)).apiKey!;
    await ensureDemoPassword(svc.services);
    const demo = (await svc.services.repositories.accounts.byEmail(DEMO_EMAIL))!;
    subgroupId = demo.memberships[0]!.subgroupId;
    // A colleague with a name, in the demo's subgroup: whom the case is assigned to.
    const colleague = await openAccount(svc.services.commands, {
      email: COLLEAGUE.email,
      displayName: COLLEAGUE.name,
      plan: { kind: 'ledger' },
    });
    await joinSubgroup(svc.services.commands, colleague.userId, { ...demo.memberships[0]!, role: 'member' });
    // Two transfers through the API; the third through the workbench's form below.
    for (const name of ['sanctioned', 'clean'] as const) {
      const response = await api('POST', '/v2/check-transfer', { chain: 'ETH', tx_hash: txOf(name).txHash });
      expect(response.statusCode, response.body).toBe(200);
      checks.set(name, response.json().check_id);
    }
    base = await svc.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser(base);
    page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO_EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/account\/api$/);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await anvil?.stop();
  });

  it('checks the indirect transfer from the workbench form: the sender is exposed, never "no data", its route drawn', async () => {
    await page.goto('/checks/transfer');
    await page.getByLabel('Chain').selectOption('ETH');
    await page.getByLabel(/^Transaction hash/).fill(txOf('indirect').txHash);
    await page.getByRole('button', { name: 'Check the transfer' }).click();
    await page.waitForURL(/\/checks\/transfer\/[0-9a-f-]{36}$/);
    checks.set('indirect', page.url().split('/').pop()!);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Transfer check');
    const main = (await page.textContent('main'))!;
    expect(main).toContain('hold');
    // the alert and the sender agree: the sender's own verdict is its exposure, which stops at high (sanctions are not transitive)
    const alert = page.locator('section[aria-labelledby="ta-title"] tbody tr');
    expect(await alert.count()).toBe(1);
    expect(await alert.textContent()).toContain('Sanctioned entity / address');
    expect(await alert.textContent()).toContain('Origin of funds / Indirect');
    expect(await alert.textContent()).toContain(`$${(10 * ETH_USD).toLocaleString('en-US')}`);
    const senderRow = page.locator('section[aria-labelledby="ts-title"] table').first().locator('tbody tr');
    expect(await senderRow.textContent()).toMatch(/[0-9a-f]{40}high/);
    expect(await senderRow.textContent()).toContain('Sanctioned entity / address: 100% within 1 hop(s)');
    expect(main).not.toContain('no data');
    // the transaction, its leg and the recipient
    expect(main).toContain(`Recipient${chain.customer.toLowerCase()}`);
    const leg = page.locator('section[aria-labelledby="tx-title"] table tbody tr');
    expect(await leg.textContent()).toContain('10 ETH');
    expect(await leg.textContent()).toContain(`$${(10 * ETH_USD).toLocaleString('en-US')}`);
    expect(await leg.textContent()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    // the route: from the listed address to the sender, the hop's USD on its arrow
    const route = page.locator('.sender figure.route');
    expect(await route.count()).toBe(1);
    expect(await route.locator('svg.wide text.usd').textContent()).toBe(`$${(20 * ETH_USD).toLocaleString('en-US')}`);
    expect(await route.locator('figcaption').textContent()).toContain(
      `${chain.sanctioned.address.toLowerCase()} → ${chain.middle.toLowerCase()}`,
    );
    expect(await route.locator('figcaption').textContent()).toContain(chain.sanctioned.name);
    // the versions name the list behind the exposure and the transfer data it was traced in
    const versions = (await page.locator('section[aria-labelledby="tv-title"]').textContent())!;
    expect(versions).toMatch(/Checked against the US(, UK and EU)? sanctions lists: .*OFAC SDN List of \d{4}-\d\d-\d\d/);
    expect(versions).toMatch(/Sources[\s\S]*\bofac_sdn \d{4}-\d\d-\d\d/);
    expect(versions).toMatch(/Transfer data\s*\S.*blocks up to \d+/);
    await browser.screenshot(page, 'kyt-01-transfer-indirect-1280');
    await atPhoneWidth('kyt-02-transfer-indirect-390', async () => {
      expect(await route.locator('svg.wide').isVisible()).toBe(false);
      await expectAcrossInView('.sender figure.route svg.tall');
    });
  });

  it('the sanctioned sender and the exchange read as what they are; the clean transfer raises nothing', async () => {
    await page.goto(`/checks/transfer/${checks.get('sanctioned')}`);
    let main = (await page.textContent('main'))!;
    expect(main).toContain('block');
    expect(main).toContain(chain.sanctioned.name);
    expect(main).toContain('Sanctioned entity / address (itself)');
    expect(main).toContain('not needed: the sender itself is attributed');
    expect(main).toContain('0.25 ETH');
    await browser.screenshot(page, 'kyt-03-transfer-sanctioned');
    await page.goto(`/checks/transfer/${checks.get('clean')}`);
    main = (await page.textContent('main'))!;
    expect(main).toContain('The standard policy raised no alert.');
    expect(main).toContain('accept');
    expect(main).toContain('example exchange reserve ETH');
    expect(main).not.toContain('no data');
    await browser.screenshot(page, 'kyt-04-transfer-clean');
  });

  it('lists the two cases; at 390 px each keeps its status and assignee in view', async () => {
    await svc.services.whenCaughtUp();
    await page.goto('/alerts');
    const rows = page.locator('table tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.textContent('table')).toContain('Origin of funds / Indirect');
    await browser.screenshot(page, 'kyt-05-alerts-1280');
    await atPhoneWidth('kyt-06-alerts-390', async () => {
      await expectAcrossInView('td[data-label="Status"]');
      await expectAcrossInView('td[data-label="Assignee"]');
    });
  });

  it('the case file: what fired, the transaction, the route, the versions, a link to the check; assigned by name', async () => {
    await page.goto('/alerts');
    await page.getByRole('row').filter({ hasText: 'Origin of funds / Indirect' }).getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Sanctioned entity / address');
    const fired = (await page.locator('section[aria-labelledby="alert-title"]').textContent())!;
    expect(fired).toContain('I1 · Origin of funds / Indirect');
    expect(fired).toContain('funds traced to a sanctioned source');
    expect(fired).not.toContain('§');
    expect(fired).toContain(`$${(10 * ETH_USD).toLocaleString('en-US')} of the transfer's`);
    expect(fired).toMatch(/Block time\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(await page.locator('section[aria-labelledby="ev-title"] figure.route').count()).toBe(1);
    expect(await page.textContent('main')).toMatch(/Policy\s*standard/);
    const versions = (await page.locator('section[aria-labelledby="versions-title"]').textContent())!;
    expect(versions).toMatch(/Sources[\s\S]*\bofac_sdn \d{4}-\d\d-\d\d/);
    expect(versions).toMatch(/Checked against the US(, UK and EU)? sanctions lists/);
    const link = page.locator('section[aria-labelledby="alert-title"] a[href^="/checks/transfer/"]');
    expect(await link.getAttribute('href')).toBe(`/checks/transfer/${checks.get('indirect')}`);

    // the picker names the subgroup's members, as GET /v2/subgroups/{id}/members does
    const members = await api('GET', `/v2/subgroups/${subgroupId}/members`);
    expect(members.statusCode).toBe(200);
    expect(members.json().data.map((m: { name: string }) => m.name)).toEqual([COLLEAGUE.name, 'Demo']);
    await page.getByLabel(/^Assignee/).selectOption({ label: `${COLLEAGUE.name} (${COLLEAGUE.email})` });
    await page.getByLabel('Status', { exact: true }).selectOption('in_review');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#trail').textContent()).toContain(`Assigned to ${COLLEAGUE.email}`);
    await browser.screenshot(page, 'kyt-07-case-1280');
    await atPhoneWidth('kyt-08-case-390', () => expectAcrossInView('section[aria-labelledby="ev-title"] figure.route svg.tall'));
  });

  it('prints the case file with the same evidence and the audit trail', async () => {
    await page.getByRole('link', { name: 'Printable report' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Alert case report');
    const text = (await page.textContent('main'))!;
    for (const fact of [
      txOf('indirect').txHash,
      'Block time',
      '10 ETH',
      `$${(10 * ETH_USD).toLocaleString('en-US')}`,
      'funds traced to a sanctioned source',
      chain.sanctioned.name,
      'Taxonomy version',
      checks.get('indirect')!,
      `Assigned to ${COLLEAGUE.email}`,
      'Status Open → In review',
    ])
      expect(text, fact).toContain(fact);
    expect(text).toMatch(/Policy\s*standard 2026-11-1/);
    expect(text).toMatch(/Sources[\s\S]*\bofac_sdn \d{4}-\d\d-\d\d/);
    expect(text).toMatch(/Transfer data\s*\S.*blocks up to \d+/);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header.top').isVisible()).toBe(false);
    expect(await page.locator('figure.route svg.wide').first().isVisible()).toBe(true);
    await browser.screenshot(page, 'kyt-09-report-print');
    await page.emulateMedia({ media: 'screen' });
  });

  it('watches an address from the Monitors page and shows its change when the intelligence changes', async () => {
    await page.goto('/monitors');
    await page.locator('#m-address').fill(chain.middle);
    await page.getByLabel(/^Reference/).fill('customer 42');
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.waitForURL(/\/monitors\/[0-9a-f-]+$/);
    expect(await page.textContent('main')).toContain('No change since it was watched');
    const curated = await runVerb(
      svc.services,
      parseArgs([
        'data',
        'curate',
        'add',
        '--address',
        chain.middle,
        '--network',
        'ETH',
        '--category',
        'scam',
        '--label',
        'Demo scam wallet',
        '--evidence',
        'https://example.org/case-42',
        '--curator',
        'analyst',
      ]),
    );
    expect(curated.exitCode).toBe(0);
    await svc.services.whenCaughtUp();
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator('section[aria-labelledby="mh-title"]').textContent();
      })
      .toContain('because a curated entry was added');
    expect(await page.locator('section[aria-labelledby="mh-title"]').textContent()).toMatch(/none\s*→\s*high\s*scam/);
    await browser.screenshot(page, 'kyt-10-monitor');
    await page.goto('/monitors');
    expect(await page.textContent('table')).toContain('customer 42');
    await atPhoneWidth('kyt-11-monitors-390', () => expectAcrossInView('td[data-label="Status"]'));
  });

  it('inspects an address from the workbench form', async () => {
    await page.goto('/inspect');
    await page.getByLabel('Address').fill(chain.sanctioned.address);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await page.waitForURL(/\/checks\/inspect\/[0-9a-f-]+$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 20_000 }).not.toContain('running');
    expect(await page.textContent('main')).toContain(chain.sanctioned.name);
    await browser.screenshot(page, 'kyt-12-inspect');
    expect(browser.problems).toEqual([]);
  });

  it('the demo account’s history lists every check with its level', async () => {
    await page.goto('/history');
    const text = (await page.textContent('table'))!;
    expect(text.match(/Transfer check/g)).toHaveLength(3);
    expect(text).toContain(short(chain.sanctioned.address).slice(0, 6));
  });
});
