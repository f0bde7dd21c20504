import { z } from 'zod';
import { SCREEN_NETWORKS, TRANSFER_CHAINS } from '../../domain/shared/network.js';
import { parseWord } from '../../domain/shared/verdict-vocabulary.js';

/**
 * Pieces every V2 body shares. Patterns and enums marked "documented" are in the OpenAPI document only:
 * the handlers keep their own finer rules (an unknown network is 400, a malformed address 422), so a
 * request schema may not refuse them first.
 */

/** Made-up addresses and hashes for the document's examples (never a real party). */
export const EXAMPLE_EVM_ADDRESS = '0x1111111111111111111111111111111111111111';
export const EXAMPLE_TX_HASH = '0x2222222222222222222222222222222222222222222222222222222222222222';
export const EXAMPLE_UUID = '0193a6b2-7c1e-7d2a-9f3b-4c5d6e7f8a9b';

export const EVM_ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';
export const TRON_ADDRESS_PATTERN = '^T[1-9A-HJ-NP-Za-km-z]{33}$';
/** An address of any screened network: EVM hex, or TRON base58check. */
export const ADDRESS_PATTERN = '^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$';
/** EVM: 0x + 64 hex digits; TRON also takes its 64 digits without 0x. */
export const TX_HASH_PATTERN = '^(0x)?[0-9a-fA-F]{64}$';

/** A request's address: any string up to the spec's length, documented with its shapes. */
export const addressField = z.string().max(120).meta({
  description: 'EVM: 0x followed by 40 hex digits; TRON: base58check, 34 characters starting with T',
  pattern: ADDRESS_PATTERN,
  example: EXAMPLE_EVM_ADDRESS,
});
/** A request's network (case-insensitive), documented with the networks the address endpoints take. */
export const networkField = z
  .string()
  .max(20)
  .meta({ enum: [...SCREEN_NETWORKS], example: 'ETH' });
/** A request's chain (case-insensitive), documented with the chains the transfer check takes. */
export const chainField = z
  .string()
  .max(20)
  .meta({ enum: [...TRANSFER_CHAINS], example: 'ETH' });
export const txHashField = z.string().max(80).meta({ pattern: TX_HASH_PATTERN, example: EXAMPLE_TX_HASH });

/**
 * An enum a client may send in any case (`severe`, `SEVERE` → `Severe`), as networks are: parsed to the
 * canonical word, refused with the enum's own 422 otherwise. Documented as the enum's values.
 */
export function anyCaseEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .max(64)
    .transform((input, ctx): T[number] => {
      const word = parseWord(values, input);
      if (word !== null) return word;
      ctx.addIssue({
        code: 'invalid_value',
        values: [...values],
        input,
        message: `Invalid option: expected one of ${values.map((v) => JSON.stringify(v)).join('|')} (any case)`,
      });
      return z.NEVER;
    })
    .meta({ enum: [...values], description: 'any case' });
}

/** In responses: always the canonical form (EVM lowercased, TRON unchanged). */
export const addressOut = z.string().regex(new RegExp(ADDRESS_PATTERN));
export const networkOut = z.enum(SCREEN_NETWORKS);
export const chainOut = z.enum(TRANSFER_CHAINS);
/** Canonical in responses: 0x + 64 lowercase hex digits, TRON included. */
export const txHashOut = z.string().regex(/^0x[0-9a-f]{64}$/);
export const isoTimestamp = z.string().meta({ format: 'date-time' });

export const paginationSchema = z.strictObject({
  page: z.number().int().min(1),
  page_size: z.number().int().min(1),
  total: z.number().int().min(0),
  total_pages: z.number().int().min(0),
});

/** A verdict's receipt (docs/api.md, "Verifying a verdict"): absent from verdicts made before receipts existed. */
export const receiptField = z
  .string()
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  .optional()
  .meta({
    description:
      'The verdict’s receipt: a compact JWS (EdDSA, Ed25519) over the RFC 8785 JSON of its domain verdict (subject, caller, input hash, time, outcome, data versions). Verify it with /.well-known/jwks.json; absent from verdicts made before receipts existed',
  });
