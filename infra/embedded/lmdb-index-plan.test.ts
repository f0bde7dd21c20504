import { describe, expect, it } from 'vitest';
import { planQuery } from './lmdb-index-plan.js';

describe('LMDB query plans', () => {
  const fields = ['user_id', 'created_at'];

  it('walks the pair index for "a user\'s rows, newest first", covered, from the since bound', () => {
    const plan = planQuery(fields, { where: { user_id: 'u' }, since: { field: 'created_at', value: '2026-11' }, orderBy: { field: 'created_at', direction: 'desc' } });
    expect(plan).toEqual({ ordered: true, reverse: true, covered: true, index: { name: 'user_id>created_at', prefix: ['u'], from: '2026-11' } });
  });

  it('counts a user\'s rows on the single index without reading documents', () => {
    expect(planQuery(fields, { where: { user_id: 'u' } })).toMatchObject({ covered: true, index: { name: 'user_id', prefix: ['u'] } });
  });

  it('is not covered when a condition names a field the index does not hold', () => {
    expect(planQuery(fields, { where: { user_id: 'u', product: 'screen' } }).covered).toBe(false);
    expect(planQuery(fields, { where: { product: 'screen' } })).toMatchObject({ index: null, covered: false });
  });

  it('orders by an indexed field without a filter on the single index', () => {
    expect(planQuery(fields, { orderBy: { field: 'created_at', direction: 'asc' } })).toMatchObject({ ordered: true, reverse: false, covered: true, index: { name: 'created_at', prefix: [] } });
  });
});
