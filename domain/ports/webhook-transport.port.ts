import type { AttemptOutcome } from '../webhooks/webhook-delivery.decider.js';

/**
 * Sends webhook deliveries: one HTTP POST, no redirects followed, bounded by a timeout (10 s by
 * default), through an SSRF guard that checks the address actually connected to. Never throws for
 * anything the receiver or the network does: every failure is an AttemptOutcome to record.
 */
export interface WebhookPost {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface WebhookTransport {
  /**
   * Judges a target URL now (scheme, credentials, address literals, and the addresses a host name
   * resolves to), for early feedback when a subscription is saved: a refusal reason, or null. A
   * name that does not resolve yet is accepted; the connection is checked again at every delivery.
   */
  vet(url: string): Promise<string | null>;
  post(request: WebhookPost): Promise<{ outcome: AttemptOutcome; durationMs: number }>;
  close(): Promise<void>;
}
