import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addCuratorEntry } from '../../commands/curate.js';
import { importOneSource } from '../../infra/sources/import-sources.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { sdnList } from '../helpers/ofac-sdn-list.js';
import { pollUntil } from './polling.js';
import { startTestService, type TestService } from './test-service.js';

/**
 * Writes test/fixtures/verdicts/monitors-v1.json: monitors as the code of the day stores them (every event
 * of each monitor's stream: MonitorCreated and MonitorVerdictChanged at schema version 1, the verdicts in
 * the API's snake_case words, and the WebhookEventRaised beside each change) and serves them (GET
 * /v2/monitors/{id} and GET /v2/verdicts/{monitor_id}:{change key}, as the bytes sent). Run by hand, once,
 * on the code whose storage the fixture freezes:
 * `WRITE_STORED_MONITORS=1 npx vitest run test/support/stored-monitors.writer.test.ts`. Every address is
 * made up: one a sanctions list names and then drops, one a curator labels.
 */
const LISTED = madeUpEvmAddress('stored-monitor:listed').toLowerCase();
const CURATED = madeUpEvmAddress('stored-monitor:curated').toLowerCase();

type Account = { userId: string; apiKey: string };
const get = (svc: TestService, account: Account, url: string) =>
  svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${account.apiKey}` } });

async function importList(svc: TestService, dir: string, day: string, extraAddress?: string) {
  const file = join(dir, 'sdn_advanced.xml');
  await writeFile(file, sdnList(day, extraAddress));
  await importOneSource(svc.services.commands, 'ofac_sdn', file);
  await svc.services.whenCaughtUp();
}

async function streamOf(svc: TestService, monitorId: string) {
  const events = [];
  for await (const e of svc.services.store.read(`monitor-${monitorId}`)) events.push({ type: e.type, data: e.data, metadata: e.metadata });
  return events;
}

/** A monitor as stored and served: its events, its GET body and each change's GET /v2/verdicts body. */
async function storedMonitor(svc: TestService, account: Account, monitorId: string, changes: number) {
  const events = await pollUntil(async () => {
    const found = await streamOf(svc, monitorId);
    return found.filter((e) => e.type === 'MonitorVerdictChanged').length === changes ? found : null;
  });
  await svc.services.whenCaughtUp();
  const monitor = await get(svc, account, `/v2/monitors/${monitorId}`);
  const verdicts = [];
  for (const event of events.filter((e) => e.type === 'MonitorVerdictChanged')) {
    const verdictId = `${monitorId}:${(event.data as { changeKey: string }).changeKey}`;
    const served = await get(svc, account, `/v2/verdicts/${encodeURIComponent(verdictId)}`);
    verdicts.push({ verdictId, status: served.statusCode, body: served.body });
  }
  return { monitorId, events, monitor: { status: monitor.statusCode, body: monitor.body }, verdicts };
}

describe.skipIf(!process.env.WRITE_STORED_MONITORS)('stored monitors (fixture writer)', () => {
  it('writes the fixture', async () => {
    const svc = await startTestService();
    const dir = await mkdtemp(join(tmpdir(), 'stored-monitors-'));
    try {
      await importList(svc, dir, '2026-03-01');
      const account = await svc.account({ depositUsd: 5 });
      const auth = { authorization: `Bearer ${account.apiKey}` };
      const watch = async (address: string, reference: string | null) =>
        (
          await svc.app.inject({ method: 'POST', url: '/v2/monitors', headers: auth, payload: { address, network: 'ETH', reference } })
        ).json().monitor_id as string;
      const listed = await watch(LISTED, 'customer-7');
      const curated = await watch(CURATED, null);
      await importList(svc, dir, '2026-03-02', LISTED);
      await importList(svc, dir, '2026-03-03');
      await addCuratorEntry(svc.services.commands, {
        address: CURATED,
        network: 'ETH',
        kind: 'risk',
        category: 'scam',
        label: 'Made-up scam shop',
        confidence: 95,
        evidenceUrl: 'https://example.org/evidence/stored-monitor',
        curator: 'analyst-1',
      });
      await svc.services.whenCaughtUp();
      const monitors = [await storedMonitor(svc, account, listed, 2), await storedMonitor(svc, account, curated, 1)];
      const list = await get(svc, account, '/v2/monitors');
      const file = join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'monitors-v1.json');
      const fixture = { ownerId: account.userId, keyId: account.keyId, monitors, list: { status: list.statusCode, body: list.body } };
      await writeFile(file, `${JSON.stringify(fixture, null, 2)}\n`);
      expect(monitors.every((m) => m.monitor.status === 200 && m.verdicts.every((v) => v.status === 200))).toBe(true);
    } finally {
      await svc.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
