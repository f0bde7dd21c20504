import { present } from '../domain/shared/present.js';
import { accountDecider } from '../domain/accounts/account.decider.js';
import { accountStream } from '../domain/accounts/account.events.js';
import { alertCaseDecider, type AlertCaseState } from '../domain/alerts/alert-case.decider.js';
import { alertCaseStream, caseAlertSchema, type CaseActor, type CaseStatus, type CloseReason } from '../domain/alerts/alert-case.events.js';
import { transferCheckDecider } from '../domain/kyt/transfer-check.decider.js';
import { transferCheckStream, type TransferCheckEvent } from '../domain/kyt/transfer-check.events.js';

type TransferCheckReevaluatedData = Extract<TransferCheckEvent, { type: 'TransferCheckReevaluated' }>['data'];
import type { Position } from '../domain/ports/event-store.port.js';
import { fail } from '../domain/shared/errors.js';
import type { CommandDeps } from './command-deps.js';

/**
 * Alert cases: opened from a completed transfer check, then triaged by the members of the check's
 * subgroup. Access is decided from the streams themselves (the user's account, the case), so a
 * change made a moment ago is seen at once; anyone outside the subgroup is told the case does not exist.
 */

/** The case id of the `index`-th alert of a check: the same check and index always give the same id. */
export const alertIdOf = (deps: Pick<CommandDeps, 'ids'>, checkId: string, index: number): string =>
  deps.ids.eventId(`alert-case:${checkId}`, index);

/**
 * Opens one case per alert of a completed V2 transfer check (x402 checks belong to no subgroup). Safe to
 * repeat: an open case decides nothing. Returns the ids of the check's cases.
 */
export async function openAlertCasesOf(deps: CommandDeps, checkId: string): Promise<string[]> {
  const { state } = await deps.executor.load(transferCheckStream(checkId), transferCheckDecider);
  const request = state.request;
  if (state.status !== 'completed' || !state.verdict || request?.requester.channel !== 'v2') return [];
  const checkedAt = state.verdict.checkedAt;
  const ids: string[] = [];
  for (const [index, raw] of state.verdict.policy.alerts.entries()) {
    const alert = caseAlertSchema.safeParse(raw);
    if (!alert.success) continue;
    const alertId = alertIdOf(deps, checkId, index);
    await deps.executor.execute(
      alertCaseStream(alertId),
      alertCaseDecider,
      {
        type: 'OpenAlertCase',
        alertId,
        checkId,
        alertIndex: index,
        subgroupId: request.requester.subgroupId,
        chain: request.chain,
        txHash: request.txHash,
        alert: alert.data,
        checkedAt,
        at: deps.clock.now().toISOString(),
      },
      { commandId: `open-alert-case:${alertId}` },
    );
    ids.push(alertId);
  }
  return ids;
}

/**
 * Opens one case per alert a re-evaluation of a check raised (retroactive exposure), numbered after the
 * check's earlier alerts and marked with the change behind them. Safe to repeat, as above.
 */
export async function openRetroactiveCasesOf(deps: CommandDeps, reevaluated: TransferCheckReevaluatedData): Promise<string[]> {
  const { state } = await deps.executor.load(transferCheckStream(reevaluated.checkId), transferCheckDecider);
  const request = state.request;
  if (state.status !== 'completed' || !state.verdict || request?.requester.channel !== 'v2') return [];
  const checkedAt = state.verdict.checkedAt;
  const ids: string[] = [];
  for (const [k, raw] of reevaluated.alerts.entries()) {
    const alert = caseAlertSchema.safeParse(raw);
    if (!alert.success) continue;
    const index = reevaluated.firstAlertIndex + k;
    const alertId = alertIdOf(deps, reevaluated.checkId, index);
    await deps.executor.execute(
      alertCaseStream(alertId),
      alertCaseDecider,
      {
        type: 'OpenAlertCase',
        alertId,
        checkId: reevaluated.checkId,
        alertIndex: index,
        subgroupId: request.requester.subgroupId,
        chain: request.chain,
        txHash: request.txHash,
        alert: alert.data,
        checkedAt,
        retroactive: { changeKey: reevaluated.changeKey, reasons: reevaluated.reasons },
        at: deps.clock.now().toISOString(),
      },
      { commandId: `open-alert-case:${alertId}` },
    );
    ids.push(alertId);
  }
  return ids;
}

/** A user acting on cases: who they are and the subgroups whose cases they see. */
export interface CaseViewer {
  readonly actor: CaseActor;
  readonly subgroupIds: readonly string[];
}

export async function caseViewerOf(deps: CommandDeps, userId: string): Promise<CaseViewer> {
  const { state } = await deps.executor.load(accountStream(userId), accountDecider);
  if (!state.opened) throw fail('not_found', 'no such account');
  return { actor: { userId, email: state.email ?? '' }, subgroupIds: state.memberships.map((m) => m.subgroupId) };
}

/** The case, if the viewer belongs to its subgroup; otherwise not_found (no hint that it exists). */
export async function loadAlertCase(deps: CommandDeps, viewer: CaseViewer, alertId: string): Promise<AlertCaseState> {
  const { state } = await deps.executor.load(alertCaseStream(alertId), alertCaseDecider);
  if (!state.opened || !viewer.subgroupIds.includes(state.opened.subgroupId)) throw fail('not_found', 'no such alert');
  return state;
}

export interface TriageInput {
  readonly status?: CaseStatus;
  readonly reason?: CloseReason;
  readonly note?: string;
  /** A user id to assign, null to unassign. */
  readonly assignee?: string | null;
}

/** Changes a case's status and/or assignee; returns where the change was appended (null: nothing changed). */
export async function triageAlertCase(
  deps: CommandDeps,
  viewer: CaseViewer,
  alertId: string,
  input: TriageInput,
): Promise<Position | null> {
  const state = await loadAlertCase(deps, viewer, alertId);
  let assignee: { actor: CaseActor; isMember: boolean } | null | undefined;
  if (input.assignee === null) assignee = null;
  else if (input.assignee !== undefined) {
    const { state: account } = await deps.executor.load(accountStream(input.assignee), accountDecider);
    assignee = {
      actor: { userId: input.assignee, email: account.email ?? '' },
      isMember:
        account.opened &&
        account.memberships.some((m) => m.subgroupId === present(state.opened, 'loadAlertCase answers opened cases only').subgroupId),
    };
  }
  const outcome = await deps.executor.execute(
    alertCaseStream(alertId),
    alertCaseDecider,
    {
      type: 'TriageAlertCase',
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      ...(input.note !== undefined ? { note: input.note } : {}),
      ...(assignee !== undefined ? { assignee } : {}),
      by: viewer.actor,
      at: deps.clock.now().toISOString(),
    },
    { commandId: `triage-alert-case:${deps.ids.newId()}` },
  );
  return outcome.position;
}

export async function commentOnAlertCase(
  deps: CommandDeps,
  viewer: CaseViewer,
  alertId: string,
  text: string,
): Promise<{ commentId: string; position: Position | null }> {
  await loadAlertCase(deps, viewer, alertId);
  const commentId = deps.ids.newId();
  const outcome = await deps.executor.execute(
    alertCaseStream(alertId),
    alertCaseDecider,
    { type: 'CommentOnAlertCase', commentId, text, by: viewer.actor, at: deps.clock.now().toISOString() },
    { commandId: `comment-alert-case:${commentId}` },
  );
  return { commentId, position: outcome.position };
}
