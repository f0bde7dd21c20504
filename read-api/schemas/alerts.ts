import { z } from 'zod';
import { caseAlertSchema, CASE_STATUSES, CLOSE_REASONS } from '../../domain/alerts/alert-case.events.js';
import { ALERT_LEVELS } from '../../domain/kyt/alert-level.js';
import { chainOut, isoTimestamp, paginationSchema, txHashOut } from './common.js';

/** Bodies of /v2/alerts (read-api/routes/alerts-views.ts). */

const actorSchema = z.strictObject({ user_id: z.string(), email: z.string() });

export const alertSummarySchema = z.strictObject({
  id: z.string(),
  check_id: z.string(),
  alert_index: z.number().int().min(0),
  subgroup_id: z.string(),
  chain: chainOut,
  tx_hash: txHashOut,
  status: z.enum(CASE_STATUSES),
  reason: z.enum(CLOSE_REASONS).nullable(),
  note: z.string().nullable(),
  assignee: actorSchema.nullable(),
  risk_level: z.enum(ALERT_LEVELS),
  alert: caseAlertSchema,
  comment_count: z.number().int().min(0),
  checked_at: isoTimestamp,
  retroactive: z
    .strictObject({
      change_key: z.string(),
      reasons: z.array(z.strictObject({ source: z.string(), change: z.string(), version: z.string().nullable(), changed_at: z.string() })),
    })
    .nullable()
    .meta({
      description:
        'Set when the alert was raised after the check, by retroactive exposure: the intelligence change (its key, and the source, change, version and date behind it) that made the subgroup’s active policy raise it',
    }),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});

export const alertCommentSchema = z.strictObject({ id: z.string(), text: z.string(), by: actorSchema.nullable(), at: isoTimestamp });

const historyEntrySchema = z.strictObject({
  at: isoTimestamp,
  by: actorSchema.nullable(),
  action: z.enum(['opened', 'status_changed', 'assigned', 'commented']),
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  reason: z.enum(CLOSE_REASONS).nullable().optional(),
  note: z.string().nullable().optional(),
  text: z.string().optional(),
});

export const alertDetailSchema = alertSummarySchema.extend({ comments: z.array(alertCommentSchema), history: z.array(historyEntrySchema) });
export type AlertDetailBody = z.infer<typeof alertDetailSchema>;

export const alertListSchema = z.strictObject({ alerts: z.array(alertSummarySchema), pagination: paginationSchema });
export type AlertListBody = z.infer<typeof alertListSchema>;

export const subgroupMembersSchema = z
  .strictObject({
    data: z.array(
      z.strictObject({
        user_id: z.string(),
        email: z.string(),
        name: z.string().meta({ description: 'The account’s display name (its email when it has no other)' }),
        joined_at: isoTimestamp,
      }),
    ),
  })
  .meta({ description: 'The members of the subgroup, by name: whom its alert cases can be assigned to' });
