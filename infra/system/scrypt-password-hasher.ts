import { present } from '../../domain/shared/present.js';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../../domain/ports/password-hasher.port.js';

/**
 * Passwords hashed with scrypt (RFC 7914), stored as `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<digest>`
 * (base64, unpadded). The parameters travel with the hash, so raising the cost later leaves existing
 * hashes verifiable. OWASP's recommended minimum is N=2^17, r=8, p=1 (128 MiB, a few hundred ms).
 */
const PREFIX = '$scrypt$';
const SALT_BYTES = 16;
const DIGEST_BYTES = 32;
const PARSE = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  // Node's default maxmem (32 MiB) refuses N=2^17; scrypt needs 128·N·r bytes.
  const options: ScryptOptions = { N: 2 ** log2N, r, p, maxmem: 128 * 2 ** log2N * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, DIGEST_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export function scryptPasswordHasher(options: { log2N: number; r?: number; p?: number }): PasswordHasher {
  const { log2N } = options;
  const r = options.r ?? 8;
  const p = options.p ?? 1;
  return {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const digest = await derive(password, salt, log2N, r, p);
      return `${PREFIX}ln=${log2N},r=${r},p=${p}$${b64(salt)}$${b64(digest)}`;
    },
    async verify(password, stored) {
      const match = PARSE.exec(stored);
      if (!match) return false;
      const [, ln, rs, ps, salt, digest] = match;
      const expected = Buffer.from(present(digest, 'the pattern matched, and the digest group is not optional'), 'base64');
      // Bounds keep a corrupt stored value from asking for gigabytes.
      if (expected.length !== DIGEST_BYTES || Number(ln) < 1 || Number(ln) > 20 || Number(rs) > 32 || Number(ps) > 16) return false;
      const actual = await derive(
        password,
        Buffer.from(present(salt, 'the pattern matched, and the salt group is not optional'), 'base64'),
        Number(ln),
        Number(rs),
        Number(ps),
      );
      return timingSafeEqual(actual, expected);
    },
  };
}
