import { describe, expect, it } from 'vitest';
import type { ChangeReason } from '../domain/intel/change-reason.js';
import type { MonitorVerdict } from '../domain/monitors/monitor-verdict.js';
import { FIXTURE_COVERAGE } from '../test/support/intel-fixtures.js';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { openTempReadStore } from '../test/support/temp-read-store.js';
import { HISTORY_KEPT, monitorRepository, monitorsProjection } from './monitors.projection.js';

const T0 = '2026-05-03T10:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';
const JUNE = '2026-06-01T00:00:00.000Z';
const versions = { taxonomy: 't1', snapshot: 'sha256:a', sources: [] };
const clean: MonitorVerdict = { riskLevel: 'none', riskScore: null, riskCategories: [], sanctionsMatch: null, label: null };
const flagged: MonitorVerdict = { riskLevel: 'high', riskScore: 80, riskCategories: ['mixer'], sanctionsMatch: null, label: 'Mixer' };
const reason: ChangeReason = { source: 'curated', change: 'curator_entry_added', version: null, changedAt: T0 };

const created = (monitorId: string, userId: string, address: string, createdAt = T0) =>
  event(`monitor-${monitorId}`, 'MonitorCreated', {
    monitorId,
    userId,
    keyId: null,
    address,
    network: 'ETH',
    reference: null,
    verdict: clean,
    dataVersions: versions,
    sanctions: FIXTURE_COVERAGE,
    paidPeriod: MAY,
    createdAt,
  });
const changed = (monitorId: string, previous: MonitorVerdict, current: MonitorVerdict, at: string) =>
  event(`monitor-${monitorId}`, 'MonitorVerdictChanged', {
    changeKey: `curation:${at}:added`,
    previous,
    current,
    reasons: [reason],
    dataVersions: versions,
    at,
  });

const spec = projectionSpec(monitorsProjection, monitorRepository);

describe('the monitors read model', () => {
  it('a created monitor is active for its paid period, found by its watch key', async () => {
    await spec
      .given([])
      .when([created('m1', 'u1', '0xabc')])
      .then(async (monitors, documents) => {
        expect(documents.get('m1')).toMatchObject({
          status: 'active',
          watch_key: 'ETH:0xabc',
          renewal_key: `active:${MAY}`,
          verdict: clean,
          sanctions: FIXTURE_COVERAGE,
          last_changed_at: null,
          history: [],
        });
        expect((await monitors.watching('ETH', '0xabc')).map((m) => m.monitor_id)).toEqual(['m1']);
        expect(await monitors.anyActive()).toBe(true);
      });
  });

  it('a verdict change becomes the verdict and a history row; a change without coverage says it was not recorded', async () => {
    await spec
      .given([created('m1', 'u1', '0xabc')])
      .when([changed('m1', clean, flagged, '2026-05-04T10:00:00.000Z')])
      .then((_monitors, documents) =>
        expect(documents.get('m1')).toMatchObject({
          verdict: flagged,
          sanctions: null,
          last_changed_at: '2026-05-04T10:00:00.000Z',
          history: [{ at: '2026-05-04T10:00:00.000Z', previous: clean, current: flagged, reasons: [reason], sanctions: null }],
        }),
      );
  });

  it(`keeps the last ${HISTORY_KEPT} changes`, async () => {
    const flips = Array.from({ length: HISTORY_KEPT + 2 }, (_, i) =>
      changed('m1', i % 2 ? flagged : clean, i % 2 ? clean : flagged, new Date(Date.parse(T0) + (i + 1) * 1000).toISOString()),
    );
    await spec
      .given([created('m1', 'u1', '0xabc')])
      .when(flips)
      .then((_monitors, documents) => {
        const history = documents.get('m1')?.history ?? [];
        expect(history).toHaveLength(HISTORY_KEPT);
        expect(history[0]?.at).toBe(flips[2]?.data.at);
      });
  });

  it('a pause stops renewal under the paid period; a resume pays a new one; a renewal moves it', async () => {
    await spec
      .given([created('m1', 'u1', '0xabc'), created('m2', 'u1', '0xdef')])
      .when([
        event('monitor-m1', 'MonitorPaused', { period: JUNE, reason: 'insufficient_funds', at: JUNE }),
        event('monitor-m2', 'MonitorRenewed', { period: JUNE, at: JUNE }),
      ])
      .then(async (monitors) => {
        expect(await monitors.get('m1')).toMatchObject({
          status: 'paused',
          paused_reason: 'insufficient_funds',
          renewal_key: `paused:${MAY}`,
        });
        expect((await monitors.due('active', JUNE, 10)).map((m) => m.monitor_id)).toEqual(['m2']);
        expect((await monitors.due('paused', MAY, 10)).map((m) => m.monitor_id)).toEqual(['m1']);
        expect(await monitors.count('paused')).toBe(1);
      });
    await spec
      .given([created('m1', 'u1', '0xabc'), event('monitor-m1', 'MonitorPaused', { period: JUNE, reason: 'insufficient_funds', at: JUNE })])
      .when([event('monitor-m1', 'MonitorResumed', { period: JUNE, at: '2026-06-02T00:00:00.000Z' })])
      .then(async (monitors) =>
        expect(await monitors.get('m1')).toMatchObject({
          status: 'active',
          paused_reason: null,
          paid_period: JUNE,
          renewal_key: `active:${JUNE}`,
        }),
      );
  });

  it('a deleted monitor is gone; events of a monitor never created create nothing', async () => {
    await spec
      .given([created('m1', 'u1', '0xabc')])
      .when([event('monitor-m1', 'MonitorDeleted', { at: T0 })])
      .thenDocument('m1', null);
    await spec
      .given([])
      .when([event('monitor-m2', 'MonitorRenewed', { period: JUNE, at: JUNE })])
      .thenDocument('m2', null);
  });

  it('pages one user’s monitors newest first', async () => {
    await spec
      .given([created('m1', 'u1', '0x1', '2026-05-03T10:00:00.000Z'), created('m2', 'u2', '0x2', '2026-05-03T11:00:00.000Z')])
      .when([created('m3', 'u1', '0x3', '2026-05-03T12:00:00.000Z')])
      .then(async (monitors) => {
        const page = await monitors.page('u1', { page: 1, pageSize: 1 });
        expect(page).toMatchObject({ total: 2, rows: [{ monitor_id: 'm3' }] });
        expect(await monitors.count()).toBe(3);
      });
  });

  it('reads a document folded before monitor verdicts were domain facts (the API’s words) as the facts it states', async () => {
    const store = await openTempReadStore();
    const words = { risk_level: 'high', risk_score: 80, risk_categories: ['mixer'], sdn_match: null, label: 'Mixer' };
    const listed = {
      risk_level: 'sanctioned',
      risk_score: 100,
      risk_categories: ['sanctions'],
      sdn_match: { list: 'US', entity: 'Made-up Entity', program: null, list_entry_id: '7', list_date: '2026-05-02', source: 'ofac_sdn' },
      label: null,
    };
    const folded = {
      monitor_id: 'm1',
      user_id: 'u1',
      address: '0xabc',
      network: 'ETH',
      watch_key: 'ETH:0xabc',
      reference: null,
      status: 'active',
      paused_reason: null,
      paid_period: MAY,
      renewal_key: `active:${MAY}`,
      verdict: listed,
      data_versions: { taxonomy: 't1', snapshot: null, sources: [{ source: 'ofac_sdn', version: '2026-05-02', content_hash: 'sha256:c' }] },
      created_at: T0,
      last_evaluated_at: T0,
      last_changed_at: T0,
      history: [
        {
          at: T0,
          previous: words,
          current: listed,
          reasons: [{ source: 'curated', change: 'curator_entry_added', version: null, changed_at: T0 }],
          sanctions: null,
        },
      ],
    };
    await store.collection('monitors').apply('m1', { commit: 1n, prepare: 1n }, () => folded);
    const sanctioned: MonitorVerdict = {
      riskLevel: 'sanctioned',
      riskScore: 100,
      riskCategories: ['sanctions'],
      sanctionsMatch: { list: 'US', entity: 'Made-up Entity', program: null, listEntryId: '7', listDate: '2026-05-02', source: 'ofac_sdn' },
      label: null,
    };
    const doc = await monitorRepository(store).get('m1');
    expect(doc).toMatchObject({
      verdict: sanctioned,
      data_versions: { taxonomy: 't1', snapshot: null, sources: [{ source: 'ofac_sdn', version: '2026-05-02', contentHash: 'sha256:c' }] },
      history: [{ previous: flagged, current: sanctioned, reasons: [reason] }],
    });
    expect(doc?.data_versions.sources[0]).not.toHaveProperty('importedAt');
    expect((await monitorRepository(store).page('u1', { page: 1, pageSize: 5 })).rows[0]?.verdict).toEqual(sanctioned);
    await store.close();
  });
});
