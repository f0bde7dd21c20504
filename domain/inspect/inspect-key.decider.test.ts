import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { boundCheck, inspectKeyDecider, type InspectKeyEvent } from './inspect-key.decider.js';

const spec = deciderSpec(inspectKeyDecider);
const T = '2026-03-10T12:00:00.000Z';
const DAY_LATER = '2026-03-11T12:00:00.000Z';
const bound: InspectKeyEvent = { type: 'InspectKeyBound', data: { checkId: 'c1', requestHash: 'h1', at: T } };

describe('inspect key binding', () => {
  it('binds a free key to the proposed check', () => {
    const state = spec.given([]).when({ type: 'BindInspectKey', checkId: 'c1', requestHash: 'h1', at: T }).then([bound]);
    expect(boundCheck(state, 'h1', T)).toBe('c1');
  });

  it('a bound key keeps its check for the same request, and refuses another request with a conflict', () => {
    spec.given([bound]).when({ type: 'BindInspectKey', checkId: 'c2', requestHash: 'h1', at: T }).thenNothingHappened();
    spec.given([bound]).when({ type: 'BindInspectKey', checkId: 'c2', requestHash: 'h2', at: T }).thenThrows('idempotency_conflict');
  });

  it('after 24 h the key is free again', () => {
    const state = spec
      .given([bound])
      .when({ type: 'BindInspectKey', checkId: 'c2', requestHash: 'h2', at: DAY_LATER })
      .then([{ type: 'InspectKeyBound', data: { checkId: 'c2', requestHash: 'h2', at: DAY_LATER } }]);
    expect(state.binding?.checkId).toBe('c2');
    expect(boundCheck({ binding: bound.data }, 'h9', DAY_LATER)).toBeNull();
  });
});
