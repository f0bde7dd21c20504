import type { VerdictStatement } from '../receipts/verdict-statement.js';

/** One public key of the receipts' key ring, as a JWK (RFC 7517) with its key id. */
export interface PublicReceiptKey {
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly kid: string;
  readonly alg: string;
  readonly use: 'sig';
}

/**
 * Signs verdicts (docs/ARCHITECTURE.md#verdict-receipts): a compact JWS over the RFC 8785 encoding of
 * the statement, with the active key. Every key ever used stays in `jwks()`, so old receipts verify.
 */
export interface VerdictSigner {
  sign(statement: VerdictStatement): Promise<string>;
  jwks(): { readonly keys: readonly PublicReceiptKey[] };
}
