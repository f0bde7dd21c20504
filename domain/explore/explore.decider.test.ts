import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BUDGET } from '../../test/support/check-fixtures.js';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { edge, fixtureIndex, label, labelsOf } from '../../test/support/transfer-fixtures.js';
import { searchExposure } from '../exposure/exposure-search.js';
import type { ExposureResult } from '../exposure/exposure.schema.js';
import { EXPLORE_TIMEOUT_MS, exploreDecider, type ExploreCommand } from './explore.decider.js';
import { exploreReportSchema } from './explore-report.js';
import type { ExploreEvent } from './explore.events.js';

const spec = deciderSpec(exploreDecider);
const T0 = '2026-05-01T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const OWNER = { channel: 'v2' as const, ownerId: 'user-1', keyId: 'key-1' };
const request: ExploreCommand = {
  type: 'Request',
  jobId: 'j-1',
  owner: OWNER,
  address: 'd',
  network: 'ETH',
  direction: 'both',
  budget: TEST_BUDGET,
  at: T0,
};
const requested: ExploreEvent = {
  type: 'ExploreRequested',
  data: { jobId: 'j-1', owner: OWNER, address: 'd', network: 'ETH', direction: 'both', budget: TEST_BUDGET, requestedAt: T0 },
};
const attemptFailed = (attempt: number): ExploreEvent => ({
  type: 'ExploreAttemptFailed',
  data: { attempt, error: 'rpc down', at: later(attempt) },
});

let incoming: ExposureResult;
let outgoing: ExposureResult;
beforeAll(async () => {
  const index = await fixtureIndex([edge('s', 'd', 600), edge('m', 'd', 400), edge('d', 'x', 1000)]);
  const classify = labelsOf({ s: label('sanctions', 10, 'sanctioned'), m: label('mixer', 6, 'medium'), x: label('exchange', 1, 'low') });
  const deps = { flows: index.flows.bind(index), classify, now: () => 0 };
  incoming = await searchExposure(deps, { address: 'd', network: 'ETH', direction: 'in', budget: TEST_BUDGET });
  outgoing = await searchExposure(deps, { address: 'd', network: 'ETH', direction: 'out', budget: TEST_BUDGET });
});

describe('the explore job decider', () => {
  it('opens a job once', () => {
    spec.given([]).when(request).then([requested]);
    spec.given([requested]).when(request).thenNothingHappened();
    spec
      .given([requested])
      .when({ ...request, address: 'other' })
      .thenThrows('invalid_state');
  });

  it('completes with a report and service.bfs.completed: categories by severity with their USD contribution', () => {
    spec
      .given([requested])
      .when({ type: 'Complete', reportId: 'r-1', incoming, outgoing, at: later(100) })
      .thenMatches(([completed, webhook]) => {
        expect(completed!.type).toBe('ExploreCompleted');
        exploreReportSchema.parse((completed!.data as { report: unknown }).report);
        expect(webhook).toEqual({
          type: 'WebhookEventRaised',
          data: {
            event_type: 'service.bfs.completed',
            audience: { user_id: 'user-1' },
            occurred_at: later(100),
            payload: {
              job_id: 'j-1',
              address: 'd',
              network: 'ETH',
              report_id: 'r-1',
              complete: true,
              categories: [
                { slug: 'sanctions', severity: 10, contribution: 600 },
                { slug: 'mixer', severity: 6, contribution: 400 },
                { slug: 'exchange', severity: 1, contribution: 1000 },
              ],
            },
          },
        });
      });
  });

  it('raises nothing for an anonymous (x402) job', () => {
    const anonymous = {
      ...requested,
      data: { ...requested.data, owner: { channel: 'x402' as const, ownerId: 'payment-1', keyId: null } },
    } as ExploreEvent;
    spec
      .given([anonymous])
      .when({ type: 'Complete', reportId: 'r-1', incoming, outgoing, at: later(100) })
      .thenMatches((events) => expect(events.map((e) => e.type)).toEqual(['ExploreCompleted']));
  });

  it('fails after the retry budget with service.bfs.failed, and not before', () => {
    spec
      .given([requested, attemptFailed(1)])
      .when({ type: 'RecordFailure', error: 'rpc down', at: later(2) })
      .then([attemptFailed(2)]);
    spec
      .given([requested, attemptFailed(1), attemptFailed(2)])
      .when({ type: 'RecordFailure', error: 'rpc down', at: later(3) })
      .then([
        attemptFailed(3),
        { type: 'ExploreFailed', data: { error: 'rpc down', attempts: 3, at: later(3) } },
        {
          type: 'WebhookEventRaised',
          data: {
            event_type: 'service.bfs.failed',
            audience: { user_id: 'user-1' },
            payload: { job_id: 'j-1', address: 'd', network: 'ETH', error: 'rpc down' },
            occurred_at: later(3),
          },
        },
      ]);
  });

  it('is failed by the reaper after 15 minutes, and a finished job ignores everything', () => {
    spec
      .given([requested])
      .when({ type: 'TimeOut', at: later(EXPLORE_TIMEOUT_MS - 1) })
      .thenNothingHappened();
    const state = spec
      .given([requested])
      .when({ type: 'TimeOut', at: later(EXPLORE_TIMEOUT_MS) })
      .thenMatches((events) => expect(events.map((e) => e.type)).toEqual(['ExploreFailed', 'WebhookEventRaised']));
    expect(state.status).toBe('failed');
    const failed: ExploreEvent = { type: 'ExploreFailed', data: { error: 'timed out', attempts: 0, at: later(EXPLORE_TIMEOUT_MS) } };
    spec
      .given([requested, failed])
      .when({ type: 'Complete', reportId: 'r-1', incoming, outgoing: null, at: later(EXPLORE_TIMEOUT_MS + 1) })
      .thenNothingHappened();
  });
});
