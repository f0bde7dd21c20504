import { present } from '../shared/present.js';
import type { ProviderOutcome } from '../ports/risk-provider.port.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { synthesizeAudit, type FinalAudit } from './final-audit.js';
import { inspectEventSchemas, type InspectEvent, type InspectRequest } from './inspect.events.js';
import type { ProviderAssessment } from './provider-assessment.js';

/**
 * One multi-provider inspect. It is requested once (a retry with the same request decides nothing, a
 * different request under the same check id is an idempotency conflict); each provider's outcome is
 * recorded once (at-least-once processors may report it twice); the last outcome also decides the
 * result: the synthesized audit when at least one provider answered, a failure when none did. One still
 * running 15 minutes after its request times out (the reaper's `failed_timeout`); the time travels in the
 * command and the decider checks it against the request's own time.
 */

/** The spec's wall-clock cap of an asynchronous check: still running after it, an inspect is failed_timeout. */
export const INSPECT_TIMEOUT_MS = 15 * 60 * 1000;

export type InspectCommand =
  | ({ type: 'RequestInspect' } & InspectRequest)
  | { type: 'RecordProviderOutcome'; provider: string; outcome: ProviderOutcome; elapsedMs: number; at: string }
  | { type: 'TimeOutInspect'; at: string };

export type RecordedOutcome =
  | { provider: string; ok: true; raw: unknown; assessment: ProviderAssessment; elapsedMs: number }
  | { provider: string; ok: false; error: string; elapsedMs: number };

export type InspectStatus = 'none' | 'running' | 'completed' | 'failed' | 'failed_timeout';

export interface InspectState {
  status: InspectStatus;
  request: InspectRequest | null;
  outcomes: readonly RecordedOutcome[];
  audit: FinalAudit | null;
  failure: string | null;
  finishedAt: string | null;
}

export const initialInspectState = (): InspectState => ({
  status: 'none',
  request: null,
  outcomes: [],
  audit: null,
  failure: null,
  finishedAt: null,
});

/** Providers of the run list that have no recorded outcome yet. */
export const pendingProviders = (state: InspectState): string[] =>
  (state.request?.providers ?? []).map((p) => p.name).filter((name) => !state.outcomes.some((o) => o.provider === name));

function decideOutcome(command: Extract<InspectCommand, { type: 'RecordProviderOutcome' }>, state: InspectState): InspectEvent[] {
  if (!state.request) throw fail('not_found', 'no such inspect');
  if (!state.request.providers.some((p) => p.name === command.provider)) {
    throw fail('invalid_state', `provider ${command.provider} is not part of this inspect`);
  }
  if (state.status !== 'running' || state.outcomes.some((o) => o.provider === command.provider)) return [];
  const { provider, outcome, elapsedMs, at } = command;
  const recorded: InspectEvent = outcome.ok
    ? { type: 'ProviderAnswered', data: { provider, raw: outcome.raw, assessment: outcome.assessment, elapsedMs, at } }
    : { type: 'ProviderFailed', data: { provider, error: outcome.error, elapsedMs, at } };
  if (pendingProviders(state).length > 1) return [recorded];
  const all = [...state.outcomes, { provider, ...outcome }];
  // in run order, so that equal inspects synthesize equal audits
  const answered = state.request.providers.flatMap(({ name }) => {
    const found = all.find((o) => o.provider === name);
    return found?.ok ? [{ provider: name, assessment: found.assessment }] : [];
  });
  const finished: InspectEvent =
    answered.length === 0
      ? { type: 'InspectFailed', data: { reason: 'every provider failed', at } }
      : { type: 'InspectCompleted', data: { audit: synthesizeAudit(answered, all.length - answered.length), at } };
  return [recorded, finished];
}

export function decideInspect(command: InspectCommand, state: InspectState): InspectEvent[] {
  switch (command.type) {
    case 'RequestInspect': {
      const { type: _t, ...request } = command;
      if (!state.request) return [{ type: 'InspectRequested', data: request }];
      if (state.request.userId === request.userId && state.request.requestHash === request.requestHash) return [];
      throw fail('idempotency_conflict', 'this Idempotency-Key was used with a different request within 24 h');
    }
    case 'RecordProviderOutcome':
      return decideOutcome(command, state);
    case 'TimeOutInspect':
      if (
        state.status !== 'running' ||
        !(
          Date.parse(command.at) - Date.parse(present(state.request, 'past its Requested event a job has its request').at) >=
          INSPECT_TIMEOUT_MS
        )
      )
        return [];
      return [{ type: 'InspectTimedOut', data: { at: command.at } }];
  }
}

export function evolveInspect(state: InspectState, event: InspectEvent): InspectState {
  switch (event.type) {
    case 'InspectRequested':
      return { ...state, status: 'running', request: event.data };
    case 'ProviderAnswered': {
      const { provider, raw, assessment, elapsedMs } = event.data;
      return { ...state, outcomes: [...state.outcomes, { provider, ok: true, raw, assessment, elapsedMs }] };
    }
    case 'ProviderFailed': {
      const { provider, error, elapsedMs } = event.data;
      return { ...state, outcomes: [...state.outcomes, { provider, ok: false, error, elapsedMs }] };
    }
    case 'InspectCompleted':
      return { ...state, status: 'completed', audit: event.data.audit, finishedAt: event.data.at };
    case 'InspectFailed':
      return { ...state, status: 'failed', failure: event.data.reason, finishedAt: event.data.at };
    case 'InspectTimedOut':
      return { ...state, status: 'failed_timeout', failure: 'failed_timeout', finishedAt: event.data.at };
  }
}

export const inspectDecider: Decider<InspectCommand, InspectEvent, InspectState> = {
  decide: decideInspect,
  evolve: evolveInspect,
  initialState: initialInspectState,
  parse: parserFor<InspectEvent>(inspectEventSchemas),
};
