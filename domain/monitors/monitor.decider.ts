import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';
import type { SanctionsCoverage } from '../coverage/sanctions-coverage.js';
import { present } from '../shared/present.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { Network } from '../shared/network.js';
import { webhookEventRaised } from '../webhooks/webhook-raised.js';
import type { MonitorState, MonitorStatus } from './monitor-state.schema.js';
import { monitorEventSchemas, type MonitorEvent } from './monitor.events.js';
import { monitorVerdictWords } from './risk-changed-payload.js';
import type { ChangeReason } from '../intel/change-reason.js';
import { changeReasonWords } from '../webhooks/change-reason-words.js';
import { verdictChanged, type MonitorDataVersions, type MonitorVerdict } from './monitor-verdict.js';

/**
 * One monitor's life. Outside facts (the verdict now, whether the period was paid) travel in the
 * command; the decider decides what they mean. A re-evaluation is idempotent by its change key (a
 * dataset version, a curation entry): the same change never appends twice, so a processor killed in the
 * middle and restarted re-appends nothing it had already appended.
 */

/** A monitor's state, typed by its schema (an Idempotency-Key's stored outcome carries one). */
export type { MonitorState, MonitorStatus };

export const RECENT_CHANGES_KEPT = 64;

export type MonitorCommand =
  | {
      readonly type: 'Create';
      readonly monitorId: string;
      readonly userId: string;
      readonly keyId: string | null;
      readonly address: string;
      readonly network: Network;
      readonly reference: string | null;
      readonly verdict: MonitorVerdict;
      readonly dataVersions: MonitorDataVersions;
      readonly sanctions: SanctionsCoverage;
      readonly period: string;
      readonly at: string;
    }
  | {
      readonly type: 'Reevaluate';
      /** The change's signed receipt (null where none was signed: no change, or a test without a signer). */
      readonly receipt?: string | null;
      readonly changeKey: string;
      readonly verdict: MonitorVerdict;
      readonly dataVersions: MonitorDataVersions;
      readonly sanctions: SanctionsCoverage;
      readonly reasons: readonly ChangeReason[];
      readonly at: string;
    }
  /** The outcome of charging `period`: paid, or refused with the ledger's code. */
  | { readonly type: 'Renew'; readonly period: string; readonly paid: true; readonly at: string }
  | { readonly type: 'Renew'; readonly period: string; readonly paid: false; readonly reason: string; readonly at: string }
  | { readonly type: 'Delete'; readonly at: string };

export const initialMonitorState = (): MonitorState => ({
  status: 'none',
  monitorId: null,
  userId: null,
  address: null,
  network: null,
  reference: null,
  verdict: null,
  paidPeriod: null,
  pausedReason: null,
  dataVersions: null,
  sanctions: null,
  createdAt: null,
  lastChangedAt: null,
  recentChanges: [],
});

/** Whether the monitor still has to pay for `period` (periods are ISO instants, so they sort as strings). */
export const owesPeriod = (state: Pick<MonitorState, 'paidPeriod'>, period: string): boolean =>
  state.paidPeriod === null || state.paidPeriod < period;

function decideReevaluate(command: Extract<MonitorCommand, { type: 'Reevaluate' }>, state: MonitorState): MonitorEvent[] {
  // A paused monitor is not watched (its period is unpaid); it is re-evaluated when it resumes.
  if (state.status !== 'active' || state.recentChanges.includes(command.changeKey)) return [];
  if (!verdictChanged(present(state.verdict, 'a created monitor has a verdict'), command.verdict)) return [];
  const changed: MonitorEvent = {
    type: 'MonitorVerdictChanged',
    data: {
      changeKey: command.changeKey,
      previous: present(state.verdict, 'a created monitor has a verdict'),
      current: command.verdict,
      reasons: [...command.reasons],
      dataVersions: command.dataVersions,
      sanctions: command.sanctions,
      ...(command.receipt ? { receipt: command.receipt } : {}),
      at: command.at,
    },
  };
  const webhook = webhookEventRaised({
    eventType: 'service.address.risk_changed',
    audience: { user_id: present(state.userId, 'a created monitor has its owner') },
    occurredAt: command.at,
    payload: {
      monitor_id: present(state.monitorId, 'a created monitor has its id'),
      address: present(state.address, 'a created monitor has its address'),
      network: present(state.network, 'a created monitor has its network'),
      reference: state.reference,
      previous: monitorVerdictWords(present(state.verdict, 'a created monitor has a verdict')),
      current: monitorVerdictWords(command.verdict),
      reasons: command.reasons.map(changeReasonWords),
      sanctions: sanctionsCoverageBody(command.sanctions),
      ...(command.receipt ? { receipt: command.receipt } : {}),
    },
  });
  return [changed, webhook];
}

function decideRenew(command: Extract<MonitorCommand, { type: 'Renew' }>, state: MonitorState): MonitorEvent[] {
  if (state.status === 'none' || state.status === 'deleted') return [];
  const { period, at } = command;
  if (!command.paid)
    return state.status === 'paused' || !owesPeriod(state, period)
      ? []
      : [{ type: 'MonitorPaused', data: { period, reason: command.reason, at } }];
  if (state.status === 'paused') return [{ type: 'MonitorResumed', data: { period, at } }];
  return owesPeriod(state, period) ? [{ type: 'MonitorRenewed', data: { period, at } }] : [];
}

export function decideMonitor(command: MonitorCommand, state: MonitorState): MonitorEvent[] {
  switch (command.type) {
    case 'Create': {
      // Watching an address already watched is the same monitor: nothing new (the caller answers 200).
      if (state.status === 'active' || state.status === 'paused') return [];
      const { monitorId, userId, keyId, address, network, reference, verdict, dataVersions, sanctions, period, at } = command;
      return [
        {
          type: 'MonitorCreated',
          data: {
            monitorId,
            userId,
            keyId,
            address,
            network,
            reference,
            verdict,
            dataVersions,
            sanctions,
            paidPeriod: period,
            createdAt: at,
          },
        },
      ];
    }
    case 'Reevaluate':
      return decideReevaluate(command, state);
    case 'Renew':
      return decideRenew(command, state);
    case 'Delete':
      if (state.status === 'none' || state.status === 'deleted') throw fail('not_found', 'no such monitor');
      return [{ type: 'MonitorDeleted', data: { at: command.at } }];
  }
}

const remember = (recent: readonly string[], key: string): readonly string[] => [...recent, key].slice(-RECENT_CHANGES_KEPT);

export function evolveMonitor(state: MonitorState, event: MonitorEvent): MonitorState {
  switch (event.type) {
    case 'MonitorCreated': {
      const d = event.data;
      return {
        ...state,
        status: 'active',
        monitorId: d.monitorId,
        userId: d.userId,
        address: d.address,
        network: d.network,
        reference: d.reference,
        verdict: d.verdict,
        paidPeriod: d.paidPeriod,
        pausedReason: null,
        dataVersions: d.dataVersions,
        sanctions: d.sanctions ?? null,
        createdAt: d.createdAt,
        lastChangedAt: null,
        recentChanges: [],
      };
    }
    case 'MonitorVerdictChanged':
      return {
        ...state,
        verdict: event.data.current,
        dataVersions: event.data.dataVersions,
        sanctions: event.data.sanctions ?? null,
        lastChangedAt: event.data.at,
        recentChanges: remember(state.recentChanges, event.data.changeKey),
      };
    case 'MonitorRenewed':
      return { ...state, paidPeriod: event.data.period };
    case 'MonitorPaused':
      return { ...state, status: 'paused', pausedReason: event.data.reason };
    case 'MonitorResumed':
      return { ...state, status: 'active', pausedReason: null, paidPeriod: event.data.period };
    case 'MonitorDeleted':
      return { ...state, status: 'deleted' };
    default:
      return state;
  }
}

export const monitorDecider: Decider<MonitorCommand, MonitorEvent, MonitorState> = {
  decide: decideMonitor,
  evolve: evolveMonitor,
  initialState: initialMonitorState,
  parse: parserFor<MonitorEvent>(monitorEventSchemas),
};
