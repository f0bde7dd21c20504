import { z } from 'zod';
import { CASE_STATUSES, CLOSE_REASONS, MAX_NOTE_LENGTH } from '../../domain/alerts/alert-case.events.js';
import { ALERT_LEVELS } from '../../domain/kyt/alert-level.js';
import { TRANSFER_CHAINS } from '../../domain/shared/network.js';
import { anyCaseEnum } from '../schemas/common.js';

/** Request shapes of /v2/alerts (and the dashboard's alert actions, which take the same bodies). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const alertListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  status: anyCaseEnum(CASE_STATUSES).optional(),
  risk_level: anyCaseEnum(ALERT_LEVELS).optional(),
  /** A user id, or `none` for unassigned cases. */
  assignee: z.union([z.literal('none'), z.string().regex(UUID, 'a user id (UUID) or none')]).optional(),
  check_id: z.string().regex(UUID, 'a check id (UUID)').optional(),
  chain: anyCaseEnum(TRANSFER_CHAINS).optional(),
  since: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
});
export type AlertListQuery = z.infer<typeof alertListQuery>;

export const alertParams = z.object({ id: z.string().max(100) });

export const subgroupParams = z.object({ subgroup_id: z.string().max(100) });

export const triageBody = z
  .strictObject({
    status: anyCaseEnum(CASE_STATUSES).optional(),
    reason: anyCaseEnum(CLOSE_REASONS).optional(),
    note: z.string().max(MAX_NOTE_LENGTH).optional(),
    /** A member's user id; null unassigns. */
    assignee: z.string().max(100).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one of status, reason, note, assignee' });
export type TriageBody = z.infer<typeof triageBody>;

export const commentBody = z.strictObject({ text: z.string().min(1).max(MAX_NOTE_LENGTH) });
