import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Light screens as the code before screen verdicts were domain facts stored and served them: the Charged
 * event of each (schema version 1, `details.screen` the snake_case wire summary and `details.receipt` the
 * compact JWS) and the bytes GET /v2/verdicts/{id} answered, with its status. Written by
 * test/support/stored-screens.writer.test.ts on made-up addresses: sanctioned, a labelled exploiter, an
 * exchange, and one no source knows.
 */
export interface StoredScreen {
  readonly verdictId: string;
  readonly address: string;
  readonly status: number;
  readonly event: { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> };
  /** The body served, as sent. */
  readonly body: string;
}

export const STORED_SCREENS: {
  readonly ownerId: string;
  readonly keyId: string;
  readonly screens: readonly StoredScreen[];
} = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'screens-v1.json'), 'utf8'));
