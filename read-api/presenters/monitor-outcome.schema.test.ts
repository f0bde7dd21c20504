import { describe, expect, it } from 'vitest';
import { outcomeStoredV1toV2 } from '../../domain/idempotency/idempotency.upcast.js';
import { bulkWatchedSchema, monitorWatchedSchema } from './monitor-outcome.schema.js';
import { presentMonitorWatched } from './monitor.presenter.js';

const T0 = '2026-11-26T10:00:00.000Z';

/** A monitor's state as a bulk outcome stored it on 2026-11-26: before the state kept its sanctions coverage. */
const stateStoredThen = {
  status: 'active',
  monitorId: 'm-1',
  userId: 'u-1',
  address: '0x00000000000000000000000000000000000000a1',
  network: 'ETH',
  reference: 'customer-7',
  verdict: { risk_level: 'none', risk_score: null, risk_categories: [], sdn_match: null, label: null },
  paidPeriod: '2026-11-01T00:00:00.000Z',
  pausedReason: null,
  dataVersions: { taxonomy: 't1', snapshot: 'sha256:a', sources: [{ source: 'made_up_list', version: 'v1', content_hash: 'sha256:b' }] },
  createdAt: T0,
  lastChangedAt: T0,
  recentChanges: [],
};
/** Version 1 of the stored outcome: the response's billing object. */
const envelopeV1 = {
  model: 'ledger',
  currency: 'USD',
  charged_usd: 0.2,
  balance_usd: 9.8,
  monthly_spent_usd: 0.2,
  monthly_cap_usd: null,
  replay: false,
};
const bulkV1 = {
  kind: 'bulk',
  entries: [
    { kind: 'watched', created: true, state: stateStoredThen, billing: envelopeV1 },
    { kind: 'refused', failure: { code: 'insufficient_funds', message: 'the balance does not cover 0.20 USD' } },
    { kind: 'invalid', detail: [{ loc: ['body', 'address'], msg: 'not an address', type: 'value_error', input: 'x' }] },
  ],
};

/** The stored outcome as a replay reads it: upcast to version 2, then parsed by the route's schema. */
const upcast = (outcome: unknown): unknown =>
  (outcomeStoredV1toV2({ callId: 'c-1', result: { kind: 'outcome', outcome }, at: T0 }) as { result: { outcome: unknown } }).result.outcome;

describe('the monitor routes’ stored outcomes', () => {
  it('a bulk outcome stored before billing was a domain fact, and before the state kept its sanctions, still parses', () => {
    const parsed = bulkWatchedSchema.parse(upcast(bulkV1));
    const watched = parsed.entries[0];
    expect(watched?.kind).toBe('watched');
    if (watched?.kind !== 'watched') return;
    expect(watched.state.sanctions).toBeNull();
    // The state's verdict and data versions, stored in the API's words, read as the domain facts they state.
    expect(watched.state.verdict).toEqual({ riskLevel: 'none', riskScore: null, riskCategories: [], sanctionsMatch: null, label: null });
    expect(watched.state.dataVersions).toEqual({
      taxonomy: 't1',
      snapshot: 'sha256:a',
      sources: [{ source: 'made_up_list', version: 'v1', contentHash: 'sha256:b' }],
    });
    expect(watched.billing).toEqual({
      model: 'ledger',
      chargedMicros: 200_000,
      balanceMicros: 9_800_000,
      monthlySpentMicros: 200_000,
      monthlyCapMicros: null,
      replay: false,
    });
    expect(parsed.entries.slice(1)).toEqual(bulkV1.entries.slice(1));
    // Its replay answers the verdict and data versions in the words and order the first call sent.
    const { body } = presentMonitorWatched(watched);
    expect(JSON.stringify([body.verdict, body.data_versions])).toBe(
      JSON.stringify([stateStoredThen.verdict, stateStoredThen.dataVersions]),
    );
  });

  it('refuses an outcome of another shape instead of reading it as one', () => {
    const watched = upcast({ kind: 'watched', created: true, state: stateStoredThen, billing: envelopeV1 });
    expect(monitorWatchedSchema.safeParse(watched).success).toBe(true);
    expect(monitorWatchedSchema.safeParse({ ...(watched as object), state: { ...stateStoredThen, status: 'gone' } }).success).toBe(false);
    expect(bulkWatchedSchema.safeParse(watched).success).toBe(false);
    expect(
      bulkWatchedSchema.safeParse({ kind: 'bulk', entries: [{ kind: 'refused', failure: { code: 'no_such_code', message: 'm' } }] })
        .success,
    ).toBe(false);
  });
});
