import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ForkableMap } from './forkable-map.js';

describe('ForkableMap', () => {
  it('behaves like a Map, and a fork is independent of its origin', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer(), fc.boolean()), { maxLength: 600 }), (ops) => {
        let map = ForkableMap.empty<number, number>();
        const model = new Map<number, number>();
        for (const [key, value, fork] of ops) {
          if (fork) {
            const before = new Map(model);
            const copy = map.fork();
            map.set(key, value);
            // the copy does not see the origin's later write
            expect(copy.get(key)).toBe(before.get(key));
            map = copy;
            continue;
          }
          map.set(key, value);
          model.set(key, value);
        }
        expect(map.size).toBe(model.size);
        for (const [key, value] of model) expect(map.get(key)).toBe(value);
        expect(new Map(map.entries())).toEqual(model);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every entry through many forks of a large map', () => {
    let map = ForkableMap.empty<string, number>();
    for (let i = 0; i < 100_000; i++) map = map.fork().set(`c${i}`, i);
    expect(map.size).toBe(100_000);
    expect(map.get('c5')).toBe(5);
    expect(map.get('c99999')).toBe(99_999);
    expect(map.has('c100000')).toBe(false);
  });
});
