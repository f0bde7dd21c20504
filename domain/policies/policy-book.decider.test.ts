import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { STANDARD_POLICY } from '../kyt/standard-policy.js';
import type { PolicyRule } from '../kyt/policy.types.js';
import { activePolicyOf, initialPolicyBookState, policyBookDecider, type PolicyBookCommand } from './policy-book.decider.js';
import type { PolicyBookEvent } from './policy-book.events.js';

const spec = deciderSpec(policyBookDecider);
const AT = '2026-11-28T05:00:00.000Z';
const by = { userId: 'user-1', email: 'analyst@example.test' };
const change = { subgroupId: 'subgroup-1', policyId: 'policy-1', by, reason: 'lower the mixer threshold', at: AT };
const standardRules = STANDARD_POLICY.rules;
const tuned: PolicyRule[] = standardRules.map((rule) => (rule.id === 'I3' ? { ...rule, minSharePercent: 2 } : rule));

const create = (extra: Partial<Extract<PolicyBookCommand, { type: 'CreatePolicyDraft' }>> = {}): PolicyBookCommand => ({
  type: 'CreatePolicyDraft',
  ...change,
  name: 'Tuned',
  ...extra,
});
const created: PolicyBookEvent = {
  type: 'PolicyDraftCreated',
  data: { ...change, name: 'Tuned', basedOn: { policyId: 'standard', version: STANDARD_POLICY.version }, rules: [...standardRules] },
};
const edited: PolicyBookEvent = { type: 'PolicyDraftEdited', data: { ...change, name: 'Tuned', rules: tuned } };
const activated: PolicyBookEvent = { type: 'PolicyActivated', data: { ...change, version: '1', name: 'Tuned', rules: tuned } };

describe("a subgroup's KYT policies", () => {
  it('apply the standard policy until something is activated', () => {
    expect(activePolicyOf(initialPolicyBookState())).toEqual({ policyId: 'standard', policy: STANDARD_POLICY });
    const state = spec
      .given([created, edited])
      .when({ type: 'EditPolicyDraft', ...change, name: 'Tuned' })
      .then([{ type: 'PolicyDraftEdited', data: { ...change, name: 'Tuned', rules: tuned } }]);
    expect(activePolicyOf(state).policy).toBe(STANDARD_POLICY);
  });

  it('create a draft from the standard policy by default, recording who and why; a repeated create decides nothing', () => {
    spec.given([]).when(create()).then([created]);
    spec.given([created]).when(create()).thenNothingHappened();
  });

  it('refuse a change without a reason, a bad name, an unknown category, a threshold out of range, a duplicate rule id', () => {
    spec
      .given([])
      .when(create({ reason: '  ' }))
      .thenThrows('validation_error', { field: 'reason' });
    spec
      .given([])
      .when(create({ name: 'standard' }))
      .thenThrows('validation_error', { field: 'name' });
    spec
      .given([])
      .when(create({ name: '' }))
      .thenThrows('validation_error', { field: 'name' });
    const rule = standardRules[0]!;
    spec
      .given([])
      .when(create({ rules: [{ ...rule, categories: { slugs: ['not_a_category'] } }] }))
      .thenThrows('validation_error', { field: 'rules.0.categories.slugs.0' });
    spec
      .given([])
      .when(create({ rules: [{ ...rule, minSharePercent: 101 }] }))
      .thenThrows('validation_error', { field: 'rules.0.min_share_percent' });
    spec
      .given([])
      .when(create({ rules: [{ ...rule, minUsd: -1 }] }))
      .thenThrows('validation_error', { field: 'rules.0.min_usd' });
    spec
      .given([])
      .when(create({ rules: [rule, rule] }))
      .thenThrows('validation_error', { field: 'rules.1.id' });
    spec
      .given([])
      .when(create({ rules: [] }))
      .thenThrows('validation_error', { field: 'rules' });
    spec
      .given([])
      .when(create({ basedOn: { policyId: 'standard', version: 'old' } }))
      .thenThrows('validation_error', { field: 'based_on' });
  });

  it('activate a draft as version 1, which transfer checks then apply', () => {
    const state = spec
      .given([created, edited])
      .when({ type: 'ActivatePolicy', ...change })
      .then([activated]);
    expect(activePolicyOf(state)).toEqual({
      policyId: 'policy-1',
      policy: { name: 'Tuned', version: '1', taxonomyVersion: STANDARD_POLICY.taxonomyVersion, rules: tuned },
    });
    expect(state.policies[0]?.draft).toBeNull();
  });

  it('edit an active policy as a new draft; the active version stays until the next activation', () => {
    const state = spec
      .given([created, activated])
      .when({ type: 'EditPolicyDraft', ...change, rules: standardRules })
      .then([{ type: 'PolicyDraftEdited', data: { ...change, name: 'Tuned', rules: [...standardRules] } }]);
    expect(activePolicyOf(state).policy.version).toBe('1');
    spec
      .given([created, activated, { type: 'PolicyDraftEdited', data: { ...change, name: 'Tuned', rules: [...standardRules] } }])
      .when({ type: 'ActivatePolicy', ...change })
      .then([{ type: 'PolicyActivated', data: { ...change, version: '2', name: 'Tuned', rules: [...standardRules] } }]);
  });

  it('roll back to the standard policy or an earlier version; activating what is active decides nothing', () => {
    const back = { ...change, policyId: 'standard' };
    const state = spec
      .given([created, activated])
      .when({ type: 'ActivatePolicy', ...back })
      .then([{ type: 'PolicyActivated', data: { ...back, version: STANDARD_POLICY.version, name: 'standard' } }]);
    expect(activePolicyOf(state).policyId).toBe('standard');
    spec
      .given([created, activated])
      .when({ type: 'ActivatePolicy', ...change, version: '1' })
      .thenNothingHappened();
    spec
      .given([])
      .when({ type: 'ActivatePolicy', ...back })
      .thenNothingHappened();
  });

  it('refuse to activate a policy without a draft or version, or an unknown policy or version', () => {
    spec
      .given([created, activated])
      .when({ type: 'ActivatePolicy', ...change })
      .thenThrows('validation_error', { field: 'version' });
    spec
      .given([created])
      .when({ type: 'ActivatePolicy', ...change, version: '7' })
      .thenThrows('validation_error', { field: 'version' });
    spec
      .given([])
      .when({ type: 'ActivatePolicy', ...change })
      .thenThrows('not_found');
    spec
      .given([])
      .when({ type: 'EditPolicyDraft', ...change })
      .thenThrows('not_found');
  });
});
