import { describe, expect, it } from 'vitest';
import { presentFullCheck } from './full-check.presenter.js';
import { checkCompletedOf, olderShapeOf, STORED_FULL_CHECKS } from '../../test/support/stored-full-checks.js';
import { eventRegistry } from '../../domain/events/registry.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { FULL_CHECK_VERDICT_VERSION, fullCheckVerdictSchema } from '../../domain/address-check/full-check-verdict.js';

/** A CheckCompleted of version 1 (the stored body) as the event store gives it back. */
const recorded = (data: unknown): RecordedEvent =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    type: 'CheckCompleted',
    data,
    metadata: { correlationId: 'c', occurredAt: '2026-11-29T05:23:38.269Z', schemaVersion: 1 },
    streamId: 'check-c',
    revision: 6n,
    position: 1n,
    created: new Date(0),
  }) as unknown as RecordedEvent;

const verdictOf = (data: unknown) => {
  const event = eventRegistry.parse(recorded(data));
  if (event?.type !== 'CheckCompleted') throw new Error('not read as CheckCompleted');
  return event.data.verdict;
};

describe('CheckCompleted version 1 (the stored body), read through the registry', () => {
  it('is written at version 3 now (2: the domain verdict; 3: its intelligence in the screen’s domain shapes)', () => {
    expect(eventRegistry.versionOf('CheckCompleted')).toBe(3);
  });

  it.each(STORED_FULL_CHECKS.checks.map((check) => [check.body.decision as string, check] as const))(
    'becomes a valid domain verdict that presents the very body it was served (%s)',
    (_decision, check) => {
      const stored = checkCompletedOf(check).data;
      const verdict = verdictOf(stored);
      expect(fullCheckVerdictSchema.parse(verdict)).toEqual(verdict);
      expect(verdict).toMatchObject({ version: FULL_CHECK_VERDICT_VERSION, checkId: check.checkId, completedAt: check.body.completed_at });
      expect(JSON.stringify(presentFullCheck(verdict))).toBe(JSON.stringify(check.body));
      expect(stored.result).toEqual(check.body);
    },
  );

  it('reads a body stored before stops, sanctions coverage and the transfer data versions were kept, and serves it as then', () => {
    const [check] = STORED_FULL_CHECKS.checks;
    const { stored, served } = olderShapeOf(check?.body ?? {});
    const verdict = verdictOf({ result: stored, at: stored.completed_at });
    expect(verdict.coverage.sanctions).toBeUndefined();
    expect(verdict.dataVersions.transferData).toBeUndefined();
    expect(presentFullCheck(verdict)).toEqual(served);
  });
});
