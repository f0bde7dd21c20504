import { present } from '../shared/present.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import {
  alertCaseEventSchemas,
  MAX_COMMENTS_PER_CASE,
  MAX_NOTE_LENGTH,
  type AlertCaseEvent,
  type AlertCaseOpenedData,
  type CaseActor,
  type CaseStatus,
  type CloseReason,
} from './alert-case.events.js';

/**
 * One alert as a case: opened once from the transfer check that raised it (a repeated open decides
 * nothing, so redelivery is harmless), then triaged. Closing needs a reason (flagged, dismissed, other)
 * and a note; reopening a closed case needs a note saying why. The assignee must be a member of the
 * case's subgroup: the command says whether the handler found them to be one (membership is outside
 * this stream). Every change is its own event naming who and when: the stream is the audit trail.
 */
export type AlertCaseCommand =
  | ({ type: 'OpenAlertCase' } & AlertCaseOpenedData)
  | {
      type: 'TriageAlertCase';
      status?: CaseStatus;
      reason?: CloseReason;
      note?: string;
      /** null unassigns; absent leaves the assignee as is. */
      assignee?: { actor: CaseActor; isMember: boolean } | null;
      by: CaseActor;
      at: string;
    }
  | { type: 'CommentOnAlertCase'; commentId: string; text: string; by: CaseActor; at: string };

export interface AlertCaseState {
  readonly opened: AlertCaseOpenedData | null;
  readonly status: CaseStatus;
  readonly assignee: CaseActor | null;
  readonly commentIds: readonly string[];
}

export const initialAlertCaseState = (): AlertCaseState => ({ opened: null, status: 'open', assignee: null, commentIds: [] });

/** A refusal naming the field at fault (the routes report it in the 422's detail[]). */
function refuse(message: string, field: string): never {
  throw fail('validation_error', message, { field });
}

function cleanText(text: string | undefined, what: string): string | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (trimmed.length === 0) return null;
  if (trimmed.length > MAX_NOTE_LENGTH)
    refuse(`the ${what} is longer than ${MAX_NOTE_LENGTH} characters`, what === 'note' ? 'note' : 'text');
  return trimmed;
}

function statusChange(
  command: Extract<AlertCaseCommand, { type: 'TriageAlertCase' }>,
  state: AlertCaseState,
  alertId: string,
): AlertCaseEvent[] {
  const note = cleanText(command.note, 'note');
  const to = command.status;
  if (to === undefined || to === state.status) {
    if (command.reason !== undefined) refuse('a reason goes with closing the case (status closed)', 'reason');
    if (note !== null && to === undefined) refuse('a note goes with a change of status; add a comment instead', 'note');
    return [];
  }
  if (to === 'closed') {
    if (command.reason === undefined) refuse('closing a case needs a reason: flagged, dismissed or other', 'reason');
    if (note === null) refuse('closing a case needs a note', 'note');
  } else {
    if (command.reason !== undefined) refuse('a reason goes with closing the case (status closed)', 'reason');
    if (state.status === 'closed' && note === null) refuse('reopening a closed case needs a note', 'note');
  }
  return [
    {
      type: 'AlertCaseStatusChanged',
      data: {
        alertId,
        from: state.status,
        to,
        reason: to === 'closed' ? present(command.reason, 'a close without a reason was refused above') : null,
        note,
        by: command.by,
        at: command.at,
      },
    },
  ];
}

function assignment(
  command: Extract<AlertCaseCommand, { type: 'TriageAlertCase' }>,
  state: AlertCaseState,
  alertId: string,
): AlertCaseEvent[] {
  if (command.assignee === undefined) return [];
  if (command.assignee === null) {
    return state.assignee === null
      ? []
      : [{ type: 'AlertCaseAssigned', data: { alertId, from: state.assignee, to: null, by: command.by, at: command.at } }];
  }
  if (!command.assignee.isMember) refuse('the assignee must be a member of the alert’s subgroup', 'assignee');
  if (state.assignee?.userId === command.assignee.actor.userId) return [];
  return [
    { type: 'AlertCaseAssigned', data: { alertId, from: state.assignee, to: command.assignee.actor, by: command.by, at: command.at } },
  ];
}

export function decideAlertCase(command: AlertCaseCommand, state: AlertCaseState): AlertCaseEvent[] {
  if (command.type === 'OpenAlertCase') {
    if (state.opened) return [];
    const { type: _type, ...data } = command;
    return [{ type: 'AlertCaseOpened', data }];
  }
  const opened = state.opened;
  if (!opened) throw fail('not_found', 'no such alert');
  if (command.type === 'CommentOnAlertCase') {
    if (state.commentIds.includes(command.commentId)) return [];
    const text = cleanText(command.text, 'comment') ?? refuse('the comment is empty', 'text');
    if (state.commentIds.length >= MAX_COMMENTS_PER_CASE) refuse(`a case holds at most ${MAX_COMMENTS_PER_CASE} comments`, 'text');
    return [
      { type: 'AlertCaseCommented', data: { alertId: opened.alertId, commentId: command.commentId, text, by: command.by, at: command.at } },
    ];
  }
  // Assignment first: "take it and start the review" reads in that order in the audit trail.
  return [...assignment(command, state, opened.alertId), ...statusChange(command, state, opened.alertId)];
}

export function evolveAlertCase(state: AlertCaseState, event: AlertCaseEvent): AlertCaseState {
  switch (event.type) {
    case 'AlertCaseOpened':
      return { ...state, opened: event.data };
    case 'AlertCaseStatusChanged':
      return { ...state, status: event.data.to };
    case 'AlertCaseAssigned':
      return { ...state, assignee: event.data.to };
    case 'AlertCaseCommented':
      return { ...state, commentIds: [...state.commentIds, event.data.commentId] };
  }
}

export const alertCaseDecider: Decider<AlertCaseCommand, AlertCaseEvent, AlertCaseState> = {
  decide: decideAlertCase,
  evolve: evolveAlertCase,
  initialState: initialAlertCaseState,
  parse: parserFor<AlertCaseEvent>(alertCaseEventSchemas),
};
