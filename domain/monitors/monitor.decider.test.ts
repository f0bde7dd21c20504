import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { monitorDecider, RECENT_CHANGES_KEPT, type MonitorCommand } from './monitor.decider.js';
import type { MonitorEvent } from './monitor.events.js';
import type { ChangeReason } from '../intel/change-reason.js';
import type { MonitorVerdict } from './monitor-verdict.js';
import { FIXTURE_COVERAGE } from '../../test/support/intel-fixtures.js';
import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';

const spec = deciderSpec(monitorDecider);
const T0 = '2026-05-03T10:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';
const JUNE = '2026-06-01T00:00:00.000Z';
const versions = { taxonomy: 't1', snapshot: 'sha256:a', sources: [] };
const clean: MonitorVerdict = { riskLevel: 'none', riskScore: null, riskCategories: [], sanctionsMatch: null, label: null };
const sanctioned: MonitorVerdict = {
  riskLevel: 'sanctioned',
  riskScore: 100,
  riskCategories: ['sanctions'],
  label: null,
  sanctionsMatch: { list: 'US', entity: 'Made-up Entity', program: 'CYBER2', listEntryId: '1', listDate: '2026-05-02', source: 'ofac_sdn' },
};
/** The verdicts in the webhook's words, as its payload has always carried them (docs/api.md, "Monitors"). */
const words = {
  clean: { risk_level: 'none', risk_score: null, risk_categories: [], sdn_match: null, label: null },
  sanctioned: {
    risk_level: 'sanctioned',
    risk_score: 100,
    risk_categories: ['sanctions'],
    sdn_match: { list: 'US', entity: 'Made-up Entity', program: 'CYBER2', list_entry_id: '1', list_date: '2026-05-02', source: 'ofac_sdn' },
    label: null,
  },
} as const;
const wordsOf = (verdict: MonitorVerdict) => (verdict === clean ? words.clean : words.sanctioned);
const reason: ChangeReason = { source: 'ofac_sdn', change: 'dataset_imported', version: '2026-05-02', changedAt: T0 };

const create: MonitorCommand = {
  type: 'Create',
  monitorId: 'm-1',
  userId: 'u-1',
  keyId: 'k-1',
  address: '0xabc',
  network: 'ETH',
  reference: 'customer-7',
  verdict: clean,
  dataVersions: versions,
  sanctions: FIXTURE_COVERAGE,
  period: MAY,
  at: T0,
};
const created: MonitorEvent = {
  type: 'MonitorCreated',
  data: {
    monitorId: 'm-1',
    userId: 'u-1',
    keyId: 'k-1',
    address: '0xabc',
    network: 'ETH',
    reference: 'customer-7',
    verdict: clean,
    dataVersions: versions,
    sanctions: FIXTURE_COVERAGE,
    paidPeriod: MAY,
    createdAt: T0,
  },
};
const reevaluate = (verdict: MonitorVerdict, changeKey = 'dataset:ofac_sdn:h2'): MonitorCommand => ({
  type: 'Reevaluate',
  changeKey,
  verdict,
  dataVersions: versions,
  sanctions: FIXTURE_COVERAGE,
  reasons: [reason],
  at: T0,
});
const changed = (previous: MonitorVerdict, current: MonitorVerdict, changeKey = 'dataset:ofac_sdn:h2'): MonitorEvent => ({
  type: 'MonitorVerdictChanged',
  data: { changeKey, previous, current, reasons: [reason], dataVersions: versions, sanctions: FIXTURE_COVERAGE, at: T0 },
});
const raised = (previous: MonitorVerdict, current: MonitorVerdict): MonitorEvent => ({
  type: 'WebhookEventRaised',
  data: {
    event_type: 'service.address.risk_changed',
    audience: { user_id: 'u-1' },
    occurred_at: T0,
    payload: {
      monitor_id: 'm-1',
      address: '0xabc',
      network: 'ETH',
      reference: 'customer-7',
      previous: wordsOf(previous),
      current: wordsOf(current),
      reasons: [{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-05-02', changed_at: T0 }],
      sanctions: sanctionsCoverageBody(FIXTURE_COVERAGE),
    },
  },
});

describe('the monitor decider', () => {
  it('creates a monitor once; watching it again is the same monitor', () => {
    spec.given([]).when(create).then([created]);
    spec.given([created]).when(create).thenNothingHappened();
  });

  it('a re-evaluation that changes the verdict appends the change and its risk_changed webhook in one decision', () => {
    spec
      .given([created])
      .when(reevaluate(sanctioned))
      .then([changed(clean, sanctioned), raised(clean, sanctioned)]);
  });

  it('the webhook carries the verdicts in the words, and the key order, it was always sent in', () => {
    spec
      .given([created])
      .when(reevaluate(sanctioned))
      .thenMatches((events) => {
        const payload = (events[1]?.data as { payload: Record<string, unknown> }).payload;
        expect(JSON.stringify([payload.previous, payload.current])).toBe(JSON.stringify([words.clean, words.sanctioned]));
      });
  });

  it('the same change (dataset version) is never appended twice, even if the verdict moved again since', () => {
    const after = [created, changed(clean, sanctioned), raised(clean, sanctioned)];
    spec.given(after).when(reevaluate(sanctioned)).thenNothingHappened();
    spec.given(after).when(reevaluate(clean)).thenNothingHappened();
    spec
      .given(after)
      .when(reevaluate(clean, 'dataset:ofac_sdn:h3'))
      .then([changed(sanctioned, clean, 'dataset:ofac_sdn:h3'), raised(sanctioned, clean)]);
  });

  it('a score that moves without level, sanctions, categories or label changing is not a change', () => {
    spec
      .given([created, changed(clean, sanctioned)])
      .when(reevaluate({ ...sanctioned, riskScore: 97 }, 'k2'))
      .thenNothingHappened();
    spec
      .given([created])
      .when(reevaluate({ ...clean, label: 'Made-up Exchange' }))
      .thenMatches((events) => expect(events.map((e) => e.type)).toEqual(['MonitorVerdictChanged', 'WebhookEventRaised']));
  });

  it('forgets change keys beyond the bound', () => {
    let events: MonitorEvent[] = [created];
    let previous = clean;
    for (let i = 0; i <= RECENT_CHANGES_KEPT; i++) {
      const next = { ...clean, label: `name ${i}` };
      events = [...events, changed(previous, next, `k${i}`)];
      previous = next;
    }
    const state = spec.given(events).when(reevaluate(previous, 'k0')).thenNothingHappened();
    expect(state.recentChanges).not.toContain('k0');
    expect(state.recentChanges).toHaveLength(RECENT_CHANGES_KEPT);
  });

  it('renews a new period once; an unpaid period pauses it, saying why, and a paid one resumes it', () => {
    const renewJune: MonitorCommand = { type: 'Renew', period: JUNE, paid: true, at: T0 };
    spec
      .given([created])
      .when(renewJune)
      .then([{ type: 'MonitorRenewed', data: { period: JUNE, at: T0 } }]);
    spec
      .given([created, { type: 'MonitorRenewed', data: { period: JUNE, at: T0 } }])
      .when(renewJune)
      .thenNothingHappened();
    spec.given([created]).when({ type: 'Renew', period: MAY, paid: true, at: T0 }).thenNothingHappened();
    const unpaid: MonitorCommand = { type: 'Renew', period: JUNE, paid: false, reason: 'insufficient_funds', at: T0 };
    const paused: MonitorEvent = { type: 'MonitorPaused', data: { period: JUNE, reason: 'insufficient_funds', at: T0 } };
    spec.given([created]).when(unpaid).then([paused]);
    spec.given([created, paused]).when(unpaid).thenNothingHappened();
    spec
      .given([created, paused])
      .when(renewJune)
      .then([{ type: 'MonitorResumed', data: { period: JUNE, at: T0 } }]);
  });

  it('a paused monitor is not re-evaluated', () => {
    const paused: MonitorEvent = { type: 'MonitorPaused', data: { period: JUNE, reason: 'insufficient_funds', at: T0 } };
    spec.given([created, paused]).when(reevaluate(sanctioned)).thenNothingHappened();
  });

  it('deletes an existing monitor; a deleted or unknown one is not found; it can be watched again', () => {
    const deleted: MonitorEvent = { type: 'MonitorDeleted', data: { at: T0 } };
    spec.given([created]).when({ type: 'Delete', at: T0 }).then([deleted]);
    spec.given([]).when({ type: 'Delete', at: T0 }).thenThrows('not_found');
    spec.given([created, deleted]).when({ type: 'Delete', at: T0 }).thenThrows('not_found');
    spec.given([created, deleted]).when(reevaluate(sanctioned)).thenNothingHappened();
    spec.given([created, deleted]).when(create).then([created]);
  });
});
