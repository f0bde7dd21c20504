import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Transfer checks as the code before transfer verdicts were domain facts stored and served them (main at
 * e07f88a): the events of each check's stream (TransferCheckCompleted at schema version 1, its `result`
 * the response body) and the body GET /v2/transfer/{id}/result answered, without `receipt` and `billing`,
 * with its status. Written by test/support/stored-transfer-checks.writer.test.ts on made-up parties: a
 * transfer from a sanctioned address (Severe alert), one a hop from an exploiter (High, indirect), a clean
 * one, and one whose transaction does not exist (failed, 502); and one paid on x402 (the settlement of a paid screen).
 */
export interface StoredTransferCheck {
  readonly checkId: string;
  readonly txHash: string;
  /** The channel it was requested and read on: V2 (GET /v2/transfer/{id}/result) or x402 (the free GET /check-transfer-result/{id}). */
  readonly served: 'v2' | 'x402';
  readonly status: number;
  readonly events: readonly { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[];
  readonly body: Record<string, unknown>;
}

export const STORED_TRANSFER_CHECKS: {
  readonly ownerId: string;
  readonly keyId: string;
  readonly checks: readonly StoredTransferCheck[];
} = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'transfer-checks-v1.json'), 'utf8'));

export const transferCheckCompletedOf = (check: StoredTransferCheck) => check.events.find((e) => e.type === 'TransferCheckCompleted');
