import { z } from 'zod';
import { dataVersionsSchema, sourceVersionRowSchema } from './data-versions.schema.js';
import { changeReasonWordsSchema } from '../../domain/webhooks/change-reason-words.js';
import { monitorVerdictWordsSchema } from '../../domain/monitors/risk-changed-payload.js';
import { sanctionsCoverageSchema } from '../../domain/webhooks/sanctions-coverage.words.js';
import { billingSchema } from './billing.js';
import { addressOut, isoTimestamp, networkOut, paginationSchema } from './common.js';
import { errorEnvelope } from './errors.js';
import { ADDRESS_ERRORS, CHARGE_ERRORS } from './responses.js';

/** Bodies of /v2/monitors (read-api/routes/monitor-views.ts). */

/** The monitor's verdict in the words of the `service.address.risk_changed` webhook, which carries the same object. */
export const monitorVerdictSchema = monitorVerdictWordsSchema;
export type MonitorVerdictBody = z.infer<typeof monitorVerdictSchema>;

/** As recorded with the monitor's verdicts: versions recorded before `imported_at` existed lack it. */
export const monitorDataVersionsSchema = dataVersionsSchema.extend({
  sources: z.array(sourceVersionRowSchema.extend({ imported_at: z.string().optional() })),
});
export type MonitorDataVersionsBody = z.infer<typeof monitorDataVersionsSchema>;

export const monitorSchema = z.strictObject({
  monitor_id: z.string(),
  address: addressOut,
  network: networkOut,
  reference: z.string().nullable(),
  status: z.enum(['active', 'paused']),
  paused_reason: z.string().nullable(),
  paid_period_start: z.string(),
  created_at: isoTimestamp,
  last_changed_at: isoTimestamp.nullable(),
  verdict: monitorVerdictSchema,
  data_versions: monitorDataVersionsSchema,
  sanctions: sanctionsCoverageSchema
    .nullable()
    .meta({ description: 'The sanctions lists the current verdict was checked against (null for a verdict recorded before it was)' }),
});
export type MonitorBody = z.infer<typeof monitorSchema>;

export const monitorCreatedSchema = monitorSchema.extend({ billing: billingSchema });
export type MonitorCreatedBody = z.infer<typeof monitorCreatedSchema>;

export const monitorChangeSchema = z.strictObject({
  at: isoTimestamp,
  previous: monitorVerdictSchema,
  current: monitorVerdictSchema,
  reasons: z.array(changeReasonWordsSchema),
  sanctions: sanctionsCoverageSchema.nullable(),
});

export const monitorDetailSchema = monitorSchema.extend({ history: z.array(monitorChangeSchema) });
export type MonitorDetailBody = z.infer<typeof monitorDetailSchema>;

export const monitorListSchema = z.strictObject({ data: z.array(monitorSchema), pagination: paginationSchema });
export type MonitorListBody = z.infer<typeof monitorListSchema>;

/** One entry's outcome: its status and what the single POST would have answered. */
const bulkResultSchema = z.union([
  z.strictObject({ index: z.number().int().min(0), status: z.union([z.literal(200), z.literal(201)]), body: monitorCreatedSchema }),
  z.strictObject({
    index: z.number().int().min(0),
    status: z.number().int().min(400),
    body: errorEnvelope([...ADDRESS_ERRORS, ...CHARGE_ERRORS, 'backend_unavailable', 'internal_error']),
  }),
]);

export const bulkMonitorResultSchema = z.strictObject({
  results: z.array(bulkResultSchema),
  summary: z.strictObject({ created: z.number().int().min(0), existing: z.number().int().min(0), failed: z.number().int().min(0) }),
});
export type BulkMonitorResultBody = z.infer<typeof bulkMonitorResultSchema>;
