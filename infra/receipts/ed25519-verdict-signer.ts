import { createPrivateKey, sign as ed25519Sign, type KeyObject } from 'node:crypto';
import type { PublicReceiptKey, VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { receiptHeaderOf } from '../../domain/receipts/receipt-header.js';
import { activeKeyOf, loadOrCreateKeyRing, publicKeyOf, rotatedKeyRing, writeKeyRing, type KeyRing } from './receipt-key-ring.js';

export { RECEIPT_CONTENT_TYPE } from '../../domain/receipts/receipt-header.js';

/** The active key, parsed once, and its protected header, encoded once: a receipt then costs one Ed25519 signature. */
interface ActiveKey {
  readonly kid: string;
  readonly key: KeyObject;
  /** BASE64URL(UTF8(JWS Protected Header)): `{"alg":"EdDSA","kid":…,"cty":…}`. */
  readonly header: string;
}

/**
 * Signs verdict statements with the key ring's active Ed25519 key: a standard compact JWS (RFC 7515 with
 * RFC 8037's EdDSA), payload the statement's RFC 8785 encoding, protected header naming the key (`kid`) so
 * a verifier picks it from the JWKS. Signed synchronously with node:crypto on a cached KeyObject: jose's
 * CompactSign (WebCrypto, a thread-pool hop and a header encoding per call) cost twice the CPU on the
 * answering thread (docs/benchmarks.md#verdict-receipts-benchreceipts); the bytes are the same, and jose and
 * joserfc verify them. Ed25519 is deterministic: the same statement under the same key is the same receipt.
 */
export class Ed25519VerdictSigner implements VerdictSigner {
  private constructor(
    /** The key ring file. */
    readonly path: string,
    private ring: KeyRing,
    private active: ActiveKey,
  ) {}

  static async open(path: string, now: Date): Promise<Ed25519VerdictSigner> {
    const ring = await loadOrCreateKeyRing(path, now);
    return new Ed25519VerdictSigner(path, ring, activeKey(ring));
  }

  sign(statement: VerdictStatement): Promise<string> {
    return Promise.resolve(this.signNow(statement));
  }

  /** BASE64URL(header) '.' BASE64URL(payload) '.' BASE64URL(Ed25519 signature of the two before it). */
  signNow(statement: VerdictStatement): string {
    const { key, header } = this.active;
    const signingInput = `${header}.${Buffer.from(canonicalJson(statement)).toString('base64url')}`;
    return `${signingInput}.${ed25519Sign(null, Buffer.from(signingInput), key).toString('base64url')}`;
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
    this.active = activeKey(ring);
    this.ring = ring;
    return { kid: ring.active, retired };
  }
}

function activeKey(ring: KeyRing): ActiveKey {
  const { kid, jwk } = activeKeyOf(ring);
  return { kid, key: createPrivateKey({ key: jwk, format: 'jwk' }), header: receiptHeaderOf(kid) };
}
