import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { screenRecordDecider, type RecordScreenVerdict } from './screen-record.decider.js';
import { screenRecordEventSchemas, type ScreenRecordEvent, type ScreenSummary } from './screen-record.events.js';

const spec = deciderSpec(screenRecordDecider);
const T = '2026-03-10T12:00:00.000Z';
const summary: ScreenSummary = {
  risk_level: 'sanctioned',
  risk_score: 100,
  confidence: 100,
  source_count: 1,
  label: null,
  data_available: true,
  sdn_match: { list: 'US', entity: 'EXAMPLE GROUP', program: 'CYBER2', list_entry_id: '1', list_date: '2024-01-02', asset: 'ETH', source: 'ofac_sdn' },
  categories: [{ slug: 'sanctions', risk_level: 'sanctioned' }],
};
const record: RecordScreenVerdict = { type: 'RecordScreenVerdict', callId: 'c1', userId: 'u1', address: '0xabc', network: 'ETH', summary, at: T };
const recorded: ScreenRecordEvent = { type: 'ScreenVerdictRecorded', data: { callId: 'c1', userId: 'u1', address: '0xabc', network: 'ETH', summary, at: T } };

describe('light screen record decider', () => {
  it('records the verdict summary of a call', () => {
    expect(spec.given([]).when(record).then([recorded])).toEqual({ recorded: true });
  });

  it('a retried call (same call id) records nothing more', () => {
    spec.given([recorded]).when(record).thenNothingHappened();
  });

  it('the stored event validates on load', () => {
    expect(screenRecordEventSchemas.ScreenVerdictRecorded.parse(recorded.data)).toEqual(recorded.data);
  });
});
