import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';
import type { SanctionsCoverage } from '../coverage/sanctions-coverage.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { Chain } from '../shared/network.js';
import { alertRank, worstLevel, type AlertLevel } from './alert-level.js';
import type { ChangeReason } from '../intel/change-reason.js';
import { changeReasonWords } from '../webhooks/change-reason-words.js';
import type { PolicyAlert, PolicyFact } from './policy-engine.js';
import { webhookEventRaised } from '../webhooks/webhook-raised.js';
import {
  TRANSFER_CHECK_TIMEOUT_MS,
  transferCheckEventSchemas,
  type AppliedPolicy,
  type Requester,
  type TransferCheckEvent,
  type TransferFailureCode,
} from './transfer-check.events.js';
import type { TransferVerdict } from './transfer-verdict.js';

/**
 * One transfer check: requested → completed | failed | failed_timeout. Every command is idempotent, as
 * the pipeline runs at least once: a second request, a late completion or failure, or a second timeout
 * decides nothing. Completing a check requested by a subgroup raises `tx.policy.alert.triggered` (in
 * the same append, so the notification exists exactly when the result does) when it has any alert; it
 * carries every alert, and each webhook subscription then keeps the ones at or above its own
 * `alert_min_level` (the spec: the subscription's level, nothing else filters). x402 checks belong to
 * no subgroup and raise nothing.
 */
export type TransferCheckCommand =
  | { type: 'RequestTransferCheck'; checkId: string; chain: Chain; txHash: string; requester: Requester; at: string }
  | {
      type: 'CompleteTransferCheck';
      verdict: TransferVerdict;
      alerts: readonly PolicyAlert[];
      /** The sanctions lists the senders were checked against. */
      sanctions: SanctionsCoverage;
      /** The policy version applied and the facts it was applied to (a backtest replays them). */
      policy?: AppliedPolicy;
      facts?: readonly PolicyFact[];
      at: string;
    }
  | {
      type: 'ReevaluateTransferCheck';
      changeKey: string;
      reasons: readonly ChangeReason[];
      /** The subgroup's active policy and every alert it raises on the facts as known now. */
      policy: AppliedPolicy;
      facts: readonly PolicyFact[];
      alerts: readonly PolicyAlert[];
      at: string;
    }
  | { type: 'FailTransferCheck'; code: TransferFailureCode; message: string; at: string }
  | { type: 'TimeOutTransferCheck'; at: string };

export type TransferCheckStatus = 'absent' | 'running' | 'completed' | 'failed' | 'failed_timeout';

type Requested = Extract<TransferCheckEvent, { type: 'TransferCheckRequested' }>['data'];

export interface TransferCheckState {
  readonly status: TransferCheckStatus;
  readonly request: Requested | null;
  /** The verdict, once completed. */
  readonly verdict: TransferVerdict | null;
  readonly failure: { readonly code: TransferFailureCode; readonly message: string } | null;
  /** The alerts raised so far (the check's own and retroactive ones), by `alertKey`, at their highest level. */
  readonly alerted: Readonly<Record<string, AlertLevel>>;
  /** How many alerts (hence cases) the check has: the next retroactive one is numbered from here. */
  readonly alertCount: number;
  /** The intelligence changes that re-evaluated the check (each does once). */
  readonly changeKeys: readonly string[];
}

export const initialTransferCheckState = (): TransferCheckState => ({
  status: 'absent',
  request: null,
  verdict: null,
  failure: null,
  alerted: {},
  alertCount: 0,
  changeKeys: [],
});

/** An alert within its check: a policy raises at most one per rule type and category. */
export const alertKey = (alert: { readonly ruleType: string; readonly category: string }): string => `${alert.ruleType}|${alert.category}`;

function withAlerts(
  alerted: Readonly<Record<string, AlertLevel>>,
  alerts: readonly { ruleType: string; category: string; riskLevel: AlertLevel }[],
) {
  const next = { ...alerted };
  for (const alert of alerts) {
    const was = next[alertKey(alert)];
    if (!was || alertRank(alert.riskLevel) > alertRank(was)) next[alertKey(alert)] = alert.riskLevel;
  }
  return next;
}

function alertEvent(
  request: Requested,
  alerts: readonly PolicyAlert[],
  sanctions: SanctionsCoverage | null,
  at: string,
  retroactive?: readonly ChangeReason[],
): TransferCheckEvent[] {
  if (request.requester.channel !== 'v2') return [];
  const worst = worstLevel(alerts.map((alert) => alert.riskLevel));
  if (worst === null) return [];
  const raised = webhookEventRaised({
    eventType: 'tx.policy.alert.triggered',
    audience: { subgroup_id: request.requester.subgroupId },
    payload: {
      check_id: request.checkId,
      tx_hash: request.txHash,
      chain: request.chain,
      subgroup_id: request.requester.subgroupId,
      worst_level: worst,
      alerts: alerts.map((alert) => ({ ...alert })),
      ...(sanctions ? { sanctions: sanctionsCoverageBody(sanctions) } : {}),
      ...(retroactive ? { retroactive: true as const, reasons: retroactive.map(changeReasonWords) } : {}),
    },
    occurredAt: at,
  });
  return [raised as TransferCheckEvent];
}

/** The alerts of a re-evaluation the check has not raised yet, or raises now at a higher level. */
function newlyTriggered(state: TransferCheckState, alerts: readonly PolicyAlert[]): PolicyAlert[] {
  return alerts.filter((alert) => {
    const was = state.alerted[alertKey(alert)];
    return !was || alertRank(alert.riskLevel) > alertRank(was);
  });
}

function running(state: TransferCheckState): Requested {
  if (state.status === 'absent' || !state.request) throw fail('not_found', 'no such transfer check');
  return state.request;
}

export function decideTransferCheck(command: TransferCheckCommand, state: TransferCheckState): TransferCheckEvent[] {
  switch (command.type) {
    case 'RequestTransferCheck': {
      if (state.status !== 'absent') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'TransferCheckRequested', data }];
    }
    case 'CompleteTransferCheck': {
      const request = running(state);
      if (state.status !== 'running') return [];
      const alerts = command.alerts;
      return [
        {
          type: 'TransferCheckCompleted',
          data: {
            checkId: request.checkId,
            verdict: command.verdict,
            worstLevel: worstLevel(alerts.map((a) => a.riskLevel)),
            alertCount: alerts.length,
            sanctions: command.sanctions,
            ...(command.policy ? { policy: command.policy } : {}),
            ...(command.facts ? { facts: [...command.facts] } : {}),
            at: command.at,
          },
        },
        ...alertEvent(request, alerts, command.sanctions, command.at),
      ];
    }
    case 'ReevaluateTransferCheck': {
      const request = running(state);
      if (state.status !== 'completed' || request.requester.channel !== 'v2' || state.changeKeys.includes(command.changeKey)) return [];
      const alerts = newlyTriggered(state, command.alerts);
      if (alerts.length === 0) return [];
      return [
        {
          type: 'TransferCheckReevaluated',
          data: {
            checkId: request.checkId,
            changeKey: command.changeKey,
            reasons: [...command.reasons],
            policy: command.policy,
            facts: [...command.facts],
            alerts: alerts.map((alert) => ({ ...alert })),
            firstAlertIndex: state.alertCount,
            at: command.at,
          },
        },
        ...alertEvent(request, alerts, null, command.at, command.reasons),
      ];
    }
    case 'FailTransferCheck': {
      const request = running(state);
      if (state.status !== 'running') return [];
      return [
        { type: 'TransferCheckFailed', data: { checkId: request.checkId, code: command.code, message: command.message, at: command.at } },
      ];
    }
    case 'TimeOutTransferCheck': {
      const request = running(state);
      if (state.status !== 'running' || Date.parse(command.at) - Date.parse(request.at) < TRANSFER_CHECK_TIMEOUT_MS) return [];
      return [{ type: 'TransferCheckTimedOut', data: { checkId: request.checkId, at: command.at } }];
    }
  }
}

export function evolveTransferCheck(state: TransferCheckState, event: TransferCheckEvent): TransferCheckState {
  switch (event.type) {
    case 'TransferCheckRequested':
      return { ...state, status: 'running', request: event.data };
    case 'TransferCheckCompleted': {
      const alerts = event.data.verdict.policy.alerts;
      return { ...state, status: 'completed', verdict: event.data.verdict, alerted: withAlerts({}, alerts), alertCount: alerts.length };
    }
    case 'TransferCheckReevaluated':
      return {
        ...state,
        alerted: withAlerts(state.alerted, event.data.alerts),
        alertCount: state.alertCount + event.data.alerts.length,
        changeKeys: [...state.changeKeys, event.data.changeKey],
      };
    case 'TransferCheckFailed':
      return { ...state, status: 'failed', failure: { code: event.data.code, message: event.data.message } };
    case 'TransferCheckTimedOut':
      return {
        ...state,
        status: 'failed_timeout',
        failure: { code: 'backend_unavailable', message: 'the check did not finish within 15 minutes' },
      };
    case 'WebhookEventRaised':
      return state;
  }
}

export const transferCheckDecider: Decider<TransferCheckCommand, TransferCheckEvent, TransferCheckState> = {
  decide: decideTransferCheck,
  evolve: evolveTransferCheck,
  initialState: initialTransferCheckState,
  parse: parserFor<TransferCheckEvent>(transferCheckEventSchemas),
};
