import { z } from 'zod';
import { bfsCompletedPayloadSchema, bfsFailedPayloadSchema } from '../explore/explore-payloads.js';
import { highRiskPayloadSchema } from './high-risk-payload.js';

/**
 * The webhook fan-out's contract (domain/webhooks/webhook-raised.ts): an emitter appends ONE
 * `WebhookEventRaised` beside the fact it reports, in the same decision, with the spec's payload and
 * the audience to notify. The full check and explore jobs of a V2 user raise theirs for that user;
 * x402 work is anonymous and raises nothing. This schema is the subset these two emitters produce.
 */
export const WEBHOOK_EVENT_RAISED = 'WebhookEventRaised';

const audience = z.strictObject({ user_id: z.string().min(1) });

export const raisedWebhookSchema = z.discriminatedUnion('event_type', [
  z.object({ event_type: z.literal('service.check.high_risk'), audience, payload: highRiskPayloadSchema, occurred_at: z.string() }),
  z.object({ event_type: z.literal('service.bfs.completed'), audience, payload: bfsCompletedPayloadSchema, occurred_at: z.string() }),
  z.object({ event_type: z.literal('service.bfs.failed'), audience, payload: bfsFailedPayloadSchema, occurred_at: z.string() }),
]);
export type RaisedWebhook = z.infer<typeof raisedWebhookSchema>;
