import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../../domain/events/registry.js';
import { chargedBillingSchema } from '../../domain/ledger/charged-billing.js';
import { chargedBillingOfEnvelope } from '../../domain/ledger/charged-billing.upcast.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { STORED_FULL_CHECKS } from '../../test/support/stored-full-checks.js';
import { arbitraryOf } from '../../test/support/zod-arbitrary.js';
import { presentBilling } from './billing.presenter.js';

/** An event of schema version 1 as the event store gives it back. */
const recordedV1 = (type: string, data: unknown): RecordedEvent =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    type,
    data,
    metadata: { correlationId: 'c', occurredAt: '2026-11-29T05:23:38.269Z', schemaVersion: 1 },
    streamId: 'check-c',
    revision: 7n,
    position: 1n,
    created: new Date(0),
  }) as unknown as RecordedEvent;

const QUOTA_V1 = { model: 'quota', charged_units: 1, units_used: 41, monthly_quota: 1000, period_start: '2026-11-01', replay: false };
const LEDGER_V1 = {
  model: 'ledger',
  currency: 'USD',
  charged_usd: 0.1,
  balance_usd: 1234.567891,
  monthly_spent_usd: 0.3,
  monthly_cap_usd: 50,
  replay: false,
};

/** Micro-USD amounts up to a billion USD either way: USD with 6 decimals is exact in a double there. */
const micros = fc.integer({ min: -1e15, max: 1e15 });
const charges = arbitraryOf(chargedBillingSchema, {
  chargedMicros: fc.nat({ max: 1e15 }),
  balanceMicros: micros,
  monthlySpentMicros: fc.nat({ max: 1e15 }),
  monthlyCapMicros: fc.option(fc.nat({ max: 1e15 }), { nil: null }),
});

describe('billing: the charge as a domain fact, the billing object as its presenter', () => {
  it('presents any charge so that the stored envelope of it reads back as the very charge (the upcaster is exact)', () => {
    fc.assert(
      fc.property(charges, (charge) => {
        const wire = JSON.parse(JSON.stringify(presentBilling(charge))) as unknown;
        expect(chargedBillingOfEnvelope(wire)).toEqual(charge);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['CheckResultDelivered', LEDGER_V1],
    ['CheckResultDelivered', QUOTA_V1],
    ['ExploreResultDelivered', LEDGER_V1],
    ['ExploreResultDelivered', { ...QUOTA_V1, replay: true }],
  ])('reads a %s of version 1 (the stored billing object) as the charge, which presents the same bytes', (type, billing) => {
    const event = eventRegistry.parse(recordedV1(type, { billing, at: '2026-11-29T05:23:58.218Z' }));
    const data = event?.data as { billing: Parameters<typeof presentBilling>[0] };
    expect(chargedBillingSchema.parse(data.billing)).toEqual(data.billing);
    expect(JSON.stringify(presentBilling(data.billing))).toBe(JSON.stringify(billing));
  });

  it('serves the billing the fixtures’ deliveries stored (written by the code before this change), byte for byte', () => {
    const delivered = STORED_FULL_CHECKS.checks.flatMap((check) => check.events.filter((event) => event.type === 'CheckResultDelivered'));
    expect(delivered.length).toBeGreaterThan(0);
    for (const stored of delivered) {
      const event = eventRegistry.parse(recordedV1(stored.type, stored.data));
      const charge = (event?.data as { billing: Parameters<typeof presentBilling>[0] }).billing;
      expect(JSON.stringify(presentBilling(charge))).toBe(JSON.stringify((stored.data as { billing: unknown }).billing));
    }
  });

  it('serves the billing the stored explore jobs’ deliveries carried (test/fixtures/verdicts/explores-v1.json), byte for byte', () => {
    const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/verdicts/explores-v1.json', import.meta.url), 'utf8')) as {
      explores: { events: { type: string; data: { billing: unknown } }[] }[];
    };
    const delivered = fixture.explores.flatMap((job) => job.events.filter((event) => event.type === 'ExploreResultDelivered'));
    expect(delivered.length).toBeGreaterThan(0);
    for (const stored of delivered) {
      const event = eventRegistry.parse(recordedV1(stored.type, stored.data));
      const charge = (event?.data as { billing: Parameters<typeof presentBilling>[0] }).billing;
      expect(JSON.stringify(presentBilling(charge))).toBe(JSON.stringify(stored.data.billing));
    }
  });

  it('reads a delivery stored with no billing as none recorded (the delivery then asks the ledger again)', () => {
    const event = eventRegistry.parse(recordedV1('CheckResultDelivered', { billing: null, at: '2026-11-29T05:23:58.218Z' }));
    expect(event?.data).toEqual({ billing: null, at: '2026-11-29T05:23:58.218Z' });
    expect(chargedBillingOfEnvelope({ replay: true })).toBeNull();
  });

  it('reads an Idempotency-Key outcome of version 1 with its billing object as the charge; recorded answers stay verbatim', () => {
    const outcome = { kind: 'completed', verdict: { address: '0xab' }, receipt: 'a.b.c', billing: QUOTA_V1 };
    const upcast = eventRegistry.parse(
      recordedV1('IdempotentOutcomeStored', { callId: 'k', result: { kind: 'outcome', outcome }, at: '2026-11-29T05:23:58.218Z' }),
    );
    const result = (upcast?.data as { result: { outcome: { billing: Parameters<typeof presentBilling>[0] } } }).result;
    expect(result.outcome).toEqual({ ...outcome, billing: chargedBillingOfEnvelope(QUOTA_V1) });
    expect(JSON.stringify(presentBilling(result.outcome.billing))).toBe(JSON.stringify(QUOTA_V1));
    const bulk = {
      kind: 'bulk',
      entries: [
        { kind: 'watched', billing: LEDGER_V1 },
        { kind: 'refused', failure: {} },
      ],
    };
    const bulkUpcast = eventRegistry.parse(
      recordedV1('IdempotentOutcomeStored', { callId: 'k', result: { kind: 'outcome', outcome: bulk }, at: '2026-11-29T05:23:58.218Z' }),
    );
    expect((bulkUpcast?.data as { result: { outcome: unknown } }).result.outcome).toEqual({
      kind: 'bulk',
      entries: [
        { kind: 'watched', billing: chargedBillingOfEnvelope(LEDGER_V1) },
        { kind: 'refused', failure: {} },
      ],
    });
    const answer = { kind: 'recordedAnswer', code: 200, body: { billing: QUOTA_V1 } };
    const kept = eventRegistry.parse(
      recordedV1('IdempotentOutcomeStored', { callId: 'k', result: answer, at: '2026-11-29T05:23:58.218Z' }),
    );
    expect((kept?.data as { result: unknown }).result).toEqual(answer);
  });
});
