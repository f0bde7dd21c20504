import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Monitors as the code before monitor verdicts were domain facts stored and served them: every event of
 * each monitor's stream (MonitorCreated and MonitorVerdictChanged at schema version 1, their verdicts and
 * data versions in the API's snake_case words, each change's receipt a compact JWS, the WebhookEventRaised
 * beside each change) and the bytes GET /v2/monitors/{id}, GET /v2/verdicts/{monitor_id}:{change key} and
 * GET /v2/monitors answered, with their status. Written by test/support/stored-monitors.writer.test.ts on
 * made-up addresses: one a sanctions list named and then dropped, one a curator flagged.
 */
export interface Served {
  readonly status: number;
  /** The body served, as sent. */
  readonly body: string;
}

export interface StoredMonitor {
  readonly monitorId: string;
  readonly events: readonly { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[];
  readonly monitor: Served;
  readonly verdicts: readonly (Served & { readonly verdictId: string })[];
}

export const STORED_MONITORS: {
  readonly ownerId: string;
  readonly keyId: string;
  readonly monitors: readonly StoredMonitor[];
  readonly list: Served;
} = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'monitors-v1.json'), 'utf8'));
