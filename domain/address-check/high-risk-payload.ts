import { z } from 'zod';
import { sanctionsCoverageSchema } from '../webhooks/sanctions-coverage.words.js';
import { HIGH_RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * The payload of the `service.check.high_risk` webhook (docs/api.md, "Webhooks"): the webhook's contract,
 * recorded in the WebhookEventRaised the fan-out delivers verbatim. Built from the full check's domain
 * verdict by highRiskPayload (full-verdict.ts).
 */
export const highRiskPayloadSchema = z.object({
  check_id: z.string(),
  address: z.string(),
  network: z.string(),
  risk_level: z.enum(HIGH_RISK_LEVELS),
  risk_score: z.number().min(0).max(100),
  tier_hit: z.number().int().min(0).max(4),
  categories: z.array(z.string()),
  sanctions: sanctionsCoverageSchema.optional(),
});
export type HighRiskPayload = z.infer<typeof highRiskPayloadSchema>;
