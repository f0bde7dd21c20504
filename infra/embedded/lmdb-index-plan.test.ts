import { describe, expect, it } from 'vitest';
import { changedIndexKeys, indexKeys, planQuery } from './lmdb-index-plan.js';

describe('LMDB query plans', () => {
  const usage = [['user_id', 'created_at']];

  it('walks the compound index for "a user\'s rows, newest first", covered, from the since bound', () => {
    const plan = planQuery(usage, {
      where: { user_id: 'u' },
      since: { field: 'created_at', value: '2026-11' },
      orderBy: { field: 'created_at', direction: 'desc' },
    });
    expect(plan).toEqual({
      ordered: true,
      reverse: true,
      covered: true,
      index: { name: 'user_id>created_at', prefix: ['u'], from: '2026-11' },
    });
  });

  it("counts a user's rows on the compound index's prefix without reading documents", () => {
    expect(planQuery(usage, { where: { user_id: 'u' } })).toMatchObject({
      covered: true,
      index: { name: 'user_id>created_at', prefix: ['u'] },
    });
    expect(planQuery(usage, { where: { user_id: 'u' }, since: { field: 'created_at', value: '2026-11' } })).toMatchObject({
      covered: true,
      ordered: false,
      index: { name: 'user_id>created_at', prefix: ['u'], from: '2026-11' },
    });
  });

  it('is not covered when a condition names a field the index does not hold', () => {
    expect(planQuery(usage, { where: { user_id: 'u', product: 'screen' } })).toMatchObject({ covered: false, index: { prefix: ['u'] } });
    expect(planQuery(usage, { where: { product: 'screen' } })).toMatchObject({ index: null, covered: false });
  });

  it('walks a single-field index in order without a filter, and every document when no index leads with the field', () => {
    expect(planQuery(['created_at'], { orderBy: { field: 'created_at', direction: 'asc' } })).toMatchObject({
      ordered: true,
      reverse: false,
      covered: true,
      index: { name: 'created_at', prefix: [] },
    });
    expect(planQuery(usage, { orderBy: { field: 'created_at', direction: 'asc' } })).toMatchObject({ index: null, ordered: false });
  });

  it('prefers an equality prefix followed by the order field, then an equality prefix, then a walk in order', () => {
    const payments = ['reserved_at', ['status', 'reserved_at'], ['needs_reconciliation', 'reserved_at']];
    const newest = { orderBy: { field: 'reserved_at', direction: 'desc' as const } };
    expect(planQuery(payments, { where: { status: 'settled' }, ...newest })).toMatchObject({
      ordered: true,
      index: { name: 'status>reserved_at', prefix: ['settled'] },
    });
    expect(planQuery(payments, { where: { needs_reconciliation: true } })).toMatchObject({
      covered: true,
      index: { name: 'needs_reconciliation>reserved_at', prefix: [true] },
    });
    expect(planQuery(payments, newest)).toMatchObject({ ordered: true, index: { name: 'reserved_at', prefix: [] } });
    // An equality index without the order field: the matches are sorted afterwards.
    expect(planQuery(['user_id'], { where: { user_id: 'u' }, orderBy: { field: 'createdAt', direction: 'asc' } })).toMatchObject({
      ordered: false,
      index: { name: 'user_id', prefix: ['u'] },
    });
  });

  it('walks an index whose fields are all fixed in id order when ordering by one of them', () => {
    expect(planQuery(['status'], { where: { status: 'active' }, orderBy: { field: 'status', direction: 'desc' } })).toMatchObject({
      ordered: true,
      reverse: true,
      index: { name: 'status', prefix: ['active'] },
    });
  });

  it('writes one key per declared index, its fields in order', () => {
    expect(indexKeys('c', ['status', ['user_id', 'created_at']], 'id', { user_id: 'u', created_at: '2026', status: 's' })).toEqual([
      ['c', 'status', 's', 'id'],
      ['c', 'user_id>created_at', 'u', '2026', 'id'],
    ]);
  });

  it('rewrites only the index keys whose values changed when a document is updated', () => {
    const indexes = ['user_id', ['user_id', 'created_at']];
    const before = { user_id: 'u', created_at: '2026-11-01', units: 1 };
    expect(changedIndexKeys('c', indexes, 'id', before, { ...before, units: 2 })).toEqual({ removed: [], added: [] });
    const moved = changedIndexKeys('c', indexes, 'id', before, { ...before, created_at: '2026-11-02' });
    // The user_id index keeps its key; the compound one, which holds created_at, moves.
    expect(moved.removed).toEqual([['c', 'user_id>created_at', 'u', '2026-11-01', 'id']]);
    expect(moved.added).toEqual([['c', 'user_id>created_at', 'u', '2026-11-02', 'id']]);
  });

  it('writes every key of a new document and removes every key of a deleted one', () => {
    const doc = { user_id: 'u', created_at: '2026-11-01' };
    expect(changedIndexKeys('c', usage, 'id', null, doc)).toEqual({ removed: [], added: indexKeys('c', usage, 'id', doc) });
    expect(changedIndexKeys('c', usage, 'id', doc, null)).toEqual({ removed: indexKeys('c', usage, 'id', doc), added: [] });
  });
});
