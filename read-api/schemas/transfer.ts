import { z } from 'zod';
import type { GraphCoverage } from '../../domain/kyt/sender-exposure.js';
import { caseAlertSchema } from '../../domain/alerts/alert-case.events.js';
import { ALERT_LEVELS } from '../../domain/kyt/alert-level.js';
import { evidencePathSchema } from './exposure-body.schema.js';
import { tracedDataVersionsSchema } from './data-versions.schema.js';
import { sanctionsCoverageSchema } from '../../domain/webhooks/sanctions-coverage.words.js';
import { billingSchema } from './billing.js';
import { chainOut, EXAMPLE_UUID, isoTimestamp, txHashOut, receiptField } from './common.js';
import { ACTIONS, CATEGORY_LEVELS, COMPOSITE_LEVELS } from '../../domain/shared/verdict-vocabulary.js';

/** Bodies of POST /v2/check-transfer and GET /v2/transfer/{check_id}/result (read-api/presenters/transfer.presenter.ts). */

const GRAPH_COVERAGES = {
  analysed: 'analysed',
  budget_exhausted: 'budget_exhausted',
  no_history: 'no_history',
  not_available: 'not_available',
  skipped: 'skipped',
} as const satisfies { [G in GraphCoverage]: G };

const categoryLevel = z.enum(CATEGORY_LEVELS);

const legSchema = z.strictObject({
  kind: z.enum(['native', 'token']),
  token: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.number().int().nullable(),
  from: z.string(),
  to: z.string(),
  /** Raw integer amount in the token's smallest unit, as a decimal string. */
  amount: z.string(),
  usd_value: z.number().nullable(),
  log_index: z.number().int().nullable(),
});

const senderSchema = z.strictObject({
  address: z.string(),
  label: z.string().nullable(),
  usd_value: z.number(),
  share: z.number(),
  legs: z.number().int(),
  data_available: z.boolean(),
  risk_score: z.number().min(0).max(10).meta({ description: 'This sender alone, 0..10 as the composite scores it' }),
  risk_level: z.enum(['none', 'low', 'medium', 'high', 'severe']),
  direct_categories: z.array(
    z.strictObject({ slug: z.string(), level: categoryLevel, severity: z.number(), confidence: z.number(), sources: z.array(z.string()) }),
  ),
  indirect_categories: z.array(
    z.strictObject({
      slug: z.string(),
      share: z.number(),
      hops: z.number().int().nullable(),
      usd_value: z.number().meta({ description: 'What of this transfer the share traces: the sender’s USD × share' }),
      paths: z
        .array(evidencePathSchema)
        .meta({ description: 'The routes found, heaviest first (at most three), as a full check’s evidence paths' }),
    }),
  ),
  graph: z.enum(GRAPH_COVERAGES),
});

/** An alert in the spec's shape (Events → tx.policy.alert.triggered → Alert fields): the one a case keeps, strict. */
export const policyAlertSchema = z.strictObject(caseAlertSchema.shape);

export const transferResultSchema = z
  .strictObject({
    schema_version: z.number().int(),
    check_id: z.string(),
    status: z.literal('completed'),
    chain: chainOut,
    tx_hash: txHashOut,
    transaction: z.strictObject({
      block_number: z.number().int(),
      block_time: isoTimestamp,
      success: z.boolean(),
      signer: z.string(),
      to: z.string().nullable(),
    }),
    composite_result: z.strictObject({
      total_usd: z.number(),
      pricing: z.enum(['full', 'partial', 'none']),
      weighting: z.enum(['usd', 'equal']),
      prices: z.array(z.strictObject({ source: z.string(), as_of: z.string() })),
      risk_score: z.number().min(0).max(10),
      risk_level: z.enum(COMPOSITE_LEVELS),
      unknown_share: z.number(),
      legs_total: z.number().int(),
      legs: z.array(legSchema),
      senders_total: z.number().int(),
      senders: z.array(senderSchema),
      categories: z.array(
        z.strictObject({
          slug: z.string(),
          display_name: z.string(),
          level: categoryLevel,
          severity: z.number(),
          direct_share: z.number(),
          direct_usd: z.number(),
          indirect_share: z.number(),
          indirect_usd: z.number(),
        }),
      ),
      patterns: z.array(z.strictObject({ slug: z.string(), address: z.string(), detail: z.string() })),
    }),
    policy_result: z.strictObject({
      policy_id: z.string().optional().meta({
        description:
          '`standard`, or the id of the subgroup’s own policy (GET /v2/policies/{id}); absent in checks completed before policies',
      }),
      policy: z.string(),
      version: z.string(),
      taxonomy_version: z.string(),
      worst_level: z.enum(ALERT_LEVELS).nullable(),
      recommended_action: z.enum(ACTIONS),
      alert_count: z.number().int(),
      alerts: z.array(policyAlertSchema),
      explanations: z.array(
        z.strictObject({
          rule_id: z.string(),
          category_slug: z.string(),
          exposure_usd: z.number(),
          note: z.string(),
          senders_total: z.number().int(),
          senders: z.array(z.string()).meta({ description: 'The senders the alert rests on, the most USD first' }),
        }),
      ),
    }),
    coverage: z.strictObject({ sanctions: sanctionsCoverageSchema, data_versions: tracedDataVersionsSchema }).optional().meta({
      description:
        'What the check read: the sanctions lists the senders were checked against, every source behind a sender’s exposure, the transfer data they were traced in (absent in checks completed before it was recorded)',
    }),
    checked_at: isoTimestamp,
    receipt: receiptField,
    billing: billingSchema,
  })
  .meta({ description: 'The transfer check’s result (charged on the first delivery; later ones carry billing.replay true)' });
export type TransferResultBody = z.infer<typeof transferResultSchema>;

/** The POST also says how long it took. */
export const transferSubmitResultSchema = transferResultSchema.extend({ elapsed_ms: z.number().int().min(0) });

export const transferRunningSchema = z.strictObject({ check_id: z.string(), status: z.literal('running'), retry_url: z.string() }).meta({
  description: 'Still running: fetch retry_url later; nothing charged yet',
  example: { check_id: EXAMPLE_UUID, status: 'running', retry_url: `/v2/transfer/${EXAMPLE_UUID}/result` },
});
export type TransferRunningBody = z.infer<typeof transferRunningSchema>;
