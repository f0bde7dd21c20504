import { describe, expect, it } from 'vitest';
import { exploreReportSchema } from '../../domain/explore/explore-report.js';
import { eventRegistry } from '../../domain/events/registry.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { exploreCompletedOf, STORED_EXPLORES, withoutStops } from '../../test/support/stored-explores.js';
import { presentExploreReport } from './explore.presenter.js';

/** An ExploreCompleted of version 1 (the stored body) as the event store gives it back. */
const recorded = (data: unknown): RecordedEvent =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    type: 'ExploreCompleted',
    data,
    metadata: { correlationId: 'c', occurredAt: '2026-11-29T09:08:03.819Z', schemaVersion: 1 },
    streamId: 'explore-j',
    revision: 1n,
    position: 1n,
    created: new Date(0),
  }) as unknown as RecordedEvent;

const reportOf = (data: unknown) => {
  const event = eventRegistry.parse(recorded(data));
  if (event?.type !== 'ExploreCompleted') throw new Error('not read as ExploreCompleted');
  return event.data.report;
};

describe('ExploreCompleted version 1 (the stored body), read through the registry', () => {
  it('is written at version 2 now', () => {
    expect(eventRegistry.versionOf('ExploreCompleted')).toBe(2);
  });

  it.each(
    STORED_EXPLORES.explores.map((explore) => [`${explore.served}, ${String(explore.body.direction)}, ${explore.jobId}`, explore] as const),
  )('becomes a valid domain report that presents the very body it was served (%s)', (_name, explore) => {
    const stored = exploreCompletedOf(explore).data;
    const report = reportOf(stored);
    expect(exploreReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({ version: 1, jobId: explore.jobId, completedAt: explore.body.completed_at });
    expect(JSON.stringify(presentExploreReport(report))).toBe(JSON.stringify(explore.body));
    expect(stored.report).toEqual(explore.body);
  });

  it('states its money in micro-USD and its shares as fractions', () => {
    const both = STORED_EXPLORES.explores.find((e) => e.body.direction === 'both' && (e.body.categories as unknown[]).length > 0);
    const report = reportOf(exploreCompletedOf(both!).data);
    expect(report.categories.map((c) => [c.slug, c.usdMicros])).toEqual([
      ['stolen_funds', 10_500_000_000],
      ['exchange', 17_500_000_000],
    ]);
    expect(report.incoming?.categories[0]).toMatchObject({ slug: 'stolen_funds', share: 0.3, addressLevel: 'medium' });
  });

  it('reads a body stored before the search reported its stops, and serves it as then (stops: null)', () => {
    const [explore] = STORED_EXPLORES.explores;
    const { stored, served } = withoutStops(explore?.body ?? {});
    const report = reportOf({ report: stored, at: stored.completed_at });
    expect(report.incoming?.stops).toBeNull();
    expect(JSON.stringify(presentExploreReport(report))).toBe(JSON.stringify(served));
  });
});
