import { z } from 'zod';
import { dataVersionsSchema } from './data-versions.schema.js';
import { sanctionsCoverageSchema } from '../../domain/webhooks/sanctions-coverage.words.js';
import { CLAIM_DATINGS } from '../../domain/intel/intel.types.js';
import { RISK_LEVELS } from '../../domain/shared/verdict-vocabulary.js';

/**
 * The `coverage` and `verdict` objects of the light screen's 200 body, field by field as the spec's
 * tables give them. Objects are strict: a field the spec does not list is a bug, not an extension. The
 * domain's verdict is domain/intel/screen-verdict.schema.ts; ../presenters/screen-verdict.body.ts shapes
 * it into these.
 */

const riskLevel = z.enum(RISK_LEVELS);
const int0to100 = z.number().int().min(0).max(100);
const isoTimestamp = z.iso.datetime({ offset: true });

/** Our addition to the spec's coverage: which data produced the verdict (docs/data-sources.md, "Data versions"). */
export { dataVersionsSchema };

export const coverageSchema = z.strictObject({
  data_available: z.boolean(),
  label_count: z.number().int().min(0),
  source_count: z.number().int().min(0),
  sdn_checked: z.literal(true),
  consensus_found: z.boolean(),
  tiers: z.array(z.string()),
  graph_analysed: z.literal(false),
  data_versions: dataVersionsSchema,
  sanctions: sanctionsCoverageSchema,
});

export const sdnMatchSchema = z.strictObject({
  list: z.enum(['US', 'UK', 'EU']),
  entity: z.string().nullable(),
  program: z.string().nullable(),
  list_entry_id: z.string().nullable(),
  list_date: z.string().nullable(),
  asset: z.string().nullable(),
  source: z.string(),
});

export const labelRowSchema = z.strictObject({
  source: z.string(),
  source_name: z.string(),
  label: z.string().nullable(),
  category: z.string(),
  confidence: int0to100,
  source_url: z.url(),
  first_seen_at: isoTimestamp,
  last_seen_at: isoTimestamp,
  dated_by: z.enum(CLAIM_DATINGS).nullable().meta({
    description:
      'What first_seen_at and last_seen_at rest on: record (the source dates this entry), list (the date of the list as a whole), retrieved (the source gives no date: the day its files were retrieved); null: not known (imported before this was kept)',
  }),
});

export const entitySchema = z.strictObject({
  name: z.string(),
  category: z.string(),
  source: z.string(),
});

export const smartContractSchema = z.strictObject({
  is_contract: z.boolean(),
  token_contract: z.boolean(),
  symbol: z.string().nullable(),
  decimals: z.number().int().min(0).nullable(),
  is_well_known: z.boolean(),
  logo_url: z.string().nullable(),
  tags: z.array(z.string()),
  primary_entity: entitySchema.nullable(),
  complementary_entities: z.array(entitySchema),
});

export const riskCategoryDetailSchema = z.strictObject({
  slug: z.string(),
  risk_level: riskLevel.nullable(),
  severity: z.number().int().min(0).max(10).nullable(),
  confidence: z.number().min(0).max(100).nullable(),
  source_count: z.number().int().min(0).nullable(),
  max_trust_weight: int0to100.nullable(),
  sources: z.array(z.string()),
});

export const verdictSchema = z.strictObject({
  ok: z.literal(true),
  risk_level: riskLevel.nullable(),
  risk_score: int0to100.nullable(),
  risk_categories: z.array(z.string()),
  consensus_found: z.boolean(),
  source_count: z.number().int().min(0),
  confidence: int0to100.nullable(),
  primary_source_slug: z.string().nullable(),
  label: z.string().nullable(),
  sdn_match: sdnMatchSchema.nullable(),
  labels: z.array(labelRowSchema),
  smart_contract: smartContractSchema,
  risk_category_detail: z.array(riskCategoryDetailSchema),
});

export const screenVerdictPartsSchema = z.strictObject({ coverage: coverageSchema, verdict: verdictSchema });

export type ScreenVerdictParts = z.infer<typeof screenVerdictPartsSchema>;
export type ScreenCoverageBody = z.infer<typeof coverageSchema>;
export type VerdictBody = z.infer<typeof verdictSchema>;
export type SdnMatchBody = z.infer<typeof sdnMatchSchema>;
