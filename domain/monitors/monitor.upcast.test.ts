import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../events/registry.js';
import { storedEvent } from '../../test/support/stored-event.js';
import type { ChangeReason } from '../intel/change-reason.js';
import { changeReasonWords } from '../webhooks/change-reason-words.js';
import { monitorVerdictWords } from './risk-changed-payload.js';
import { monitorDataVersionsAsStored, monitorVerdictAsStored, type MonitorVerdictV1 } from './monitor.upcast.js';

const T0 = '2026-11-20T10:00:00.000Z';
const stored = (type: string, data: unknown, schemaVersion = 1) => storedEvent(type, 'monitor-m1', data, { schemaVersion, occurredAt: T0 });

/** Verdicts as version 1 recorded them (the API's words, in the order they were sent). */
const cleanV1: MonitorVerdictV1 = { risk_level: 'none', risk_score: null, risk_categories: [], sdn_match: null, label: null };
const listedV1: MonitorVerdictV1 = {
  risk_level: 'sanctioned',
  risk_score: 100,
  risk_categories: ['sanctions'],
  sdn_match: { list: 'UK', entity: 'Made-up Entity', program: null, list_entry_id: '7', list_date: null, source: 'uk_list' },
  label: 'Made-up Entity',
};
/** One source recorded before `imported_at` was kept, one after. */
const versionsV1 = {
  taxonomy: 't1',
  snapshot: 'sha256:s',
  sources: [
    { source: 'old_list', version: 'v1', content_hash: 'sha256:a' },
    { source: 'uk_list', version: '2026-11-19', content_hash: 'sha256:b', imported_at: T0 },
  ],
};
const versions = {
  taxonomy: 't1',
  snapshot: 'sha256:s',
  sources: [
    { source: 'old_list', version: 'v1', contentHash: 'sha256:a' },
    { source: 'uk_list', version: '2026-11-19', contentHash: 'sha256:b', importedAt: T0 },
  ],
};
const listed = {
  riskLevel: 'sanctioned',
  riskScore: 100,
  riskCategories: ['sanctions'],
  sanctionsMatch: { list: 'UK', entity: 'Made-up Entity', program: null, listEntryId: '7', listDate: null, source: 'uk_list' },
  label: 'Made-up Entity',
};

describe('monitor events written before monitor verdicts were domain facts', () => {
  it('MonitorCreated version 1 reads as the domain verdict and data versions, a source without imported_at kept without it', () => {
    const created = {
      monitorId: 'm1',
      userId: 'u1',
      keyId: null,
      address: '0xabc',
      network: 'ETH',
      reference: null,
      verdict: listedV1,
      dataVersions: versionsV1,
      paidPeriod: '2026-11-01T00:00:00.000Z',
      createdAt: T0,
    };
    const read = eventRegistry.parse(stored('MonitorCreated', created));
    expect(read?.data).toEqual({ ...created, verdict: listed, dataVersions: versions });
    expect((read?.data as { dataVersions: typeof versions }).dataVersions.sources[0]).not.toHaveProperty('importedAt');
  });

  it('MonitorVerdictChanged version 1 reads as facts, its reasons too; its receipt as recorded', () => {
    const reasons = [{ source: 'uk_list', change: 'dataset_imported', version: '2026-11-19', changed_at: T0 }];
    const change = {
      changeKey: 'dataset:uk_list:sha256:b',
      previous: cleanV1,
      current: listedV1,
      reasons,
      dataVersions: versionsV1,
      receipt: 'h.p.s',
      at: T0,
    };
    expect(eventRegistry.parse(stored('MonitorVerdictChanged', change))?.data).toEqual({
      ...change,
      previous: { riskLevel: 'none', riskScore: null, riskCategories: [], sanctionsMatch: null, label: null },
      current: listed,
      reasons: [{ source: 'uk_list', change: 'dataset_imported', version: '2026-11-19', changedAt: T0 }],
      dataVersions: versions,
    });
  });

  it('MonitorVerdictChanged version 2 (reasons in the webhook’s words) reads with the reasons as domain facts, the rest as it was', () => {
    const change = {
      changeKey: 'dataset:uk_list:sha256:b',
      previous: { riskLevel: 'none', riskScore: null, riskCategories: [], sanctionsMatch: null, label: null },
      current: listed,
      reasons: [
        { source: 'uk_list', change: 'dataset_imported', version: '2026-11-19', changed_at: T0 },
        { source: 'curated', change: 'curator_entry_added', version: null, changed_at: '2026-11-20T11:00:00.000Z' },
      ],
      dataVersions: versions,
      receipt: 'h.p.s',
      at: T0,
    };
    expect(eventRegistry.parse(stored('MonitorVerdictChanged', change, 2))?.data).toEqual({
      ...change,
      reasons: [
        { source: 'uk_list', change: 'dataset_imported', version: '2026-11-19', changedAt: T0 },
        { source: 'curated', change: 'curator_entry_added', version: null, changedAt: '2026-11-20T11:00:00.000Z' },
      ],
    });
  });

  it('the reasons go back to the words they were recorded in, byte for byte (the webhook and the API show them)', () => {
    const v2 = [{ source: 's', change: 'curator_entry_retracted', version: '2026-11-19', changed_at: T0 }];
    const fact = eventRegistry.parse(
      stored(
        'MonitorVerdictChanged',
        { changeKey: 'k', previous: listed, current: listed, reasons: v2, dataVersions: versions, at: T0 },
        2,
      ),
    );
    const reasons = (fact?.data as { reasons: ChangeReason[] }).reasons;
    expect(JSON.stringify(reasons.map(changeReasonWords))).toBe(JSON.stringify(v2));
  });

  it('the facts go back to the words version 1 recorded, byte for byte (the webhook payload is built from them)', () => {
    for (const v1 of [cleanV1, listedV1]) {
      const fact = eventRegistry.parse(
        stored('MonitorVerdictChanged', {
          changeKey: 'k',
          previous: v1,
          current: v1,
          reasons: [{ source: 's', change: 'dataset_imported', version: null, changed_at: T0 }],
          dataVersions: versionsV1,
          at: T0,
        }),
      );
      const current = (fact?.data as { current: Parameters<typeof monitorVerdictWords>[0] }).current;
      expect(JSON.stringify(monitorVerdictWords(current))).toBe(JSON.stringify(v1));
    }
  });

  it('a stored state or document reads either shape: version 1 as the facts, the facts as they are', () => {
    expect(monitorVerdictAsStored(listedV1)).toEqual(listed);
    expect(monitorVerdictAsStored(listed)).toBe(listed);
    expect(monitorVerdictAsStored(null)).toBeNull();
    expect(monitorDataVersionsAsStored(versionsV1)).toEqual(versions);
    expect(monitorDataVersionsAsStored(versions)).toBe(versions);
    const none = { taxonomy: 't1', snapshot: null, sources: [] };
    expect(monitorDataVersionsAsStored(none)).toEqual(none);
  });
});
