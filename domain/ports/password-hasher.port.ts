/**
 * Password hashing is a port: the slow KDF (scrypt) runs outside the domain. `hash` returns a
 * self-describing string (algorithm, cost parameters, salt, digest) so the cost can rise later without
 * invalidating stored hashes; `verify` compares in constant time.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}
