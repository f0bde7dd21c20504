import { describe, expect, it } from 'vitest';
import { LmdbDocCache } from './lmdb-doc-cache.js';

const entry = (n: number) => ({ d: { n }, c: String(n), p: '0' });

describe('LMDB document cache', () => {
  it('serves what was filled, the oldest dropped beyond its capacity', () => {
    const cache = new LmdbDocCache(2);
    cache.fill('a', entry(1));
    cache.fill('b', entry(2));
    expect(cache.get('a')).toEqual(entry(1));
    cache.fill('c', entry(3));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual(entry(2));
    expect(cache.size).toBe(2);
  });

  it('serves a document being written from LMDB only, then what the committed write wrote', () => {
    const cache = new LmdbDocCache(8);
    cache.fill('a', entry(1));
    cache.writeBegins('a', entry(2), true);
    expect(cache.get('a')).toBeUndefined();
    // A read while the write is in flight sees LMDB's committed (older) state: it must not be kept.
    cache.fill('a', entry(1));
    expect(cache.get('a')).toBeUndefined();
    cache.settle(['a'], true);
    expect(cache.get('a')).toEqual(entry(2));
  });

  it('keeps nothing of a write whose transaction failed', () => {
    const cache = new LmdbDocCache(8);
    cache.fill('a', entry(1));
    cache.writeBegins('a', entry(2), true);
    cache.settle(['a'], false);
    expect(cache.get('a')).toBeUndefined();
  });

  it('waits for every transaction writing a document, and keeps the last value written', () => {
    const cache = new LmdbDocCache(8);
    cache.writeBegins('a', entry(2), true);
    cache.writeBegins('a', entry(3), true);
    cache.settle(['a'], true);
    expect(cache.get('a')).toBeUndefined();
    cache.settle(['a'], true);
    expect(cache.get('a')).toEqual(entry(3));
  });

  it('hands out frozen documents, as the memory store does', () => {
    const cache = new LmdbDocCache(8);
    cache.fill('a', { d: { nested: { n: 1 } }, c: '1', p: '0' });
    expect(Object.isFrozen(cache.get('a')?.d?.nested)).toBe(true);
  });

  it("keeps a copy of a written document, never the writer's object", () => {
    const cache = new LmdbDocCache(8);
    const written = { d: { list: [1] }, c: '1', p: '0' };
    cache.writeBegins('a', written, true);
    written.d.list.push(2);
    cache.settle(['a'], true);
    expect(cache.get('a')?.d).toEqual({ list: [1] });
    expect(Object.isFrozen(written.d)).toBe(false);
  });

  it('does not keep a written document that is not plain data', () => {
    const cache = new LmdbDocCache(8);
    cache.writeBegins('a', { d: { at: new Date(0) }, c: '1', p: '0' }, true);
    cache.settle(['a'], true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not keep a new document once written (rows written once are rarely read again)', () => {
    const cache = new LmdbDocCache(8);
    cache.writeBegins('a', entry(1), false);
    cache.settle(['a'], true);
    expect(cache.get('a')).toBeUndefined();
  });
});
