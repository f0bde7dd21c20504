import { describe, expect, it } from 'vitest';
import { changedIndexKeys, indexKeys, planQuery } from './lmdb-index-plan.js';

describe('LMDB query plans', () => {
  const fields = ['user_id', 'created_at'];

  it('walks the pair index for "a user\'s rows, newest first", covered, from the since bound', () => {
    const plan = planQuery(fields, {
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

  it("counts a user's rows on the single index without reading documents", () => {
    expect(planQuery(fields, { where: { user_id: 'u' } })).toMatchObject({ covered: true, index: { name: 'user_id', prefix: ['u'] } });
  });

  it('is not covered when a condition names a field the index does not hold', () => {
    expect(planQuery(fields, { where: { user_id: 'u', product: 'screen' } }).covered).toBe(false);
    expect(planQuery(fields, { where: { product: 'screen' } })).toMatchObject({ index: null, covered: false });
  });

  it('orders by an indexed field without a filter on the single index', () => {
    expect(planQuery(fields, { orderBy: { field: 'created_at', direction: 'asc' } })).toMatchObject({
      ordered: true,
      reverse: false,
      covered: true,
      index: { name: 'created_at', prefix: [] },
    });
  });

  it('rewrites only the index keys whose values changed when a document is updated', () => {
    const before = { user_id: 'u', created_at: '2026-11-01', units: 1 };
    expect(changedIndexKeys('c', fields, 'id', before, { ...before, units: 2 })).toEqual({ removed: [], added: [] });
    const moved = changedIndexKeys('c', fields, 'id', before, { ...before, created_at: '2026-11-02' });
    // The user_id index keeps its key; the created_at one and both pairs (which hold created_at) move.
    expect(moved.removed).toEqual([
      ['c', 'user_id>created_at', 'u', '2026-11-01', 'id'],
      ['c', 'created_at', '2026-11-01', 'id'],
      ['c', 'created_at>user_id', '2026-11-01', 'u', 'id'],
    ]);
    expect(moved.added).toEqual([
      ['c', 'user_id>created_at', 'u', '2026-11-02', 'id'],
      ['c', 'created_at', '2026-11-02', 'id'],
      ['c', 'created_at>user_id', '2026-11-02', 'u', 'id'],
    ]);
  });

  it('writes every key of a new document and removes every key of a deleted one', () => {
    const doc = { user_id: 'u', created_at: '2026-11-01' };
    expect(changedIndexKeys('c', fields, 'id', null, doc)).toEqual({ removed: [], added: indexKeys('c', fields, 'id', doc) });
    expect(changedIndexKeys('c', fields, 'id', doc, null)).toEqual({ removed: indexKeys('c', fields, 'id', doc), added: [] });
  });
});
