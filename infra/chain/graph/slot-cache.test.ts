import { describe, expect, it } from 'vitest';
import { SlotCache } from './slot-cache.js';

describe('SlotCache', () => {
  it('returns what was set, and forgets an id when a newer one takes its slot', () => {
    const cache = new SlotCache<string>(4);
    cache.set(1, 'a');
    cache.set(2, 'b');
    expect(cache.get(1)).toBe('a');
    expect(cache.get(2)).toBe('b');
    expect(cache.get(3)).toBeUndefined();
    cache.set(5, 'e');
    expect(cache.get(5)).toBe('e');
    expect(cache.get(1)).toBeUndefined();
  });

  it('holds ids past 2³¹ and forgets everything on clear', () => {
    const cache = new SlotCache<string>(3);
    cache.set(2 ** 31 + 7, 'big');
    expect(cache.get(2 ** 31 + 7)).toBe('big');
    expect(cache.get(7)).toBeUndefined();
    cache.clear();
    expect(cache.get(2 ** 31 + 7)).toBeUndefined();
  });
});
