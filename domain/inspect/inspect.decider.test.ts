import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { synthesizeAudit } from './final-audit.js';
import { inspectDecider, pendingProviders, type InspectCommand } from './inspect.decider.js';
import type { InspectEvent, InspectRequest } from './inspect.events.js';
import type { ProviderAssessment } from './provider-assessment.js';

const spec = deciderSpec(inspectDecider);
const T = '2026-03-10T12:00:00.000Z';
const T2 = '2026-03-10T12:00:01.000Z';

const request: InspectRequest = {
  checkId: 'c1',
  userId: 'u1',
  keyId: 'k1',
  address: '0x' + 'ab'.repeat(20),
  network: 'ETH',
  requestHash: 'h1',
  providers: [
    { name: 'service', kind: 'own_engine' },
    { name: 'provider_a', kind: 'goplus_address_security' },
  ],
  waived: ['provider_c'],
  skipped: [],
  at: T,
};
const requested: InspectEvent = { type: 'InspectRequested', data: request };
const sanctioned: ProviderAssessment = {
  risk_level: 'sanctioned',
  sanctioned: true,
  risk_categories: ['sanctions'],
  signals: ['sdn'],
  summary: 'listed',
};
const raw = { verdict: { risk_level: 'sanctioned' } };

const answer = (provider: string): InspectCommand => ({
  type: 'RecordProviderOutcome',
  provider,
  outcome: { ok: true, raw, assessment: sanctioned },
  elapsedMs: 12,
  at: T2,
});
const failure = (provider: string): InspectCommand => ({
  type: 'RecordProviderOutcome',
  provider,
  outcome: { ok: false, error: 'http_503' },
  elapsedMs: 40,
  at: T2,
});
const answered = (provider: string): InspectEvent => ({
  type: 'ProviderAnswered',
  data: { provider, raw, assessment: sanctioned, elapsedMs: 12, at: T2 },
});
const failed = (provider: string): InspectEvent => ({
  type: 'ProviderFailed',
  data: { provider, error: 'http_503', elapsedMs: 40, at: T2 },
});

describe('inspect decider', () => {
  it('is requested once; the same request again decides nothing, another request under the same id conflicts', () => {
    const state = spec
      .given([])
      .when({ type: 'RequestInspect', ...request })
      .then([requested]);
    expect(state.status).toBe('running');
    expect(pendingProviders(state)).toEqual(['service', 'provider_a']);
    spec
      .given([requested])
      .when({ type: 'RequestInspect', ...request, at: T2 })
      .thenNothingHappened();
    spec
      .given([requested])
      .when({ type: 'RequestInspect', ...request, requestHash: 'h2' })
      .thenThrows('idempotency_conflict');
    spec
      .given([requested])
      .when({ type: 'RequestInspect', ...request, userId: 'u2' })
      .thenThrows('idempotency_conflict');
  });

  it('records each provider outcome once; the last one completes the inspect with the synthesized audit', () => {
    spec
      .given([requested])
      .when(answer('service'))
      .then([answered('service')]);
    spec
      .given([requested, answered('service')])
      .when(answer('service'))
      .thenNothingHappened();
    const audit = synthesizeAudit([{ provider: 'service', assessment: sanctioned }], 1);
    const state = spec
      .given([requested, answered('service')])
      .when(failure('provider_a'))
      .then([failed('provider_a'), { type: 'InspectCompleted', data: { audit, at: T2 } }]);
    expect(state).toMatchObject({ status: 'completed', finishedAt: T2, audit: { decision: 'do_not_deal', providers_failed: 1 } });
    expect(state.outcomes.map((o) => o.provider)).toEqual(['service', 'provider_a']);
  });

  it('the audit follows the run order, whatever order the outcomes arrive in', () => {
    const state = spec
      .given([requested, answered('provider_a')])
      .when(answer('service'))
      .thenMatches((events) => {
        expect(events.map((e) => e.type)).toEqual(['ProviderAnswered', 'InspectCompleted']);
      });
    expect(state.audit).toEqual(
      synthesizeAudit(
        [
          { provider: 'service', assessment: sanctioned },
          { provider: 'provider_a', assessment: sanctioned },
        ],
        0,
      ),
    );
  });

  it('fails when every provider failed', () => {
    const state = spec
      .given([requested, failed('service')])
      .when(failure('provider_a'))
      .then([failed('provider_a'), { type: 'InspectFailed', data: { reason: 'every provider failed', at: T2 } }]);
    expect(state).toMatchObject({ status: 'failed', failure: 'every provider failed', audit: null });
  });

  it('a finished inspect takes no more outcomes; unknown inspects and providers are refused', () => {
    spec
      .given([requested, answered('service'), answered('provider_a'), { type: 'InspectFailed', data: { reason: 'x', at: T2 } }])
      .when(answer('provider_a'))
      .thenNothingHappened();
    spec.given([]).when(answer('service')).thenThrows('not_found');
    spec.given([requested]).when(answer('provider_c')).thenThrows('invalid_state');
  });

  it('times out only while running and only 15 minutes after the request (failed_timeout)', () => {
    const late = '2026-03-10T12:15:00.000Z';
    spec.given([requested]).when({ type: 'TimeOutInspect', at: '2026-03-10T12:14:59.999Z' }).thenNothingHappened();
    const state = spec
      .given([requested, answered('service')])
      .when({ type: 'TimeOutInspect', at: late })
      .then([{ type: 'InspectTimedOut', data: { at: late } }]);
    expect(state).toMatchObject({ status: 'failed_timeout', finishedAt: late });
    spec
      .given([requested, answered('service'), { type: 'InspectTimedOut', data: { at: late } }])
      .when(answer('provider_a'))
      .thenNothingHappened();
    spec
      .given([
        requested,
        answered('service'),
        failed('provider_a'),
        { type: 'InspectCompleted', data: { audit: synthesizeAudit([{ provider: 'service', assessment: sanctioned }], 1), at: T2 } },
      ])
      .when({ type: 'TimeOutInspect', at: late })
      .thenNothingHappened();
    spec.given([]).when({ type: 'TimeOutInspect', at: late }).thenNothingHappened();
  });

  it('parse skips event types it does not know', () => {
    expect(inspectDecider.parse({ type: 'InspectRenamed', data: {} })).toBeNull();
  });
});
