import type { WebhookEventType } from './webhook-event-types.js';
import { signatureHeader } from './webhook-signature.js';

/**
 * The bytes and headers of one delivery attempt. The envelope is the spec's (`schema_version` 1,
 * `event_type`, `delivery_id` stable across retries, `attempt`, `occurred_at`, `payload`); the headers
 * mirror it (`X-Service-*`) and carry the Standard Webhooks signature of exactly these bytes.
 */
export const ENVELOPE_SCHEMA_VERSION = 1;
export const PREVIEW_LENGTH = 200;

export interface DeliveryContent {
  readonly deliveryId: string;
  readonly eventType: WebhookEventType;
  readonly occurredAt: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

export interface SignedRequest {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export function envelopeBody(content: DeliveryContent, attempt: number): string {
  return JSON.stringify({
    schema_version: ENVELOPE_SCHEMA_VERSION,
    event_type: content.eventType,
    delivery_id: content.deliveryId,
    attempt,
    occurred_at: content.occurredAt,
    payload: content.payload,
  });
}

export function signedRequest(content: DeliveryContent, attempt: number, secrets: readonly string[], now: Date): SignedRequest {
  const body = envelopeBody(content, attempt);
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      'X-Service-Event': content.eventType,
      'X-Service-Delivery-Id': content.deliveryId,
      'X-Service-Attempt': String(attempt),
      'webhook-id': content.deliveryId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, content.deliveryId, timestamp, body),
    },
  };
}

export const preview = (text: string): string => text.slice(0, PREVIEW_LENGTH);
