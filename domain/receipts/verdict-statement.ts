import { z } from 'zod';

/**
 * The typed domain verdict a receipt signs (docs/ARCHITECTURE.md#verdict-receipts): what was decided
 * about which subject, for whom, from which input, as of when, and from which data. Domain facts in
 * camelCase, never a response body: a change of the wire shape changes no signature. Bumped (`version`)
 * when a field changes meaning; a verifier reads the version before the fields.
 */
export const VERDICT_STATEMENT_VERSION = 1;

export const VERDICT_KINDS = ['screen', 'full_check', 'transfer_check', 'inspect', 'monitor_change'] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/** Who asked: an API key (V2), the account (dashboard, CLI), an x402 payer or payment, or a monitor's owner. */
export const CALLER_KINDS = ['api_key', 'account', 'x402_payer', 'x402_payment', 'monitor_owner'] as const;

const signedSourceSchema = z.strictObject({ source: z.string(), version: z.string(), contentHash: z.string() });

export const verdictStatementSchema = z.strictObject({
  version: z.literal(VERDICT_STATEMENT_VERSION),
  verdictId: z.string().min(1),
  kind: z.enum(VERDICT_KINDS),
  /** An address on a network, or a transaction on a chain (address null). */
  subject: z.strictObject({ network: z.string(), address: z.string().nullable(), txHash: z.string().nullable() }),
  caller: z.strictObject({ kind: z.enum(CALLER_KINDS), id: z.string() }),
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of the request's input (canonical-json.ts). */
  inputHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** When the verdict was made (a screen's answer, a check's completion, a monitor's change). */
  issuedAt: z.string(),
  outcome: z.strictObject({
    /** The verdict vocabulary's level (null: no data, said so by the coverage). */
    riskLevel: z.string().nullable(),
    riskScore: z.number().nullable(),
    /** accept, review, reject, unable (full check, inspect) or the policy's recommended action (transfer). */
    decision: z.string().nullable(),
    /** The risk categories found, sorted. */
    categories: z.array(z.string()),
    /** Whether a sanctions list names the subject (null where the verdict does not say). */
    sanctioned: z.boolean().nullable(),
  }),
  /** The data the verdict was computed from: taxonomy, the data state's snapshot, every source at its version and content hash. */
  data: z.strictObject({ taxonomy: z.string().nullable(), snapshot: z.string().nullable(), sources: z.array(signedSourceSchema) }),
});

export type VerdictStatement = z.infer<typeof verdictStatementSchema>;
export type SignedSource = z.infer<typeof signedSourceSchema>;
