import { z } from 'zod';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { SCREEN_NETWORKS } from '../shared/network.js';
import { WEBHOOK_EVENT_RAISED, webhookEventRaisedSchema, type WebhookEventRaised } from '../webhooks/webhook-raised.js';
import { changeReasonSchema } from '../intel/change-reason.js';
import { monitorDataVersionsSchema, monitorVerdictSchema } from './monitor-verdict.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `monitor-{monitorId}`: one customer's watch on one (network, address). The id derives from
 * (user, network, address), so watching the same address twice is the same monitor. A verdict change is
 * appended with its WebhookEventRaised (`service.address.risk_changed`) in the same append: the webhook
 * exists exactly when the change does.
 */
export const monitorStreams = streamFamily('monitor');
export const monitorStream = monitorStreams.stream;
export const MONITOR_STREAM_PREFIX = monitorStreams.prefix;

const timestamp = z.iso.datetime({ offset: true });
/** A billing period: its first instant, as periodStartOf gives it. */
const period = timestamp;

export const monitorEventSchemas = {
  MonitorCreated: z.object({
    monitorId: z.string().min(1),
    userId: z.string().min(1),
    keyId: z.string().nullable(),
    address: z.string().min(1),
    network: z.enum(SCREEN_NETWORKS),
    reference: z.string().nullable(),
    verdict: monitorVerdictSchema,
    dataVersions: monitorDataVersionsSchema,
    /** The sanctions lists the verdict was checked against (absent in monitors created before it was recorded). */
    sanctions: sanctionsCoverageFactSchema.optional(),
    paidPeriod: period,
    createdAt: timestamp,
  }),
  MonitorVerdictChanged: z.object({
    /** What was re-evaluated: `dataset:{source}:{contentHash}`, `curation:{entryId}:{added|retracted}`, `resume:{period}`. */
    changeKey: z.string().min(1),
    previous: monitorVerdictSchema,
    current: monitorVerdictSchema,
    reasons: z.array(changeReasonSchema).min(1),
    dataVersions: monitorDataVersionsSchema,
    sanctions: sanctionsCoverageFactSchema.optional(),
    /** The change's receipt (docs/api.md, "Verifying a verdict"); absent in changes recorded before receipts. */
    receipt: z.string().optional(),
    at: timestamp,
  }),
  MonitorRenewed: z.object({ period, at: timestamp }),
  /** The period could not be paid: the monitor stops re-screening until a later renewal succeeds. */
  MonitorPaused: z.object({ period, reason: z.string().min(1), at: timestamp }),
  MonitorResumed: z.object({ period, at: timestamp }),
  MonitorDeleted: z.object({ at: timestamp }),
  [WEBHOOK_EVENT_RAISED]: webhookEventRaisedSchema,
} as const;

type Schemas = typeof monitorEventSchemas;
type OwnEvent = { [K in Exclude<keyof Schemas, typeof WEBHOOK_EVENT_RAISED>]: { type: K; data: z.infer<Schemas[K]> } }[Exclude<
  keyof Schemas,
  typeof WEBHOOK_EVENT_RAISED
>];
export type MonitorEvent = OwnEvent | WebhookEventRaised;
export const MONITOR_EVENT_TYPES = Object.keys(monitorEventSchemas).filter((type) => type !== WEBHOOK_EVENT_RAISED) as OwnEvent['type'][];
