import { z } from 'zod';
import { fail } from '../../../domain/shared/errors.js';

/** Rows one export holds at most; a longer range is cut there and says so in its file name. */
export const MAX_EXPORT_ROWS = 10_000;
const MAX_DAYS = 366;

const rangeQuery = z.object({ since: z.iso.date(), until: z.iso.date() });

/** `since` and `until` are whole UTC days, both included: [since 00:00, the day after until 00:00). */
export function exportRange(query: unknown): { since: string; until: string; label: string } {
  const parsed = rangeQuery.safeParse(query ?? {});
  if (!parsed.success) throw fail('bad_request', 'choose a first and a last day (YYYY-MM-DD)');
  const { since, until } = parsed.data;
  const start = Date.parse(`${since}T00:00:00.000Z`);
  const end = Date.parse(`${until}T00:00:00.000Z`) + 86_400_000;
  if (end <= start) throw fail('bad_request', 'the last day is before the first day');
  if (end - start > MAX_DAYS * 86_400_000) throw fail('bad_request', `an export covers at most ${MAX_DAYS} days`);
  return { since: new Date(start).toISOString(), until: new Date(end).toISOString(), label: `${since}_${until}` };
}
