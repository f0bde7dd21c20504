import { z } from 'zod';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { SCREEN_NETWORKS } from '../shared/network.js';
import { monitorDataVersionsSchema, monitorVerdictSchema } from './monitor-verdict.js';
import { monitorDataVersionsAsStored, monitorVerdictAsStored } from './monitor.upcast.js';

/**
 * One monitor's state (monitor.decider.ts folds it) as a schema: a POST /v2/monitors outcome stored under an
 * Idempotency-Key carries it, and its replay parses it back with this (read-api/presenters/monitor-outcome.schema.ts).
 * States stored before monitor verdicts were domain facts hold the verdict in the API's words: read as the
 * domain verdict (monitor.upcast.ts), so such a replay answers the bytes the first call did.
 */
export const monitorStatusSchema = z.enum(['none', 'active', 'paused', 'deleted']);
export type MonitorStatus = z.infer<typeof monitorStatusSchema>;

export const monitorStateSchema = z
  .object({
    status: monitorStatusSchema,
    monitorId: z.string().nullable(),
    userId: z.string().nullable(),
    address: z.string().nullable(),
    network: z.enum(SCREEN_NETWORKS).nullable(),
    reference: z.string().nullable(),
    verdict: z.preprocess(monitorVerdictAsStored, monitorVerdictSchema.nullable()),
    paidPeriod: z.string().nullable(),
    pausedReason: z.string().nullable(),
    dataVersions: z.preprocess(monitorDataVersionsAsStored, monitorDataVersionsSchema.nullable()),
    /** The sanctions lists its current verdict was checked against (null: not recorded then, absent from states stored before it was kept). */
    sanctions: sanctionsCoverageFactSchema.nullable().default(null),
    createdAt: z.string().nullable(),
    lastChangedAt: z.string().nullable(),
    /** Change keys already applied, newest last; bounded (a change is re-delivered soon or not at all). */
    recentChanges: z.array(z.string()).readonly(),
  })
  .readonly();
export type MonitorState = z.infer<typeof monitorStateSchema>;
