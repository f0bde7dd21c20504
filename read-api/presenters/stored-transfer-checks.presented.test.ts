import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../../domain/events/registry.js';
import { transferVerdictSchema } from '../../domain/kyt/transfer-verdict.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { transferCheckStatement } from '../../domain/receipts/verdict-statements.js';
import { STORED_TRANSFER_CHECKS, transferCheckCompletedOf } from '../../test/support/stored-transfer-checks.js';
import { presentTransferResult } from './transfer.presenter.js';

/** A TransferCheckCompleted of version 1 (the stored body) as the event store gives it back. */
const recorded = (data: unknown): RecordedEvent =>
  ({
    id: '00000000-0000-4000-8000-000000000002',
    type: 'TransferCheckCompleted',
    data,
    metadata: { correlationId: 'c', occurredAt: '2026-11-29T06:40:56.000Z', schemaVersion: 1 },
    streamId: 'transfer-c',
    revision: 1n,
    position: 1n,
    created: new Date(0),
  }) as unknown as RecordedEvent;

const verdictOf = (data: unknown) => {
  const event = eventRegistry.parse(recorded(data));
  if (event?.type !== 'TransferCheckCompleted') throw new Error('not read as TransferCheckCompleted');
  return event.data.verdict;
};

const completedChecks = STORED_TRANSFER_CHECKS.checks.filter((check) => check.status === 200);
const context = { verdictId: 'v', caller: { kind: 'api_key', id: 'k' }, input: {}, issuedAt: 'then' } as const;

describe('TransferCheckCompleted version 1 (the stored body), read through the registry', () => {
  it('is written at version 2 now', () => {
    expect(eventRegistry.versionOf('TransferCheckCompleted')).toBe(2);
  });

  it.each(completedChecks.map((check) => [check.txHash, check] as const))(
    'becomes a valid domain verdict that presents the very body it was served (%s)',
    (_txHash, check) => {
      const stored = transferCheckCompletedOf(check)?.data as { result: unknown };
      const verdict = verdictOf(stored);
      expect(transferVerdictSchema.parse(verdict)).toEqual(verdict);
      expect(verdict).toMatchObject({ version: 1, checkId: check.checkId, checkedAt: check.body.checked_at });
      expect(JSON.stringify(presentTransferResult(verdict))).toBe(JSON.stringify(check.body));
      expect(stored.result).toEqual(check.body);
    },
  );

  it('reads a body stored before policy ids and coverage were kept, serves it as then, and signs the policy’s taxonomy and no sources', () => {
    const check = completedChecks.find((c) => (c.body.composite_result as { categories: unknown[] }).categories.length > 0);
    const older = structuredClone(check?.body ?? {}) as Record<string, any>;
    delete older.coverage;
    delete older.policy_result.policy_id;
    const policy = older.policy_result;
    const verdict = verdictOf({ ...transferCheckCompletedOf(check!)?.data, result: older });
    expect(verdict.coverage).toBeUndefined();
    expect(verdict.policy.id).toBeUndefined();
    expect(JSON.stringify(presentTransferResult(verdict))).toBe(JSON.stringify(older));
    expect(transferCheckStatement(context, verdict).data).toEqual({ taxonomy: policy.taxonomy_version, snapshot: null, sources: [] });
  });
});
