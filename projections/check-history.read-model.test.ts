import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import type { ScreenSummaryV1 } from '../domain/ledger/charged.upcast.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { openTempReadStore } from '../test/support/temp-read-store.js';
import { checkHistoryProjection, checkHistoryRepository } from './check-history.projection.js';

let commit = 0n;
const recorded = (type: string, streamId: string, data: Record<string, unknown>): RecordedEvent =>
  ({
    type,
    data,
    streamId,
    revision: 0n,
    position: { commit: ++commit, prepare: commit },
    id: `e${commit}`,
    metadata: {},
    created: new Date(0),
  }) as unknown as RecordedEvent;

const charged = (userId: string, chargeId: string, product: string, at: string, screen?: ScreenSummaryV1) =>
  recorded('Charged', `ledger-${userId}`, {
    chargeId,
    product,
    at,
    details: { network: 'ETH', subject: `0x${chargeId}`, ...(screen ? { screen } : {}) },
  });

/** Recorded without a schema version: version 1, the wire summary, read through the registry's upcaster. */
const summary: ScreenSummaryV1 = {
  risk_level: 'sanctioned',
  risk_score: 100,
  confidence: 100,
  source_count: 1,
  label: null,
  data_available: true,
  sdn_match: {
    list: 'US',
    entity: 'EXAMPLE GROUP',
    program: 'CYBER2',
    list_entry_id: null,
    list_date: '2024-01-02',
    asset: null,
    source: 'ofac_sdn',
  },
  categories: [{ slug: 'sanctions', risk_level: 'sanctioned' }],
};

const opened: ReadStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function project(events: RecordedEvent[]) {
  const store = await openTempReadStore();
  opened.push(store);
  const collection = store.collection(checkHistoryProjection.collection);
  for (const event of events) {
    const id = checkHistoryProjection.idOf(event);
    if (id) await collection.apply(id, event.position, (doc) => checkHistoryProjection.evolve(doc as never, event));
  }
  return checkHistoryRepository(store);
}

describe('check history read model', () => {
  it("a light screen shows its recorded verdict's level; one charged before verdicts were kept stays unknown", async () => {
    const history = await project([
      charged('u1', 'old', 'screen', '2026-03-01T10:00:00.000Z'),
      charged('u1', 'new', 'screen', '2026-03-02T10:00:00.000Z', summary),
    ]);
    const { rows } = await history.page('u1', {}, { page: 1, pageSize: 10 });
    expect(rows.map((r) => [r.id, r.risk_level, r.summary?.sanctionsMatch?.entity ?? null])).toEqual([
      ['new', 'sanctioned', 'EXAMPLE GROUP'],
      ['old', null, null],
    ]);
    expect((await history.page('u1', { riskLevel: 'sanctioned' }, { page: 1, pageSize: 10 })).total).toBe(1);
  });

  it("an inspect takes its audit's worst level", async () => {
    const history = await project([
      charged('u1', 'i1', 'inspect', '2026-03-01T10:00:00.000Z'),
      recorded('InspectCompleted', 'inspect-i1', { audit: { worst_risk_level: 'high' }, at: '2026-03-01T10:00:00.000Z' }),
    ]);
    expect((await history.get('u1', 'i1'))?.risk_level).toBe('high');
  });

  it('a check is read by its owner only', async () => {
    const history = await project([charged('u1', 'c1', 'screen', '2026-03-01T10:00:00.000Z')]);
    expect(await history.get('u1', 'c1')).toMatchObject({ id: 'c1', kind: 'screen' });
    expect(await history.get('u2', 'c1')).toBeNull();
    expect(await history.get('u1', 'missing')).toBeNull();
  });

  it('pages a range of days: from `since` (included) to `until` (excluded), newest first', async () => {
    const days = ['01', '02', '03', '04', '05', '06'];
    const history = await project(days.map((d) => charged('u1', `c${d}`, 'screen', `2026-03-${d}T12:00:00.000Z`)));
    const range = { since: '2026-03-02T00:00:00.000Z', until: '2026-03-05T00:00:00.000Z' };
    const first = await history.page('u1', range, { page: 1, pageSize: 2 });
    const second = await history.page('u1', range, { page: 2, pageSize: 2 });
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => r.id)).toEqual(['c04', 'c03']);
    expect(second.rows.map((r) => r.id)).toEqual(['c02']);
    expect((await history.page('u1', range, { page: 3, pageSize: 2 })).rows).toEqual([]);
    expect((await history.page('u1', { until: '2026-03-02T00:00:00.000Z' }, { page: 1, pageSize: 10 })).rows.map((r) => r.id)).toEqual([
      'c01',
    ]);
    expect(
      (await history.page('u1', { since: '2026-03-05T00:00:00.000Z', until: '2026-03-02T00:00:00.000Z' }, { page: 1, pageSize: 10 })).total,
    ).toBe(0);
  });
});
