import { describe, expect, it } from 'vitest';
import { requestIdFrom } from './request-id.js';

describe('requestIdFrom', () => {
  const fresh = () => 'fresh-id';
  it('keeps a short id of safe characters', () => {
    expect(requestIdFrom('req-42_a.b:c', fresh)).toBe('req-42_a.b:c');
    expect(requestIdFrom('0199a0c4-6f3e-7c1a-9b2d-3e4f5a6b7c8d', fresh)).toBe('0199a0c4-6f3e-7c1a-9b2d-3e4f5a6b7c8d');
    expect(requestIdFrom('x'.repeat(128), fresh)).toBe('x'.repeat(128));
  });
  it('replaces a missing, repeated, long or unsafe one', () => {
    for (const bad of [undefined, '', 'x'.repeat(129), 'a b', 'a"b', 'a\nb', '<script>', 'é', ['a', 'b']]) {
      expect(requestIdFrom(bad, fresh)).toBe('fresh-id');
    }
  });
});
