import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { kytSettingsDecider, type KytSettingsEvent } from './kyt-settings.decider.js';

const spec = deciderSpec(kytSettingsDecider);
const AT = '2026-11-20T10:00:00.000Z';
const set = (level: 'Low' | 'Medium' | 'High' | 'Severe') => ({
  type: 'SetAlertMinLevel' as const,
  subgroupId: 'subgroup-1',
  level,
  at: AT,
});
const setTo = (level: 'Low' | 'Medium' | 'High' | 'Severe'): KytSettingsEvent => ({
  type: 'AlertMinLevelSet',
  data: { subgroupId: 'subgroup-1', level, at: AT },
});

describe("a subgroup's transfer-alert floor", () => {
  it('is Medium until set', () => {
    expect(kytSettingsDecider.initialState().alertMinLevel).toBe('Medium');
    spec.given([]).when(set('Medium')).thenNothingHappened();
  });

  it('records a change once; setting the same level again decides nothing', () => {
    expect(
      spec
        .given([])
        .when(set('High'))
        .then([setTo('High')]).alertMinLevel,
    ).toBe('High');
    spec
      .given([setTo('High')])
      .when(set('High'))
      .thenNothingHappened();
    expect(
      spec
        .given([setTo('High')])
        .when(set('Low'))
        .then([setTo('Low')]).alertMinLevel,
    ).toBe('Low');
  });
});
