/**
 * A receipt's JWS protected header (RFC 7515): the algorithm, the key that signed it (`kid`, in the JWKS)
 * and the payload's media type. One definition for the signer (infra/receipts/ed25519-verdict-signer.ts)
 * and for a charge that keeps only the kid (charged-screen-receipt.ts): the same kid gives the same bytes.
 */
export const RECEIPT_ALG = 'EdDSA';
/** The media type of a receipt's payload: the verdict statement, RFC 8785 JSON. */
export const RECEIPT_CONTENT_TYPE = 'verdict-statement+json';

/** BASE64URL(UTF8(JWS Protected Header)): `{"alg":"EdDSA","kid":…,"cty":"verdict-statement+json"}`. */
export const receiptHeaderOf = (kid: string): string =>
  Buffer.from(JSON.stringify({ alg: RECEIPT_ALG, kid, cty: RECEIPT_CONTENT_TYPE })).toString('base64url');
