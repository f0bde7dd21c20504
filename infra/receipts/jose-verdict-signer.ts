import { CompactSign, importJWK } from 'jose';
import type { PublicReceiptKey, VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import {
  activeKeyOf,
  loadOrCreateKeyRing,
  publicKeyOf,
  RECEIPT_ALG,
  rotatedKeyRing,
  writeKeyRing,
  type KeyRing,
} from './receipt-key-ring.js';

/** The media type of a receipt's payload: the verdict statement, RFC 8785 JSON. */
export const RECEIPT_CONTENT_TYPE = 'verdict-statement+json';

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

/**
 * Signs verdict statements with the key ring's active Ed25519 key (jose's CompactSign): the payload is
 * the statement's RFC 8785 encoding, the protected header names the key (`kid`) so a verifier picks it
 * from the JWKS. Ed25519 is deterministic: the same statement under the same key is the same receipt.
 */
export class JoseVerdictSigner implements VerdictSigner {
  private constructor(
    /** The key ring file. */
    readonly path: string,
    private ring: KeyRing,
    private active: { kid: string; key: SigningKey },
  ) {}

  static async open(path: string, now: Date): Promise<JoseVerdictSigner> {
    const ring = await loadOrCreateKeyRing(path, now);
    return new JoseVerdictSigner(path, ring, await importActive(ring));
  }

  async sign(statement: VerdictStatement): Promise<string> {
    const { kid, key } = this.active;
    return new CompactSign(new TextEncoder().encode(canonicalJson(statement)))
      .setProtectedHeader({ alg: RECEIPT_ALG, kid, cty: RECEIPT_CONTENT_TYPE })
      .sign(key);
  }

  jwks(): { keys: PublicReceiptKey[] } {
    return { keys: this.ring.keys.map(publicKeyOf) };
  }

  /** The key ring as listed by `receipts keys`: ids, dates, which is active; never a private half. */
  keys() {
    return this.ring.keys.map((k) => ({
      kid: k.kid,
      created_at: k.createdAt,
      retired_at: k.retiredAt,
      active: k.kid === this.ring.active,
    }));
  }

  /** A new active key, written to disk before it signs anything; the retired one keeps verifying. */
  async rotate(now: Date): Promise<{ kid: string; retired: string }> {
    const retired = this.ring.active;
    const ring = await rotatedKeyRing(this.ring, now);
    await writeKeyRing(this.path, ring);
    this.active = await importActive(ring);
    this.ring = ring;
    return { kid: ring.active, retired };
  }
}

async function importActive(ring: KeyRing): Promise<{ kid: string; key: SigningKey }> {
  const stored = activeKeyOf(ring);
  return { kid: stored.kid, key: await importJWK({ ...stored.jwk, alg: RECEIPT_ALG }, RECEIPT_ALG) };
}
