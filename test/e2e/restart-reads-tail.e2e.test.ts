import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestService } from '../support/test-service.js';

/**
 * A restart resumes the read models from the checkpoint committed with them: it reads only what was
 * appended after it (plus the dataset streams its in-memory indexes are rebuilt from), not all of `$all`.
 */
const LAZARUS = '0x098b716b8aaf21512996dc57eb0615e2383e2f96';
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it('a restart reads only the tail of the log, and the read models it kept still answer', { timeout: 60_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-restart-'));
  dirs.push(dataDir);
  const first = await startTestService({ SVC_SOURCES_DIR: '' }, dataDir);
  const accounts = [];
  for (let i = 0; i < 60; i++) accounts.push(await first.account({ depositUsd: 5 }));
  const appended = first.services.projections.eventsRead();
  expect(appended).toBeGreaterThan(200);
  await first.close();

  const second = await startTestService({ SVC_SOURCES_DIR: '' }, dataDir);
  try {
    await second.services.whenCaughtUp();
    expect(second.services.projections.eventsRead()).toBe(0);
    expect((await second.services.repositories.balances.get(accounts[59]!.userId))?.balance_micros).toBe(5_000_000);
    // New events after the restart are folded on top of what was kept.
    const late = await second.account({ depositUsd: 7 });
    expect(second.services.projections.eventsRead()).toBeGreaterThan(0);
    expect(second.services.projections.eventsRead()).toBeLessThan(20);
    expect((await second.services.repositories.balances.get(late.userId))?.balance_micros).toBe(7_000_000);
    expect((await second.services.repositories.accounts.get(accounts[0]!.userId))?.userId).toBe(accounts[0]!.userId);
  } finally {
    await second.close();
  }
});

it(
  'opens a data directory written before the read models were on disk: the first start folds the whole log once',
  { timeout: 60_000 },
  async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-upgrade-'));
    dirs.push(dataDir);
    // Earlier versions kept the embedded read models in memory: a data directory holds the log and no read-models/.
    // Both starts fold into the embedded read store whatever READ_STORE the suite runs with (the external run's is mongo).
    const old = await startTestService({ SVC_SOURCES_DIR: '', READ_STORE: 'embedded' }, dataDir);
    const account = await old.account({ depositUsd: 3 });
    await old.services.whenCaughtUp();
    const logged = old.services.projections.eventsRead();
    await old.close();
    await rm(join(dataDir, 'read-models'), { recursive: true });

    const upgraded = await startTestService({ SVC_SOURCES_DIR: '', READ_STORE: 'embedded' }, dataDir);
    try {
      await upgraded.services.whenCaughtUp();
      expect(upgraded.services.projections.eventsRead()).toBe(logged);
      expect((await upgraded.services.repositories.balances.get(account.userId))?.balance_micros).toBe(3_000_000);
    } finally {
      await upgraded.close();
    }
  },
);

/** The shipped data sets (CI has ../shared beside the clone); without them the last test is skipped, as the other real-data suites are. */
const sources = resolve(process.env.SVC_SOURCES_DIR || '../shared/data');
const hasSources = existsSync(join(sources, 'ofac-sdn-official'));
if (!hasSources) console.warn(`restart-reads-tail.e2e: the intelligence index test skipped, ${sources} is absent (set SVC_SOURCES_DIR)`);

it.skipIf(!hasSources)('rebuilds the intelligence index at a restart from the dataset streams alone', { timeout: 300_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-restart-intel-'));
  dirs.push(dataDir);
  const first = await startTestService({ SVC_SOURCES_DIR: sources }, dataDir);
  for (let i = 0; i < 3; i++) await first.account({ depositUsd: 1 });
  const before = first.services.intel.lookup(LAZARUS, 'ETH');
  await first.close();

  const second = await startTestService({ SVC_SOURCES_DIR: sources }, dataDir);
  try {
    await second.services.whenCaughtUp();
    let datasetEvents = 0;
    for await (const event of second.services.store.readAll()) if (/^(dataset|curation)-/.test(event.streamId)) datasetEvents += 1;
    expect(datasetEvents).toBeGreaterThan(0);
    // The dataset streams, and none of the accounts' events.
    expect(second.services.projections.eventsRead()).toBe(datasetEvents);
    expect(second.services.intel.lookup(LAZARUS, 'ETH')).toEqual(before);
  } finally {
    await second.close();
  }
});
