import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Light screens as earlier code stored and served them: the Charged event of each (schema version 1,
 * before screen verdicts were domain facts: `details.screen` the snake_case wire summary and
 * `details.receipt` the compact JWS; version 2: the domain summary and the receipt's statement with its
 * detached JWS) and the bytes GET /v2/verdicts/{id} answered, with its status. Written by
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

export interface StoredScreens {
  readonly ownerId: string;
  readonly keyId: string;
  readonly screens: readonly StoredScreen[];
}

const fixture = (version: number): StoredScreens =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'verdicts', `screens-v${version}.json`), 'utf8'));

export const STORED_SCREENS: StoredScreens = fixture(1);
/** The same screens as Charged version 2 stored them (the domain summary, the receipt's statement and detached JWS whole). */
export const STORED_SCREENS_V2: StoredScreens = fixture(2);
