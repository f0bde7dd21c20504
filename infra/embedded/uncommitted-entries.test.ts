import { describe, expect, it } from 'vitest';
import { UncommittedEntries } from './uncommitted-entries.js';

describe('UncommittedEntries', () => {
  it('forgets a committed batch’s entries but keeps those a later batch overwrote', () => {
    const entries = new UncommittedEntries<number>();
    entries.set('a', 1, 1);
    entries.set('b', 1, 1);
    entries.set('b', 2, 2);
    entries.forget(['a', 'b'], 1);
    expect([entries.get('a'), entries.get('b'), entries.size]).toEqual([undefined, 2, 1]);
    entries.forget(['b'], 2);
    expect(entries.size).toBe(0);
  });
});
