import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { alertCaseDecider, type AlertCaseCommand } from './alert-case.decider.js';
import type { AlertCaseEvent, AlertCaseOpenedData, CaseActor } from './alert-case.events.js';

const spec = deciderSpec(alertCaseDecider);

const ALERT = '0193a000-0000-7000-8000-0000000000a1';
const T0 = '2026-11-20T10:00:00.000Z';
const T1 = '2026-11-20T11:00:00.000Z';
const ANA: CaseActor = { userId: 'user-ana', email: 'ana@example.test' };
const BEN: CaseActor = { userId: 'user-ben', email: 'ben@example.test' };

const openedData: AlertCaseOpenedData = {
  alertId: ALERT,
  checkId: '0193a000-0000-7000-8000-000000000001',
  alertIndex: 0,
  subgroupId: 'subgroup-1',
  chain: 'ETH',
  txHash: `0x${'ab'.repeat(32)}`,
  alert: {
    category: 'Sanctioned entity / address',
    riskLevel: 'Severe',
    ruleType: 'Direct exposure',
    actualShare: 100,
    thresholdShare: 0,
    thresholdValue: 0,
    entityName: 'LAZARUS GROUP',
    entityAddress: '0x00000000000000000000000000000000000000a1',
    direction: 'incoming',
    entityScore: 0,
  },
  checkedAt: T0,
  at: T0,
};
const opened: AlertCaseEvent = { type: 'AlertCaseOpened', data: openedData };
const open: AlertCaseCommand = { type: 'OpenAlertCase', ...openedData };
const triage = (fields: Partial<Extract<AlertCaseCommand, { type: 'TriageAlertCase' }>>): AlertCaseCommand => ({
  type: 'TriageAlertCase',
  by: ANA,
  at: T1,
  ...fields,
});
const changed = (from: string, to: string, reason: string | null = null, note: string | null = null, by = ANA): AlertCaseEvent =>
  ({ type: 'AlertCaseStatusChanged', data: { alertId: ALERT, from, to, reason, note, by, at: T1 } }) as AlertCaseEvent;
const inReview = changed('open', 'in_review');
const closedDismissed = changed('in_review', 'closed', 'dismissed', 'Known exchange hot wallet');

describe('alert case decider', () => {
  it('opens a case once: the same alert delivered again decides nothing', () => {
    const state = spec.given([]).when(open).then([opened]);
    expect(state.status).toBe('open');
    spec.given([opened]).when(open).thenNothingHappened();
  });

  it('triaging or commenting on a case that was never opened is not_found', () => {
    spec
      .given([])
      .when(triage({ status: 'in_review' }))
      .thenThrows('not_found');
    spec.given([]).when({ type: 'CommentOnAlertCase', commentId: 'c1', text: 'hi', by: ANA, at: T1 }).thenThrows('not_found');
  });

  it('open → in_review → closed (dismissed, with a note), each change an event naming who and when', () => {
    spec
      .given([opened])
      .when(triage({ status: 'in_review' }))
      .then([inReview]);
    const state = spec
      .given([opened, inReview])
      .when(triage({ status: 'closed', reason: 'dismissed', note: '  Known exchange hot wallet ' }))
      .then([closedDismissed]);
    expect(state.status).toBe('closed');
  });

  it('closing needs a reason and a note; a reason is refused on any other status', () => {
    spec
      .given([opened, inReview])
      .when(triage({ status: 'closed', note: 'why' }))
      .thenThrows('validation_error', { field: 'reason' });
    spec
      .given([opened, inReview])
      .when(triage({ status: 'closed', reason: 'flagged' }))
      .thenThrows('validation_error', { field: 'note' });
    spec
      .given([opened, inReview])
      .when(triage({ status: 'closed', reason: 'flagged', note: '   ' }))
      .thenThrows('validation_error');
    spec
      .given([opened])
      .when(triage({ status: 'in_review', reason: 'flagged' }))
      .thenThrows('validation_error');
  });

  it('reopening a closed case needs a note', () => {
    spec
      .given([opened, inReview, closedDismissed])
      .when(triage({ status: 'open' }))
      .thenThrows('validation_error');
    spec
      .given([opened, inReview, closedDismissed])
      .when(triage({ status: 'open', note: 'New evidence' }))
      .then([changed('closed', 'open', null, 'New evidence')]);
  });

  it('the same status again decides nothing; a note without a change of status is refused', () => {
    spec
      .given([opened, inReview])
      .when(triage({ status: 'in_review' }))
      .thenNothingHappened();
    spec
      .given([opened])
      .when(triage({ note: 'just a note' }))
      .thenThrows('validation_error');
  });

  it('assigns only a member of the subgroup; reassigning and unassigning are recorded with the previous assignee', () => {
    spec
      .given([opened])
      .when(triage({ assignee: { actor: BEN, isMember: false } }))
      .thenThrows('validation_error');
    const assigned: AlertCaseEvent = { type: 'AlertCaseAssigned', data: { alertId: ALERT, from: null, to: BEN, by: ANA, at: T1 } };
    expect(
      spec
        .given([opened])
        .when(triage({ assignee: { actor: BEN, isMember: true } }))
        .then([assigned]).assignee,
    ).toEqual(BEN);
    spec
      .given([opened, assigned])
      .when(triage({ assignee: { actor: BEN, isMember: true } }))
      .thenNothingHappened();
    spec
      .given([opened, assigned])
      .when(triage({ assignee: null }))
      .then([{ type: 'AlertCaseAssigned', data: { alertId: ALERT, from: BEN, to: null, by: ANA, at: T1 } }]);
    spec
      .given([opened])
      .when(triage({ assignee: null }))
      .thenNothingHappened();
  });

  it('assign and start the review in one change: two events, assignment first', () => {
    spec
      .given([opened])
      .when(triage({ status: 'in_review', assignee: { actor: ANA, isMember: true } }))
      .then([{ type: 'AlertCaseAssigned', data: { alertId: ALERT, from: null, to: ANA, by: ANA, at: T1 } }, inReview]);
  });

  it('comments are kept once per comment id; empty or overlong ones are refused', () => {
    const comment: AlertCaseEvent = {
      type: 'AlertCaseCommented',
      data: { alertId: ALERT, commentId: 'c1', text: 'Asked the customer', by: BEN, at: T1 },
    };
    spec
      .given([opened])
      .when({ type: 'CommentOnAlertCase', commentId: 'c1', text: 'Asked the customer ', by: BEN, at: T1 })
      .then([comment]);
    spec
      .given([opened, comment])
      .when({ type: 'CommentOnAlertCase', commentId: 'c1', text: 'Asked the customer', by: BEN, at: T1 })
      .thenNothingHappened();
    spec.given([opened]).when({ type: 'CommentOnAlertCase', commentId: 'c2', text: ' ', by: BEN, at: T1 }).thenThrows('validation_error');
    spec
      .given([opened])
      .when({ type: 'CommentOnAlertCase', commentId: 'c2', text: 'x'.repeat(2001), by: BEN, at: T1 })
      .thenThrows('validation_error');
  });
});
