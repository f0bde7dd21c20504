import { verdictStatementSchema, type VerdictStatement } from '../../domain/receipts/verdict-statement.js';

/**
 * The statement a receipt this service gave signs, read back without verifying it: the replay compares
 * its outcome and data with the recomputed ones (verifying is `verdict verify`'s, against the JWKS).
 * Null for a receipt that does not parse.
 */
export function receiptStatement(receipt: string): VerdictStatement | null {
  const payload = receipt.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const parsed = verdictStatementSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
