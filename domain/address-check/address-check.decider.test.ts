import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BUDGET, tiersFor } from '../../test/support/check-fixtures.js';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { addressCheckDecider, CHECK_TIMEOUT_MS, type AddressCheckCommand } from './address-check.decider.js';
import type { AddressCheckEvent } from './address-check.events.js';
import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';
import { present } from '../shared/present.js';
import { buildFullCheckVerdict } from './full-verdict.js';
import type { TierOutcome } from './tier-outcome.schema.js';

const spec = deciderSpec(addressCheckDecider);
const T0 = '2026-05-01T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const OWNER = { channel: 'v2' as const, ownerId: 'user-1', keyId: 'key-1' };

const request: AddressCheckCommand = {
  type: 'Request',
  checkId: 'c-1',
  owner: OWNER,
  address: 's',
  network: 'ETH',
  budget: TEST_BUDGET,
  at: T0,
};
const requested: AddressCheckEvent = {
  type: 'AddressCheckRequested',
  data: { checkId: 'c-1', owner: OWNER, address: 's', network: 'ETH', budget: TEST_BUDGET, requestedAt: T0 },
};

let outcomes: Record<number, TierOutcome>;
const completed = (tier: number): AddressCheckEvent => ({ type: 'TierCompleted', data: { outcome: outcomes[tier]!, at: later(1000) } });
const allTiers = () => [0, 1, 2, 3, 4].map(completed);
const failed = (tier: 2 | 3, attempt: number): AddressCheckEvent => ({
  type: 'TierAttemptFailed',
  data: { tier, attempt, error: 'rpc down', at: later(attempt) },
});

beforeAll(async () => {
  outcomes = await tiersFor('s', { claims: [{ address: 's', kind: 'sanction' }] });
});

describe('the address check decider', () => {
  it('opens a check once; the same request again is a no-op, another one under that id is refused', () => {
    spec.given([]).when(request).then([requested]);
    spec.given([requested]).when(request).thenNothingHappened();
    spec
      .given([requested])
      .when({ ...request, address: 'other' })
      .thenThrows('invalid_state');
  });

  it('records each tier once: a redelivered outcome decides nothing', () => {
    spec
      .given([requested])
      .when({ type: 'RecordTier', outcome: outcomes[2]!, at: later(1000) })
      .then([completed(2)]);
    spec
      .given([requested, completed(2)])
      .when({ type: 'RecordTier', outcome: outcomes[2]!, at: later(2000) })
      .thenNothingHappened();
  });

  it('retries a failing tier, then fails the check on the last attempt', () => {
    spec
      .given([requested])
      .when({ type: 'RecordTierFailure', tier: 3, error: 'rpc down', at: later(1) })
      .then([failed(3, 1)]);
    spec
      .given([requested, failed(3, 1), failed(3, 2)])
      .when({ type: 'RecordTierFailure', tier: 3, error: 'rpc down', at: later(3) })
      .then([failed(3, 3), { type: 'CheckFailed', data: { tier: 3, error: 'rpc down', at: later(3) } }]);
  });

  it('completes only with every tier, computing the verdict and the high-risk event in the same decision', () => {
    spec
      .given([requested, completed(0), completed(1)])
      .when({ type: 'Complete', at: later(5000) })
      .thenThrows('invalid_state');
    const verdict = buildFullCheckVerdict(
      { checkId: 'c-1', address: 's', network: 'ETH', requestedAt: T0 },
      outcomes as never,
      later(5000),
    );
    const state = spec
      .given([requested, ...allTiers()])
      .when({ type: 'Complete', at: later(5000) })
      .then([
        { type: 'CheckCompleted', data: { verdict, at: later(5000) } },
        {
          type: 'WebhookEventRaised',
          data: {
            event_type: 'service.check.high_risk',
            audience: { user_id: 'user-1' },
            payload: {
              check_id: 'c-1',
              address: 's',
              network: 'ETH',
              risk_level: 'severe',
              risk_score: 100,
              tier_hit: 0,
              categories: ['sanctions'],
              sanctions: sanctionsCoverageBody(present(verdict.coverage.sanctions, 'tier 0 recorded the lists checked')),
            },
            occurred_at: later(5000),
          },
        },
      ]);
    expect(state.status).toBe('completed');
  });

  it('raises no webhook for an anonymous (x402) check: it has no audience', () => {
    const x402Owner = { channel: 'x402' as const, ownerId: 'payment-1', keyId: null };
    const anonymous = { ...requested, data: { ...requested.data, owner: x402Owner } } as AddressCheckEvent;
    spec
      .given([anonymous, ...allTiers()])
      .when({ type: 'Complete', at: later(5000) })
      .thenMatches((events) => expect(events.map((e) => e.type)).toEqual(['CheckCompleted']));
  });

  it('ignores anything for a finished check: late tiers, failures, a second completion, the reaper', () => {
    const done = [
      requested,
      ...allTiers(),
      {
        type: 'CheckCompleted',
        data: {
          verdict: buildFullCheckVerdict({ checkId: 'c-1', address: 's', network: 'ETH', requestedAt: T0 }, outcomes as never, later(5000)),
          at: later(5000),
        },
      } as AddressCheckEvent,
    ];
    spec
      .given(done)
      .when({ type: 'Complete', at: later(6000) })
      .thenNothingHappened();
    spec
      .given(done)
      .when({ type: 'RecordTierFailure', tier: 3, error: 'late', at: later(6000) })
      .thenNothingHappened();
    spec
      .given(done)
      .when({ type: 'TimeOut', at: later(CHECK_TIMEOUT_MS * 2) })
      .thenNothingHappened();
  });

  it('times out a check still running after 15 minutes, not a minute earlier; a late tier is then ignored', () => {
    spec
      .given([requested, completed(0)])
      .when({ type: 'TimeOut', at: later(CHECK_TIMEOUT_MS - 60_000) })
      .thenNothingHappened();
    const state = spec
      .given([requested, completed(0)])
      .when({ type: 'TimeOut', at: later(CHECK_TIMEOUT_MS) })
      .then([{ type: 'CheckTimedOut', data: { runningMs: CHECK_TIMEOUT_MS, at: later(CHECK_TIMEOUT_MS) } }]);
    expect(state.status).toBe('failed_timeout');
    const timedOut: AddressCheckEvent = { type: 'CheckTimedOut', data: { runningMs: CHECK_TIMEOUT_MS, at: later(CHECK_TIMEOUT_MS) } };
    spec
      .given([requested, timedOut])
      .when({ type: 'RecordTier', outcome: outcomes[1]!, at: later(CHECK_TIMEOUT_MS + 1) })
      .thenNothingHappened();
  });

  it('records the first delivery of a completed result once', () => {
    const verdict = buildFullCheckVerdict(
      { checkId: 'c-1', address: 's', network: 'ETH', requestedAt: T0 },
      outcomes as never,
      later(5000),
    );
    const done: AddressCheckEvent[] = [requested, ...allTiers(), { type: 'CheckCompleted', data: { verdict, at: later(5000) } }];
    const billing = {
      model: 'ledger' as const,
      chargedMicros: 1_000_000,
      balanceMicros: 0,
      monthlySpentMicros: 1_000_000,
      monthlyCapMicros: null,
      replay: false,
    };
    const delivered: AddressCheckEvent = { type: 'CheckResultDelivered', data: { billing, at: later(6000) } };
    spec
      .given(done)
      .when({ type: 'RecordDelivery', billing, at: later(6000) })
      .then([delivered]);
    spec
      .given([...done, delivered])
      .when({ type: 'RecordDelivery', billing, at: later(7000) })
      .thenNothingHappened();
    spec
      .given([requested])
      .when({ type: 'RecordDelivery', billing, at: later(7000) })
      .thenNothingHappened();
  });

  it('knows no check that was never requested', () => {
    spec.given([]).when({ type: 'TimeOut', at: T0 }).thenThrows('not_found');
  });
});
