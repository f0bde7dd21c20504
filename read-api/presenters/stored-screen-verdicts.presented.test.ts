import { describe, expect, it } from 'vitest';
import { tierOutcomeSchema } from '../../domain/address-check/tier-outcome.schema.js';
import { eventRegistry } from '../../domain/events/registry.js';
import type { ProviderAssessment } from '../../domain/inspect/provider-assessment.js';
import { screenOutcomeSchema } from '../../domain/idempotency/keyed-outcomes.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { STORED_FULL_CHECKS } from '../../test/support/stored-full-checks.js';
import { presentProviderEntries } from './inspect.presenter.js';
import { presentScreen } from './screen.presenter.js';
import { screenVerdictParts, sdnMatchBody } from './screen-verdict.body.js';

/**
 * The light screen's verdict as code before it was a domain fact recorded it, in the body's words: tier 1's
 * screen and tier 0's match in TierCompleted version 1 (full-checks-v1.json, written by that code), and a
 * screen's outcome kept under an Idempotency-Key (its body). Read back as the domain verdict, each presents
 * the very bytes it was recorded as.
 */
const recorded = (type: string, data: unknown, schemaVersion: number): RecordedEvent =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    type,
    data,
    metadata: { correlationId: 'c', occurredAt: '2026-11-29T05:23:38.269Z', schemaVersion },
    streamId: 'check-c',
    revision: 1n,
    position: 1n,
    created: new Date(0),
  }) as unknown as RecordedEvent;

const storedTiers = STORED_FULL_CHECKS.checks.flatMap((check) =>
  check.events.filter((e) => e.type === 'TierCompleted').map((e) => [check.checkId, e] as const),
);
const storedScreens = storedTiers.flatMap(([checkId, e]) => {
  const outcome = (e.data as { outcome: { tier: number; screen?: Record<string, unknown> } }).outcome;
  return outcome.tier === 1 && outcome.screen ? [[checkId, outcome.screen] as const] : [];
});

const upcastOutcome = (data: unknown) => {
  const event = eventRegistry.parse(recorded('TierCompleted', data, 1));
  if (event?.type !== 'TierCompleted') throw new Error('not read as TierCompleted');
  return event.data.outcome;
};

describe('TierCompleted version 1 (the screen in the body’s words), read through the registry', () => {
  it('is written at version 2 now', () => {
    expect(eventRegistry.versionOf('TierCompleted')).toBe(2);
    expect(storedScreens.length).toBe(STORED_FULL_CHECKS.checks.length);
  });

  it.each(storedScreens)('tier 1 of %s becomes a valid domain verdict that presents the very screen recorded', (_id, screen) => {
    const outcome = upcastOutcome({ outcome: { tier: 1, screen }, at: '2026-11-29T05:23:38.269Z' });
    expect(tierOutcomeSchema.parse(outcome)).toEqual(outcome);
    if (outcome.tier !== 1) throw new Error('not tier 1');
    expect(JSON.stringify(screenVerdictParts(outcome.screen))).toBe(JSON.stringify(screen));
  });

  it.each(storedTiers.filter(([, e]) => (e.data as { outcome: { tier: number } }).outcome.tier === 0))(
    'tier 0 of %s keeps its sanctions match, in the domain’s words',
    (_id, e) => {
      const stored = (e.data as { outcome: { sdnMatch: Record<string, unknown> | null } }).outcome;
      const outcome = upcastOutcome(e.data);
      if (outcome.tier !== 0) throw new Error('not tier 0');
      expect(outcome.sdnMatch && sdnMatchBody(outcome.sdnMatch)).toEqual(stored.sdnMatch);
    },
  );
});

describe('a screen outcome kept under an Idempotency-Key before the verdict was a domain fact', () => {
  const BILLING = { model: 'quota', chargedUnits: 1, unitsUsed: 1, monthlyQuota: 100, periodStart: '2026-01-01', replay: false } as const;

  it.each(storedScreens)('replays the very body it kept (%s)', (_id, screen) => {
    const body = { schema_version: 1, address: '0x' + 'ab'.repeat(20), network: 'ETH', provider: 'service', ...screen };
    const outcome = screenOutcomeSchema.parse({ kind: 'completed', verdict: body, receipt: 'a.b.c', billing: BILLING });
    expect(outcome.verdict).toMatchObject({ subject: { address: body.address, network: 'ETH' }, engine: 'service' });
    const { receipt: _receipt, billing: _billing, ...replayed } = presentScreen(outcome).body;
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(body));
  });
});

describe('the inspect’s own engine answer recorded in the body’s words', () => {
  const assessment: ProviderAssessment = { risk_level: 'none', sanctioned: false, risk_categories: [], signals: [], summary: 's' };

  it.each(storedScreens)('is served as it was recorded (%s), and an outside provider’s answer untouched', (_id, screen) => {
    const outside = { ok: true as const, verdict: { risk: 'whatever they said' }, assessment, elapsed_ms: 2 };
    const entries = presentProviderEntries({ service: { ok: true, verdict: screen, assessment, elapsed_ms: 1 }, outside });
    expect(JSON.stringify(entries.service)).toBe(JSON.stringify({ ok: true, verdict: screen, assessment, elapsed_ms: 1 }));
    expect(entries.outside).toEqual(outside);
  });
});
