import { describe, expect, it } from 'vitest';
import { changesSince, compareVerdicts, type Recomputed } from './verdict-replay.js';

const ofac = (version: string, hash: string) => ({ source: 'ofac_sdn', version, content_hash: hash, imported_at: `${version}T08:00:00Z` });
const match = {
  list: 'US' as const,
  entity: 'X',
  program: 'CYBER2',
  listEntryId: '1',
  listDate: '2026-08-20',
  asset: 'ETH',
  source: 'ofac_sdn',
};

describe('what changed since a verdict', () => {
  it('says when a later list named the subject, and which source changed, after the verdict', () => {
    const then: Recomputed = { value: {}, sources: [ofac('2026-07-01', 'a')], sanctions: [] };
    const now: Recomputed = { value: {}, sources: [ofac('2026-08-20', 'b')], sanctions: [match] };
    expect(changesSince('screen', '2026-07-01T10:00:00Z', then, now)).toEqual([
      'listed by ofac_sdn (US sanctions) on 2026-08-20, after your screen of 2026-07-01',
      'ofac_sdn changed from version 2026-07-01 to 2026-08-20 (imported 2026-08-20), after your screen of 2026-07-01',
    ]);
    expect(changesSince('full_check', '2026-07-01T10:00:00Z', then, then)).toEqual([]);
  });

  it('answers identical only when nothing differs, and counts every difference', () => {
    expect(compareVerdicts({ a: 1 }, { a: 1 })).toEqual({ identical: true, differences: [], differenceCount: 0 });
    const many = compareVerdicts({ l: Array.from({ length: 250 }, () => 0) }, { l: Array.from({ length: 250 }, () => 1) });
    expect(many).toMatchObject({ identical: false, differenceCount: 250 });
    expect(many.differences).toHaveLength(200);
  });
});
