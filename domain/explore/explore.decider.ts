import { microsToUsd } from '../shared/money.js';
import { present } from '../shared/present.js';
import type { CheckOwner } from '../address-check/address-check.events.js';
import type { ExposureBudget, ExposureResult } from '../exposure/exposure.schema.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { Network } from '../shared/network.js';
import { buildExploreReport, type ExploreReport } from './explore-report.js';
import { WEBHOOK_EVENT_RAISED } from '../address-check/raised-webhook.js';
import { exploreEventSchemas, type ExploreEvent } from './explore.events.js';

/**
 * One explore job: running until its search completes (service.bfs.completed), or fails
 * MAX_EXPLORE_ATTEMPTS times or runs past the 15-minute cap (service.bfs.failed, "after the retry
 * budget"). A finished job decides nothing more, so processors may run at least once.
 */

export const MAX_EXPLORE_ATTEMPTS = 3;
export const EXPLORE_TIMEOUT_MS = 15 * 60 * 1000;

export type ExploreDirection = 'in' | 'out' | 'both';

export interface ExploreState {
  status: 'none' | 'running' | 'completed' | 'failed';
  request: {
    jobId: string;
    owner: CheckOwner;
    address: string;
    network: Network;
    direction: ExploreDirection;
    budget: ExposureBudget;
    requestedAt: string;
  } | null;
  attempts: number;
  report: ExploreReport | null;
  error: string | null;
  delivered: { billing: Record<string, unknown> | null; at: string } | null;
}

export type ExploreCommand =
  | {
      type: 'Request';
      jobId: string;
      owner: CheckOwner;
      address: string;
      network: Network;
      direction: ExploreDirection;
      budget: ExposureBudget;
      at: string;
    }
  | { type: 'Complete'; reportId: string; incoming: ExposureResult | null; outgoing: ExposureResult | null; at: string }
  | { type: 'RecordFailure'; error: string; at: string }
  | { type: 'TimeOut'; at: string }
  | { type: 'RecordDelivery'; billing: Record<string, unknown> | null; at: string };

const initialState = (): ExploreState => ({ status: 'none', request: null, attempts: 0, report: null, error: null, delivered: null });

/** The outcome, and beside it the webhook a V2 owner's subscriptions receive (x402 jobs are anonymous). */
function withWebhook(
  state: ExploreState,
  outcome: ExploreEvent,
  webhook: Omit<Extract<ExploreEvent, { type: 'WebhookEventRaised' }>['data'], 'audience'>,
): ExploreEvent[] {
  const owner = present(state.request, 'past its Requested event a job has its request').owner;
  if (owner.channel !== 'v2') return [outcome];
  return [
    outcome,
    {
      type: WEBHOOK_EVENT_RAISED,
      data: { ...webhook, audience: { user_id: owner.ownerId } } as Extract<ExploreEvent, { type: 'WebhookEventRaised' }>['data'],
    },
  ];
}

function failed(state: ExploreState, error: string, attempts: number, at: string): ExploreEvent[] {
  const { jobId, address, network } = present(state.request, 'past its Requested event a job has its request');
  return withWebhook(
    state,
    { type: 'ExploreFailed', data: { error, attempts, at } },
    {
      event_type: 'service.bfs.failed',
      payload: { job_id: jobId, address, network, error },
      occurred_at: at,
    },
  );
}

function decide(command: ExploreCommand, state: ExploreState): ExploreEvent[] {
  if (command.type === 'Request') {
    if (state.request) {
      if (state.request.address === command.address && state.request.owner.ownerId === command.owner.ownerId) return [];
      throw fail('invalid_state', `explore job ${command.jobId} already exists for another request`);
    }
    const { jobId, owner, address, network, direction, budget, at } = command;
    return [{ type: 'ExploreRequested', data: { jobId, owner, address, network, direction, budget, requestedAt: at } }];
  }
  if (state.status === 'none') throw fail('not_found', 'no such explore job');
  switch (command.type) {
    case 'Complete': {
      if (state.status !== 'running') return [];
      const { jobId, address, network, direction, requestedAt } = present(state.request, 'past its Requested event a job has its request');
      const report = buildExploreReport({
        jobId,
        reportId: command.reportId,
        address,
        network,
        direction,
        incoming: command.incoming,
        outgoing: command.outgoing,
        requestedAt,
        completedAt: command.at,
      });
      const categories = report.categories.map((c) => ({ slug: c.slug, severity: c.severity, contribution: microsToUsd(c.usdMicros) }));
      return withWebhook(
        state,
        { type: 'ExploreCompleted', data: { report, at: command.at } },
        {
          event_type: 'service.bfs.completed',
          payload: { job_id: jobId, address, network, report_id: command.reportId, categories, complete: report.complete },
          occurred_at: command.at,
        },
      );
    }
    case 'RecordFailure': {
      if (state.status !== 'running') return [];
      const attempt = state.attempts + 1;
      const attemptFailed: ExploreEvent = { type: 'ExploreAttemptFailed', data: { attempt, error: command.error, at: command.at } };
      return attempt < MAX_EXPLORE_ATTEMPTS ? [attemptFailed] : [attemptFailed, ...failed(state, command.error, attempt, command.at)];
    }
    case 'TimeOut': {
      if (state.status !== 'running') return [];
      if (
        !(
          Date.parse(command.at) - Date.parse(present(state.request, 'past its Requested event a job has its request').requestedAt) >=
          EXPLORE_TIMEOUT_MS
        )
      )
        return [];
      return failed(state, 'timed out: still running after the 15-minute cap', state.attempts, command.at);
    }
    case 'RecordDelivery':
      if (state.status !== 'completed' || state.delivered) return [];
      return [{ type: 'ExploreResultDelivered', data: { billing: command.billing, at: command.at } }];
  }
}

function evolve(state: ExploreState, event: ExploreEvent): ExploreState {
  switch (event.type) {
    case 'ExploreRequested': {
      const { jobId, owner, address, network, direction, budget, requestedAt } = event.data;
      return { ...state, status: 'running', request: { jobId, owner, address, network, direction, budget, requestedAt } };
    }
    case 'ExploreAttemptFailed':
      return { ...state, attempts: event.data.attempt, error: event.data.error };
    case 'ExploreCompleted':
      return { ...state, status: 'completed', report: event.data.report };
    case 'ExploreFailed':
      return { ...state, status: 'failed', error: event.data.error };
    case 'ExploreResultDelivered':
      return { ...state, delivered: { billing: event.data.billing, at: event.data.at } };
    case WEBHOOK_EVENT_RAISED:
      return state;
  }
}

export const exploreDecider: Decider<ExploreCommand, ExploreEvent, ExploreState> = {
  decide,
  evolve,
  initialState,
  parse: parserFor<ExploreEvent>(exploreEventSchemas),
};
