import { describe, expect, it } from 'vitest';
import { changeReasonWords } from '../webhooks/change-reason-words.js';
import type { ChangeReason } from './change-reason.js';
import { changeReasonsAsStored, type ChangeReasonV1 } from './change-reason.upcast.js';

const T0 = '2026-11-21T10:00:00.000Z';
const words: ChangeReasonV1[] = [
  { source: 'made_up_list', change: 'dataset_imported', version: '2026-11-21', changed_at: T0 },
  { source: 'monitor', change: 'monitor_resumed', version: null, changed_at: T0 },
];
const facts: ChangeReason[] = [
  { source: 'made_up_list', change: 'dataset_imported', version: '2026-11-21', changedAt: T0 },
  { source: 'monitor', change: 'monitor_resumed', version: null, changedAt: T0 },
];

describe('change reasons stored before they were domain facts', () => {
  it('read as the facts they state; facts read as they are', () => {
    expect(changeReasonsAsStored(words)).toEqual(facts);
    expect(changeReasonsAsStored(facts)).toEqual(facts);
    expect(changeReasonsAsStored([])).toEqual([]);
  });

  it('go back to the words they were recorded in, byte for byte', () => {
    expect(JSON.stringify(changeReasonsAsStored(words).map(changeReasonWords))).toBe(JSON.stringify(words));
  });
});
