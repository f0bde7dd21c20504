import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scryptPasswordHasher } from './scrypt-password-hasher.js';

// A low cost keeps the suite fast; the format and the verification are the same at any cost.
const hasher = scryptPasswordHasher({ log2N: 10 });

describe('scrypt password hasher', () => {
  it('hashes into a self-describing string that verifies the password and nothing else', async () => {
    const stored = await hasher.hash('correct horse battery staple');
    expect(stored).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hasher.verify('correct horse battery staple', stored)).toBe(true);
    expect(await hasher.verify('correct horse battery stapl', stored)).toBe(false);
    expect(await hasher.verify('', stored)).toBe(false);
  });

  it('salts every hash: the same password hashes differently each time', async () => {
    const [a, b] = [await hasher.hash('same'), await hasher.hash('same')];
    expect(a).not.toBe(b);
    expect(await hasher.verify('same', a)).toBe(true);
    expect(await hasher.verify('same', b)).toBe(true);
  });

  it('is standard scrypt: the digest equals node’s scrypt with the stored parameters and salt', async () => {
    const stored = await hasher.hash('pässword');
    const [, , params, salt, digest] = stored.split('$');
    expect(params).toBe('ln=10,r=8,p=1');
    const expected = scryptSync('pässword'.normalize('NFC'), Buffer.from(salt!, 'base64'), 32, { N: 1024, r: 8, p: 1 });
    expect(Buffer.from(digest!, 'base64').equals(expected)).toBe(true);
  });

  it('verifies hashes made with other cost parameters (a cost change keeps old hashes valid)', async () => {
    const old = await scryptPasswordHasher({ log2N: 11, r: 4, p: 2 }).hash('kept');
    expect(old).toContain('$ln=11,r=4,p=2$');
    expect(await hasher.verify('kept', old)).toBe(true);
  });

  it('refuses malformed or absurd stored values instead of throwing', async () => {
    for (const bad of ['', 'plain', '$scrypt$ln=10,r=8,p=1$abc', '$argon2id$v=19$m=1,t=1,p=1$abc$def', '$scrypt$ln=40,r=8,p=1$AAAA$AAAA']) {
      expect(await hasher.verify('x', bad)).toBe(false);
    }
  });
});
