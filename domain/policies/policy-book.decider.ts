import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { TAXONOMY } from '../intel/taxonomy.js';
import { STANDARD_POLICY } from '../kyt/standard-policy.js';
import type { Policy, PolicyRule } from '../kyt/policy.types.js';
import { policyBookEventSchemas, STANDARD_POLICY_ID, type PolicyActor, type PolicyBookEvent } from './policy-book.events.js';
import { MAX_NAME_LENGTH, MAX_REASON_LENGTH, validateRules } from './policy-rules.js';

/**
 * A subgroup's KYT policies. A policy is a versioned list of rules: a draft is edited freely, activating
 * it freezes it as the next version (1, 2, …) and makes it the one transfer checks apply. Any version,
 * or the standard policy, can be activated again (a rollback). Every change names who made it and why.
 * A subgroup that never changes anything has no events and applies the standard policy.
 */
export const MAX_POLICIES = 50;
export const MAX_VERSIONS = 500;

export interface PolicyVersion {
  readonly version: string;
  readonly name: string;
  readonly rules: readonly PolicyRule[];
  readonly at: string;
}

export interface SubgroupPolicy {
  readonly policyId: string;
  readonly basedOn: { readonly policyId: string; readonly version: string };
  readonly draft: { readonly name: string; readonly rules: readonly PolicyRule[]; readonly at: string } | null;
  readonly versions: readonly PolicyVersion[];
}

export interface PolicyBookState {
  readonly policies: readonly SubgroupPolicy[];
  /** null: the standard policy, never changed. */
  readonly active: { readonly policyId: string; readonly version: string } | null;
}

interface Change {
  readonly subgroupId: string;
  readonly policyId: string;
  readonly by: PolicyActor;
  readonly reason: string;
  readonly at: string;
}

export type PolicyBookCommand =
  | (Change & {
      type: 'CreatePolicyDraft';
      name: string;
      /** Default: the standard policy. `version` default: the latest. */
      basedOn?: { policyId: string; version?: string };
      /** Default: the rules of `basedOn`. */
      rules?: readonly PolicyRule[];
    })
  | (Change & { type: 'EditPolicyDraft'; name?: string; rules?: readonly PolicyRule[] })
  | (Change & { type: 'ActivatePolicy'; version?: string });

export const initialPolicyBookState = (): PolicyBookState => ({ policies: [], active: null });

const STANDARD_VERSION: PolicyVersion = {
  version: STANDARD_POLICY.version,
  name: STANDARD_POLICY.name,
  rules: STANDARD_POLICY.rules,
  at: '',
};

/** The refusals name their field, as the routes report them (422 detail[]). */
function refuse(message: string, field: string): never {
  throw fail('validation_error', message, { field });
}

export const policyOf = (state: PolicyBookState, policyId: string): SubgroupPolicy | null =>
  state.policies.find((p) => p.policyId === policyId) ?? null;

/** A version of a policy of this subgroup (or of the standard policy); `version` absent: the latest. */
export function versionOf(state: PolicyBookState, policyId: string, version?: string): PolicyVersion | null {
  if (policyId === STANDARD_POLICY_ID) return version === undefined || version === STANDARD_VERSION.version ? STANDARD_VERSION : null;
  const versions = policyOf(state, policyId)?.versions ?? [];
  return (version === undefined ? versions.at(-1) : versions.find((v) => v.version === version)) ?? null;
}

/** The policy a transfer check of this subgroup applies now, with the id it is recorded under. */
export function activePolicyOf(state: PolicyBookState): { policyId: string; policy: Policy } {
  const active = state.active;
  const found = active ? versionOf(state, active.policyId, active.version) : null;
  if (!active || !found || active.policyId === STANDARD_POLICY_ID) return { policyId: STANDARD_POLICY_ID, policy: STANDARD_POLICY };
  return {
    policyId: active.policyId,
    policy: { name: found.name, version: found.version, taxonomyVersion: TAXONOMY.version, rules: found.rules },
  };
}

function checkChange(command: Change & { name?: string }): void {
  const reason = command.reason.trim();
  if (reason.length === 0) refuse('every change to a policy says why (reason)', 'reason');
  if (reason.length > MAX_REASON_LENGTH) refuse(`the reason is at most ${MAX_REASON_LENGTH} characters`, 'reason');
  if (command.name !== undefined) {
    const name = command.name.trim();
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) refuse(`a policy's name is 1 to ${MAX_NAME_LENGTH} characters`, 'name');
    if (name.toLowerCase() === STANDARD_POLICY.name) refuse(`the name ${STANDARD_POLICY.name} is the standard policy's`, 'name');
  }
}

function checkRules(rules: readonly PolicyRule[]): void {
  const issue = validateRules(rules, TAXONOMY)[0];
  if (issue) refuse(issue.message, issue.field);
}

const changeOf = (command: Change) => ({
  subgroupId: command.subgroupId,
  policyId: command.policyId,
  by: command.by,
  reason: command.reason.trim(),
  at: command.at,
});

function create(command: Extract<PolicyBookCommand, { type: 'CreatePolicyDraft' }>, state: PolicyBookState): PolicyBookEvent[] {
  if (policyOf(state, command.policyId)) return [];
  checkChange(command);
  if (state.policies.length >= MAX_POLICIES) refuse(`a subgroup keeps at most ${MAX_POLICIES} policies`, 'name');
  const basedOnId = command.basedOn?.policyId ?? STANDARD_POLICY_ID;
  const base = versionOf(state, basedOnId, command.basedOn?.version);
  if (!base) refuse('based_on names no version of a policy of this subgroup', 'based_on');
  const rules = command.rules ?? base.rules;
  checkRules(rules);
  return [
    {
      type: 'PolicyDraftCreated',
      data: { ...changeOf(command), name: command.name.trim(), basedOn: { policyId: basedOnId, version: base.version }, rules: [...rules] },
    },
  ];
}

function edit(command: Extract<PolicyBookCommand, { type: 'EditPolicyDraft' }>, state: PolicyBookState): PolicyBookEvent[] {
  const policy = policyOf(state, command.policyId);
  if (!policy) throw fail('not_found', 'no such policy');
  checkChange(command);
  const current = policy.draft ?? policy.versions.at(-1);
  if (!current) throw fail('not_found', 'no such policy');
  const rules = command.rules ?? current.rules;
  checkRules(rules);
  const name = command.name?.trim() ?? current.name;
  return [{ type: 'PolicyDraftEdited', data: { ...changeOf(command), name, rules: [...rules] } }];
}

function activate(command: Extract<PolicyBookCommand, { type: 'ActivatePolicy' }>, state: PolicyBookState): PolicyBookEvent[] {
  checkChange(command);
  const policy = policyOf(state, command.policyId);
  if (command.policyId !== STANDARD_POLICY_ID && !policy) throw fail('not_found', 'no such policy');
  if (command.version === undefined && policy?.draft) {
    if (policy.versions.length >= MAX_VERSIONS) refuse(`a policy keeps at most ${MAX_VERSIONS} versions`, 'version');
    const version = String(policy.versions.length + 1);
    const { name, rules } = policy.draft;
    return [{ type: 'PolicyActivated', data: { ...changeOf(command), version, name, rules: [...rules] } }];
  }
  if (command.version === undefined && command.policyId !== STANDARD_POLICY_ID)
    refuse('the policy has no draft: name the version to activate again', 'version');
  const found = versionOf(state, command.policyId, command.version);
  if (!found) refuse('no such version of the policy', 'version');
  const active = activePolicyOf(state);
  if (active.policyId === command.policyId && active.policy.version === found.version) return [];
  return [{ type: 'PolicyActivated', data: { ...changeOf(command), version: found.version, name: found.name } }];
}

export function decidePolicyBook(command: PolicyBookCommand, state: PolicyBookState): PolicyBookEvent[] {
  switch (command.type) {
    case 'CreatePolicyDraft':
      return create(command, state);
    case 'EditPolicyDraft':
      return edit(command, state);
    case 'ActivatePolicy':
      return activate(command, state);
  }
}

const withPolicy = (state: PolicyBookState, policyId: string, update: (p: SubgroupPolicy) => SubgroupPolicy): PolicyBookState => ({
  ...state,
  policies: state.policies.map((p) => (p.policyId === policyId ? update(p) : p)),
});

export function evolvePolicyBook(state: PolicyBookState, event: PolicyBookEvent): PolicyBookState {
  switch (event.type) {
    case 'PolicyDraftCreated': {
      const { policyId, basedOn, name, rules, at } = event.data;
      return { ...state, policies: [...state.policies, { policyId, basedOn, draft: { name, rules, at }, versions: [] }] };
    }
    case 'PolicyDraftEdited': {
      const { name, rules, at } = event.data;
      return withPolicy(state, event.data.policyId, (p) => ({ ...p, draft: { name, rules, at } }));
    }
    case 'PolicyActivated': {
      const { policyId, version, name, rules, at } = event.data;
      const frozen = rules
        ? withPolicy(state, policyId, (p) => ({ ...p, draft: null, versions: [...p.versions, { version, name, rules, at }] }))
        : state;
      return { ...frozen, active: { policyId, version } };
    }
  }
}

export const policyBookDecider: Decider<PolicyBookCommand, PolicyBookEvent, PolicyBookState> = {
  decide: decidePolicyBook,
  evolve: evolvePolicyBook,
  initialState: initialPolicyBookState,
  parse: parserFor<PolicyBookEvent>(policyBookEventSchemas),
};
