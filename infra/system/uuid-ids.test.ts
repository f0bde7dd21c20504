import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uuidV5, uuidV7 } from './uuid-ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuid ids', () => {
  it('makes RFC 9562 v7 ids whose first 48 bits are the time, all distinct', () => {
    const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const ids = Array.from({ length: 1000 }, () => uuidV7(at));
    for (const id of ids) {
      expect(UUID.exec(id)?.[1]).toBe('7');
      expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes the RFC 9562 v5 id of a name: SHA-1 of namespace and name, version and variant set', () => {
    const namespace = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex'); // the DNS namespace of RFC 9562
    // RFC 9562 appendix A.4: the v5 id of www.example.com in the DNS namespace
    expect(uuidV5('www.example.com', namespace)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    const hex = createHash('sha1').update(namespace).update('x').digest('hex');
    expect(uuidV5('x', namespace).replaceAll('-', '').slice(0, 12)).toBe(hex.slice(0, 12));
  });
});
