import { z } from 'zod';
import { TRANSFER_CHAINS } from '../shared/network.js';
import { verdictAlertSchema } from '../kyt/transfer-verdict.js';
import { streamFamily } from '../shared/streams.js';
import { changeReasonSchema } from '../intel/change-reason.js';

/** Stream `alertcase-{alertId}`: one alert of a transfer check, triaged as a case (status, assignee, comments). */
export const alertCaseStreams = streamFamily('alertcase');
export const ALERT_CASE_STREAM_FAMILY = alertCaseStreams.family;
export const alertCaseStream = alertCaseStreams.stream;

export const CASE_STATUSES = ['open', 'in_review', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Why a case was closed: the alert was a real finding (flagged), a false positive (dismissed), or something else. */
export const CLOSE_REASONS = ['flagged', 'dismissed', 'other'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

export const MAX_NOTE_LENGTH = 2000;
export const MAX_COMMENTS_PER_CASE = 500;

/** Who did something to a case: the user and the email address they had then (the audit trail keeps both). */
export const actorSchema = z.object({ userId: z.string(), email: z.string() });
export type CaseActor = z.infer<typeof actorSchema>;

/** The alert exactly as the transfer check's verdict listed it (the spec's alert fields): the verdict's own schema. */
export const caseAlertSchema = verdictAlertSchema;
export type CaseAlert = z.infer<typeof caseAlertSchema>;

export const alertCaseEventSchemas = {
  AlertCaseOpened: z.object({
    alertId: z.string(),
    checkId: z.string(),
    /** Position of the alert in the check's policy_result.alerts. */
    alertIndex: z.number().int().nonnegative(),
    subgroupId: z.string(),
    chain: z.enum(TRANSFER_CHAINS),
    txHash: z.string(),
    alert: caseAlertSchema,
    checkedAt: z.string(),
    /** Set when an intelligence change raised the alert after the check (retroactive exposure): the change. */
    retroactive: z.object({ changeKey: z.string(), reasons: z.array(changeReasonSchema) }).optional(),
    at: z.string(),
  }),
  AlertCaseStatusChanged: z.object({
    alertId: z.string(),
    from: z.enum(CASE_STATUSES),
    to: z.enum(CASE_STATUSES),
    reason: z.enum(CLOSE_REASONS).nullable(),
    note: z.string().nullable(),
    by: actorSchema,
    at: z.string(),
  }),
  AlertCaseAssigned: z.object({
    alertId: z.string(),
    from: actorSchema.nullable(),
    to: actorSchema.nullable(),
    by: actorSchema,
    at: z.string(),
  }),
  AlertCaseCommented: z.object({ alertId: z.string(), commentId: z.string(), text: z.string(), by: actorSchema, at: z.string() }),
} as const;

type Schemas = typeof alertCaseEventSchemas;
export type AlertCaseEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export type AlertCaseOpenedData = z.infer<Schemas['AlertCaseOpened']>;
