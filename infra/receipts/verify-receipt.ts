import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { verdictStatementSchema, type VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { RECEIPT_ALG } from './receipt-key-ring.js';

export type ReceiptCheck =
  | { readonly valid: true; readonly kid: string; readonly statement: VerdictStatement }
  | { readonly valid: false; readonly kid: string | null; readonly reason: string };

/**
 * Verifies a receipt against a JWKS, as anyone can without us: the signature with the key its header
 * names, then the payload is a verdict statement and in canonical form (a re-encoded payload would still
 * carry a valid signature only if we had signed that encoding).
 */
export async function verifyReceipt(receipt: string, jwks: JSONWebKeySet): Promise<ReceiptCheck> {
  let kid: string | null = null;
  try {
    kid = decodeProtectedHeader(receipt).kid ?? null;
    const { payload } = await compactVerify(receipt, createLocalJWKSet(jwks), { algorithms: [RECEIPT_ALG] });
    const text = new TextDecoder().decode(payload);
    const parsed = verdictStatementSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return { valid: false, kid, reason: `the payload is not a verdict statement: ${parsed.error.message}` };
    if (canonicalJson(parsed.data) !== text) return { valid: false, kid, reason: 'the payload is not in RFC 8785 canonical form' };
    return { valid: true, kid: kid ?? '', statement: parsed.data };
  } catch (error) {
    return { valid: false, kid, reason: error instanceof Error ? error.message : String(error) };
  }
}
