import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCuratorEntry } from '../../commands/curate.js';
import { eventRegistry } from '../../domain/events/registry.js';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { monitorChangeStatement } from '../../domain/receipts/verdict-statements.js';
import { monitorVerdictWords } from '../../domain/monitors/risk-changed-payload.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { STORED_MONITORS, type StoredMonitor } from '../support/stored-monitors.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A data directory written before monitor verdicts were domain facts still opens and serves its monitors:
 * the events recorded then (test/fixtures/verdicts/monitors-v1.json: MonitorCreated and
 * MonitorVerdictChanged at schema version 1, in the API's words, with each change's receipt and webhook
 * event) are appended as they were, into a new owner's monitors, then read back through the API: the very
 * bytes served then, receipts included. And the statement today's code builds from each stored change is
 * the one its receipt signed, byte for byte.
 */

let service: TestService;
let owner: { userId: string; keyId: string; apiKey: string };
const get = (url: string, apiKey = owner.apiKey) =>
  service.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${apiKey}` } });

/** The monitor's events as recorded, owned by `owner` (the monitor id, signed in its receipts, is kept). */
async function appendAsRecorded(monitor: StoredMonitor): Promise<void> {
  const events = monitor.events.map((event, i) => ({
    id: service.services.commands.ids.eventId(`stored-monitor:${monitor.monitorId}`, i),
    type: event.type,
    data: JSON.parse(JSON.stringify(event.data).replaceAll(STORED_MONITORS.ownerId, owner.userId)),
    metadata: event.metadata,
  }));
  await service.services.store.append(`monitor-${monitor.monitorId}`, events as never, { expected: 'no_stream' });
}

beforeAll(async () => {
  service = await startTestService();
  owner = await service.account({ depositUsd: 5 });
  for (const monitor of STORED_MONITORS.monitors) await appendAsRecorded(monitor);
  await service.services.whenCaughtUp();
});
afterAll(async () => {
  await service?.close();
});

/** A stored event as a reader of the log sees it: through the registry, in the current shape. */
const read = (event: StoredMonitor['events'][number]) =>
  eventRegistry.parse({
    id: 'e',
    streamId: 'monitor-m',
    revision: 0n,
    position: { commit: 0n, prepare: 0n },
    created: new Date(0),
    ...event,
  } as unknown as RecordedEvent);

describe('monitors stored before monitor verdicts were domain facts', () => {
  it('are served the very bytes they were served then: the monitor, its history, the list', async () => {
    expect(STORED_MONITORS.monitors.length).toBeGreaterThan(1);
    for (const monitor of STORED_MONITORS.monitors) {
      const response = await get(`/v2/monitors/${monitor.monitorId}`);
      expect(response.statusCode, monitor.monitorId).toBe(monitor.monitor.status);
      expect(response.body).toBe(monitor.monitor.body);
    }
    const list = await get('/v2/monitors');
    expect(list.statusCode).toBe(STORED_MONITORS.list.status);
    expect(list.body).toBe(STORED_MONITORS.list.body);
  });

  it('serve each change as its verdict, the receipt its webhook carried included, byte for byte', async () => {
    const changes = STORED_MONITORS.monitors.flatMap((m) => m.verdicts);
    expect(changes.length).toBeGreaterThan(2);
    for (const change of changes) {
      const response = await get(`/v2/verdicts/${encodeURIComponent(change.verdictId)}`);
      expect(response.statusCode, change.verdictId).toBe(change.status);
      expect(response.body).toBe(change.body);
    }
  });

  it('state, read by today’s code, the very statement each change’s receipt signed', () => {
    for (const monitor of STORED_MONITORS.monitors) {
      const created = read(monitor.events.find((e) => e.type === 'MonitorCreated')!);
      if (created?.type !== 'MonitorCreated') throw new Error('no MonitorCreated');
      const subject = { address: created.data.address, network: created.data.network };
      for (const event of monitor.events.filter((e) => e.type === 'MonitorVerdictChanged')) {
        const change = read(event);
        if (change?.type !== 'MonitorVerdictChanged' || !change.data.receipt) throw new Error('a change with its receipt');
        const context = {
          verdictId: `${monitor.monitorId}:${change.data.changeKey}`,
          caller: { kind: 'monitor_owner' as const, id: STORED_MONITORS.ownerId },
          input: subject,
          issuedAt: change.data.at,
        };
        const signed = Buffer.from(canonicalJson(monitorChangeStatement(context, subject, change.data))).toString('base64url');
        expect(signed).toBe(change.data.receipt.split('.')[1]);
      }
    }
  });

  it('answer 404 to anyone but the owner', async () => {
    const stranger = await service.account({ depositUsd: 5 });
    const monitor = STORED_MONITORS.monitors[0] as StoredMonitor;
    expect((await get(`/v2/monitors/${monitor.monitorId}`, stranger.apiKey)).statusCode).toBe(404);
    expect((await get(`/v2/verdicts/${encodeURIComponent(monitor.verdicts[0]!.verdictId)}`, stranger.apiKey)).statusCode).toBe(404);
  });

  it('raise, from each stored change read by today’s code, the webhook payload’s verdicts as sent then, byte for byte', () => {
    for (const monitor of STORED_MONITORS.monitors) {
      const changes = monitor.events.filter((e) => e.type === 'MonitorVerdictChanged').map(read);
      const sent = monitor.events.filter((e) => e.type === 'WebhookEventRaised').map((e) => e.data.payload as Record<string, unknown>);
      expect(changes.length).toBe(sent.length);
      for (const [i, change] of changes.entries()) {
        if (change?.type !== 'MonitorVerdictChanged') throw new Error('a change');
        const words = { previous: monitorVerdictWords(change.data.previous), current: monitorVerdictWords(change.data.current) };
        expect(JSON.stringify(words)).toBe(JSON.stringify({ previous: sent[i]?.previous, current: sent[i]?.current }));
      }
    }
  });

  // Last: it changes a stored monitor.
  it('keep being watched: a new change of an old monitor is appended after its old ones, which read as before', async () => {
    const monitor = STORED_MONITORS.monitors.find((m) => m.verdicts.length > 1) as StoredMonitor;
    const before = JSON.parse(monitor.monitor.body);
    await addCuratorEntry(service.services.commands, {
      address: before.address,
      network: 'ETH',
      kind: 'risk',
      category: 'scam',
      label: null,
      confidence: 95,
      evidenceUrl: 'https://example.org/evidence/stored-monitor-e2e',
      curator: 'analyst-1',
    });
    await service.services.whenCaughtUp();
    const after = (await get(`/v2/monitors/${monitor.monitorId}`)).json();
    expect(after.history).toHaveLength(before.history.length + 1);
    expect(JSON.stringify(after.history.slice(0, -1))).toBe(JSON.stringify(before.history));
    expect(after.history.at(-1)).toMatchObject({ previous: before.verdict, current: { risk_level: 'high', risk_categories: ['scam'] } });
    expect(after.verdict).toEqual(after.history.at(-1).current);
  });
});
