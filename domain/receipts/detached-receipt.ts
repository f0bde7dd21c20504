import { z } from 'zod';
import { canonicalJson } from './canonical-json.js';
import { verdictStatementSchema, type VerdictStatement } from './verdict-statement.js';

/**
 * A receipt as a domain fact: the statement it signs, as an object, and the JWS with its payload detached
 * (RFC 7515 appendix F: `BASE64URL(protected header)..BASE64URL(signature)`). The payload a receipt signs
 * is the statement's RFC 8785 encoding (infra/receipts/ed25519-verdict-signer.ts), so the compact JWS
 * given with the verdict is rebuilt from these, byte for byte, on read; the log keeps the statement
 * readable (and compressible) rather than as base64 inside a signature.
 */
export const detachedReceiptSchema = z.object({
  statement: verdictStatementSchema,
  /** `header..signature`: the compact JWS without its payload. */
  jws: z.string().regex(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/),
  /**
   * The payload as signed, kept only when the statement's canonical encoding would not give it back: never
   * for a receipt this service signed, which signs that very encoding.
   */
  payload: z.string().optional(),
});
export type DetachedReceipt = z.infer<typeof detachedReceiptSchema>;

const base64url = (text: string): string => Buffer.from(text).toString('base64url');

/** A compact JWS this service signed over `statement`, stored detached (no decoding: the statement is at hand). */
export function detachedReceipt(compact: string, statement: VerdictStatement): DetachedReceipt {
  const [header, , signature] = compact.split('.');
  return { statement, jws: `${header}..${signature}` };
}

/** A stored compact JWS (a receipt kept before receipts were domain facts) taken apart; null when it is not one. */
export function detachedReceiptOfCompact(compact: string): DetachedReceipt | null {
  const parts = compact.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  let statement: VerdictStatement;
  try {
    const parsed = verdictStatementSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    statement = parsed.data;
  } catch {
    return null;
  }
  const exact = base64url(canonicalJson(statement)) === payload;
  return { statement, jws: `${header}..${signature}`, ...(exact ? {} : { payload }) };
}

/** The compact JWS given with the verdict: header, the statement's canonical encoding, signature. */
export function compactReceiptOf(receipt: DetachedReceipt): string {
  const [header, signature] = receipt.jws.split('..');
  return `${header}.${receipt.payload ?? base64url(canonicalJson(receipt.statement))}.${signature}`;
}
