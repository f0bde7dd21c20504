import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumMissing: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `no Chromium at ${CHROMIUM_PATH} (install it with \`apt-get install -y chromium\`, as .ci/run does, or set CHROMIUM_PATH)`;

/** The machine has no outside network: nothing in the browser may try to reach it. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ARTIFACTS_DIR = join('test-artifacts', 'dashboard');

export interface TestBrowser {
  readonly context: BrowserContext;
  /** Console errors and uncaught page errors seen so far, on every page of the context. */
  readonly problems: string[];
  newPage(): Promise<Page>;
  /** A full-page screenshot in test-artifacts/dashboard/<name>.png. */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** Chromium with a fresh --user-data-dir (no state from any earlier run), bounded waits, errors collected. */
export async function launchBrowser(baseURL: string): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'svc-chromium-'));
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    baseURL,
    viewport: { width: 1200, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  context.setDefaultTimeout(10_000);
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${page.url()}: console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: page error: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    problems,
    newPage: () => context.newPage(),
    screenshot: async (page, name) => {
      await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
