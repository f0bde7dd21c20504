import type { PolicyRule } from '../../domain/kyt/policy.types.js';
import { policyBookDecider, type PolicyBookCommand, type PolicyBookState } from '../../domain/policies/policy-book.decider.js';
import { policyBookStream, STANDARD_POLICY_ID } from '../../domain/policies/policy-book.events.js';
import type { Position } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { CaseViewer } from '../alert-cases.commands.js';
import type { CommandDeps } from '../command-deps.js';

/**
 * KYT policies, per subgroup, for its members: read and changed on the subgroup's policy stream, so a
 * change made a moment ago is seen at once. Anyone outside the subgroup is told the policy does not exist.
 */

/** The subgroup a request acts on: the one it names (a member's), else the caller's first, as transfer checks do. */
export function subgroupFor(viewer: CaseViewer, requested: string | undefined): string {
  if (requested !== undefined) {
    const id = requested.toLowerCase();
    if (!viewer.subgroupIds.includes(id)) throw fail('not_found', 'no such subgroup');
    return id;
  }
  const first = viewer.subgroupIds[0];
  if (!first) throw fail('kyt_requires_subgroup', 'policies belong to a subgroup: this key belongs to a user without one');
  return first;
}

export async function policyBookOf(deps: CommandDeps, subgroupId: string): Promise<PolicyBookState> {
  return (await deps.executor.load(policyBookStream(subgroupId), policyBookDecider)).state;
}

/**
 * The subgroup holding a policy among the viewer's: `standard` is every subgroup's (the one requested, or
 * the first); another id is found in the books of the viewer's subgroups, else not_found.
 */
export async function locatePolicy(
  deps: CommandDeps,
  viewer: CaseViewer,
  policyId: string,
  requested: string | undefined,
): Promise<{ subgroupId: string; book: PolicyBookState }> {
  if (policyId === STANDARD_POLICY_ID || requested !== undefined) {
    const subgroupId = subgroupFor(viewer, requested);
    const book = await policyBookOf(deps, subgroupId);
    if (policyId !== STANDARD_POLICY_ID && !book.policies.some((p) => p.policyId === policyId)) throw fail('not_found', 'no such policy');
    return { subgroupId, book };
  }
  for (const subgroupId of viewer.subgroupIds) {
    const book = await policyBookOf(deps, subgroupId);
    if (book.policies.some((p) => p.policyId === policyId)) return { subgroupId, book };
  }
  throw fail('not_found', 'no such policy');
}

export interface PolicyChangeInput {
  readonly name?: string;
  readonly rules?: readonly PolicyRule[];
  readonly reason: string;
}

/** A command without what every change gets here (the subgroup, the caller, the time). */
type Change = PolicyBookCommand extends infer C ? (C extends unknown ? Omit<C, 'subgroupId' | 'by' | 'at'> : never) : never;

async function change(deps: CommandDeps, viewer: CaseViewer, subgroupId: string, command: Change): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    policyBookStream(subgroupId),
    policyBookDecider,
    { ...command, subgroupId, by: viewer.actor, at: deps.clock.now().toISOString() } as PolicyBookCommand,
    { commandId: `policy-change:${deps.ids.newId()}` },
  );
  return outcome.position;
}

/** A new draft (its id returned), copied from `basedOn` (default: the standard policy) unless it brings its own rules. */
export async function createPolicyDraft(
  deps: CommandDeps,
  viewer: CaseViewer,
  subgroupId: string,
  input: PolicyChangeInput & { name: string; basedOn?: { policyId: string; version?: string } },
): Promise<{ policyId: string; position: Position | null }> {
  const policyId = deps.ids.newId();
  const position = await change(deps, viewer, subgroupId, {
    type: 'CreatePolicyDraft',
    policyId,
    name: input.name,
    reason: input.reason,
    ...(input.basedOn ? { basedOn: input.basedOn } : {}),
    ...(input.rules ? { rules: input.rules } : {}),
  });
  return { policyId, position };
}

export async function editPolicyDraft(
  deps: CommandDeps,
  viewer: CaseViewer,
  subgroupId: string,
  policyId: string,
  input: PolicyChangeInput,
): Promise<Position | null> {
  return change(deps, viewer, subgroupId, {
    type: 'EditPolicyDraft',
    policyId,
    reason: input.reason,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.rules ? { rules: input.rules } : {}),
  });
}

export async function activatePolicy(
  deps: CommandDeps,
  viewer: CaseViewer,
  subgroupId: string,
  policyId: string,
  input: { reason: string; version?: string },
): Promise<Position | null> {
  return change(deps, viewer, subgroupId, {
    type: 'ActivatePolicy',
    policyId,
    reason: input.reason,
    ...(input.version !== undefined ? { version: input.version } : {}),
  });
}
