import type { WebhookTransport } from '../domain/ports/webhook-transport.port.js';
import type { CommandDeps } from './command-deps.js';

/** What the webhook commands need beyond every command's deps; assembled by infra/wiring. */
export interface WebhookDeps extends CommandDeps {
  readonly webhooks: {
    readonly transport: WebhookTransport;
    /** Multiplies the retry schedule (WEBHOOK_RETRY_SCALE; 1 in production). */
    readonly retryScale: number;
  };
}
