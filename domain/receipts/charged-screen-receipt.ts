import { z } from 'zod';
import type { ScreenSummary } from '../intel/screen-summary.js';
import { inputHashOf } from './canonical-json.js';
import { detachedReceiptSchema, type DetachedReceipt } from './detached-receipt.js';
import { receiptHeaderOf } from './receipt-header.js';
import { VERDICT_STATEMENT_VERSION, verdictStatementSchema, type VerdictStatement } from './verdict-statement.js';

/**
 * A light screen's receipt as its charge keeps it (Charged version 3): only what the charge does not
 * already state. The statement a screen signs is its charge's facts: the verdict id is the charge id, the
 * subject and the input hashed are the charge's network and address, the caller is its API key, the
 * outcome is its summary's; what is left is when it was issued and the data it was computed from. The
 * JWS's header names only its key (receipt-header.ts) and its signature is kept as is. So the statement
 * and the compact JWS are rebuilt from the charge byte for byte, and the log keeps about 300 B of a
 * receipt instead of 800 (docs/benchmarks.md, bench:history).
 *
 * A receipt is kept this short only when the rebuild gives back the very statement and header signed
 * (checked when the charge is written); else the charge keeps it detached whole (its statement and the
 * `header..signature` JWS, detached-receipt.ts), the form version 2 wrote.
 */
export const chargedScreenReceiptSchema = z.strictObject({
  issuedAt: z.string(),
  data: verdictStatementSchema.shape.data,
  /** The signing key's id: the JWS header is receiptHeaderOf(kid). */
  kid: z.string(),
  /** BASE64URL(signature) of the compact JWS. */
  signature: z.string().regex(/^[A-Za-z0-9_-]+$/),
});
export type ChargedScreenReceipt = z.infer<typeof chargedScreenReceiptSchema>;

/** A light screen's receipt as a charge keeps it: the short form, or detached whole (version 2, or a statement the charge does not give back). */
export const screenChargeReceiptSchema = z.union([chargedScreenReceiptSchema, detachedReceiptSchema]);
export type ScreenChargeReceipt = z.infer<typeof screenChargeReceiptSchema>;

/** The facts of a screen's charge its statement is rebuilt from. */
export interface ScreenCharge {
  readonly chargeId: string;
  readonly details: {
    readonly keyId: string | null;
    readonly network: string | null;
    readonly subject: string | null;
    readonly screen?: ScreenSummary | undefined;
  };
}

const isDetached = (receipt: ScreenChargeReceipt): receipt is DetachedReceipt => 'statement' in receipt;

/** The statement a screen's charge signed, from its facts and its short receipt; null when the charge lacks one of them. */
function statementOfCharge(charge: ScreenCharge, kept: Pick<ChargedScreenReceipt, 'issuedAt' | 'data'>): VerdictStatement | null {
  const { keyId, network, subject: address, screen } = charge.details;
  if (keyId === null || network === null || address === null || screen === undefined) return null;
  return {
    version: VERDICT_STATEMENT_VERSION,
    verdictId: charge.chargeId,
    kind: 'screen',
    subject: { network, address, txHash: null },
    caller: { kind: 'api_key', id: keyId },
    inputHash: inputHashOf({ address, network }),
    issuedAt: kept.issuedAt,
    outcome: {
      riskLevel: screen.addressLevel,
      riskScore: screen.riskScore,
      decision: null,
      categories: [...new Set(screen.categories.map((c) => c.slug))].sort(),
      sanctioned: screen.sanctionsMatch !== null,
    },
    data: kept.data,
  };
}

/**
 * Whether two JSON values are the same value (so their RFC 8785 encodings are the same bytes): a walk, not two
 * canonical encodings, which would cost a screen's write about as much again as its signature.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((key) => Object.hasOwn(y, key) && sameJson(x[key], y[key]));
}

const kidOf = (header: string): unknown => {
  try {
    return (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid?: unknown }).kid;
  } catch {
    return undefined;
  }
};

/** The last header found to be receiptHeaderOf(its kid): every screen signed under one key has that header. */
let lastStandardHeader: { readonly header: string; readonly kid: string } | null = null;

/** The kid of a header that is exactly receiptHeaderOf(kid), else undefined; decoded once per key, not per screen. */
function kidOfStandardHeader(header: string): string | undefined {
  if (lastStandardHeader?.header === header) return lastStandardHeader.kid;
  const kid = kidOf(header);
  if (typeof kid !== 'string' || receiptHeaderOf(kid) !== header) return undefined;
  lastStandardHeader = { header, kid };
  return kid;
}

/**
 * What a screen's charge keeps of the receipt it answered with: the short form when the charge's facts
 * give back the very statement and header signed, else the receipt detached whole.
 */
export function screenReceiptToKeep(charge: ScreenCharge, receipt: DetachedReceipt): ScreenChargeReceipt {
  const [header = '', signature = ''] = receipt.jws.split('..');
  const kid = kidOfStandardHeader(header);
  if (receipt.payload !== undefined || kid === undefined) return receipt;
  const short = { issuedAt: receipt.statement.issuedAt, data: receipt.statement.data, kid, signature };
  const rebuilt = statementOfCharge(charge, short);
  return rebuilt !== null && sameJson(rebuilt, receipt.statement) ? short : receipt;
}

/** The receipt a screen's charge keeps, detached whole (its statement and `header..signature`); null when the charge cannot give it back. */
export function detachedScreenReceiptOf(charge: ScreenCharge, kept: ScreenChargeReceipt): DetachedReceipt | null {
  if (isDetached(kept)) return kept;
  const statement = statementOfCharge(charge, kept);
  return statement && { statement, jws: `${receiptHeaderOf(kept.kid)}..${kept.signature}` };
}
