import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import type { PolicyAlert } from './policy-engine.js';
import { transferCheckDecider, type TransferCheckCommand } from './transfer-check.decider.js';
import type { TransferCheckEvent } from './transfer-check.events.js';
import { FIXTURE_COVERAGE } from '../../test/support/intel-fixtures.js';
import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';
import { transferVerdictFixture } from '../../test/support/transfer-verdict-fixture.js';

const spec = deciderSpec(transferCheckDecider);

const T0 = '2026-11-20T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const CHECK = '0193a000-0000-7000-8000-000000000001';
const SUBGROUP = '0193a000-0000-7000-8000-0000000000aa';
const HASH = `0x${'ab'.repeat(32)}`;

/** `recordedFloor`: a request recorded by an older version, which stored the subgroup's floor in it. */
const requested = (channel: 'v2' | 'x402' = 'v2', recordedFloor?: PolicyAlert['riskLevel']): TransferCheckEvent => ({
  type: 'TransferCheckRequested',
  data: {
    checkId: CHECK,
    chain: 'ETH',
    txHash: HASH,
    requester: requesterOf(channel),
    ...(recordedFloor ? { alertMinLevel: recordedFloor } : {}),
    at: T0,
  },
});
const requesterOf = (channel: 'v2' | 'x402') =>
  channel === 'v2'
    ? ({ channel: 'v2', userId: 'user-1', keyId: 'key-1', subgroupId: SUBGROUP } as const)
    : ({ channel: 'x402', payer: null } as const);
const request = (channel: 'v2' | 'x402' = 'v2'): TransferCheckCommand => ({
  type: 'RequestTransferCheck',
  checkId: CHECK,
  chain: 'ETH',
  txHash: HASH,
  requester: requesterOf(channel),
  at: T0,
});

const alert = (riskLevel: PolicyAlert['riskLevel'], category = 'Sanctioned entity / address'): PolicyAlert => ({
  category,
  riskLevel,
  ruleType: 'Direct exposure',
  actualShare: 100,
  thresholdShare: 0,
  thresholdValue: 0,
  entityName: 'LAZARUS GROUP',
  entityAddress: '0x00000000000000000000000000000000000000a1',
  direction: 'incoming',
  entityScore: 0,
});
const verdictWith = (alerts: PolicyAlert[]) => transferVerdictFixture({ checkId: CHECK, txHash: HASH, alerts });
const complete = (alerts: PolicyAlert[], at = later(500)): TransferCheckCommand => ({
  type: 'CompleteTransferCheck',
  verdict: verdictWith(alerts),
  alerts,
  sanctions: FIXTURE_COVERAGE,
  at,
});
const completed = (alerts: PolicyAlert[], worst: PolicyAlert['riskLevel'] | null): TransferCheckEvent => ({
  type: 'TransferCheckCompleted',
  data: {
    checkId: CHECK,
    verdict: verdictWith(alerts),
    worstLevel: worst,
    alertCount: alerts.length,
    sanctions: FIXTURE_COVERAGE,
    at: later(500),
  },
});

describe('transfer check decider', () => {
  it('a request starts a running check; a second request with the same id decides nothing', () => {
    expect(spec.given([]).when(request()).then([requested()]).status).toBe('running');
    spec.given([requested()]).when(request()).thenNothingHappened();
  });

  it('completing without alerts records the result and raises no webhook event', () => {
    const state = spec
      .given([requested()])
      .when(complete([]))
      .then([completed([], null)]);
    expect(state.status).toBe('completed');
    expect(state.verdict).toEqual(verdictWith([]));
  });

  it('completing with alerts raises tx.policy.alert.triggered for the subgroup with every alert, in the same decision', () => {
    spec
      .given([requested()])
      .when(complete([alert('Severe'), alert('Low', 'Crypto ATM')]))
      .thenMatches((events) => {
        expect(events.map((e) => e.type)).toEqual(['TransferCheckCompleted', 'WebhookEventRaised']);
        const raised = events[1]!.data as { event_type: string; audience: unknown; payload: Record<string, unknown>; occurred_at: string };
        expect(raised.event_type).toBe('tx.policy.alert.triggered');
        expect(raised.audience).toEqual({ subgroup_id: SUBGROUP });
        expect(raised.occurred_at).toBe(later(500));
        // Every alert: each subscription keeps those at or above its own alert_min_level (webhook-matching).
        expect(raised.payload).toEqual({
          check_id: CHECK,
          tx_hash: HASH,
          chain: 'ETH',
          subgroup_id: SUBGROUP,
          worst_level: 'Severe',
          alerts: [alert('Severe'), alert('Low', 'Crypto ATM')],
          sanctions: sanctionsCoverageBody(FIXTURE_COVERAGE),
        });
      });
  });

  it('a Low alert is raised too, so a subscription that asked for Low receives it; no subgroup floor filters it', () => {
    spec
      .given([requested()])
      .when(complete([alert('Low')]))
      .thenMatches((events) => expect(events.map((e) => e.type)).toEqual(['TransferCheckCompleted', 'WebhookEventRaised']));
    // A request recorded with a subgroup floor by an older version: the floor is not applied either.
    spec
      .given([requested('v2', 'High')])
      .when(complete([alert('Low')]))
      .thenMatches((events) => expect(events).toHaveLength(2));
  });

  it('an x402 check belongs to no subgroup and raises nothing', () => {
    spec
      .given([requested('x402')])
      .when(complete([alert('Severe')]))
      .thenMatches((events) => expect(events.map((e) => e.type)).toEqual(['TransferCheckCompleted']));
  });

  it('a late completion, failure or second completion after the outcome decides nothing (at-least-once pipeline)', () => {
    const done = [requested(), completed([], null)];
    spec
      .given(done)
      .when(complete([alert('Severe')]))
      .thenNothingHappened();
    spec
      .given(done)
      .when({ type: 'FailTransferCheck', code: 'backend_unavailable', message: 'rpc down', at: later(900) })
      .thenNothingHappened();
    const failed: TransferCheckEvent = {
      type: 'TransferCheckFailed',
      data: { checkId: CHECK, code: 'tx_not_found', message: 'no such transaction', at: later(100) },
    };
    spec.given([requested(), failed]).when(complete([])).thenNothingHappened();
  });

  it('a failure is recorded with its code', () => {
    const state = spec
      .given([requested()])
      .when({ type: 'FailTransferCheck', code: 'tx_not_found', message: 'no such transaction', at: later(100) })
      .then([
        { type: 'TransferCheckFailed', data: { checkId: CHECK, code: 'tx_not_found', message: 'no such transaction', at: later(100) } },
      ]);
    expect(state).toMatchObject({ status: 'failed', failure: { code: 'tx_not_found' } });
  });

  it('the reaper times a check out only after 15 minutes, once', () => {
    spec
      .given([requested()])
      .when({ type: 'TimeOutTransferCheck', at: later(15 * 60_000 - 1) })
      .thenNothingHappened();
    const timedOut: TransferCheckEvent = { type: 'TransferCheckTimedOut', data: { checkId: CHECK, at: later(15 * 60_000) } };
    expect(
      spec
        .given([requested()])
        .when({ type: 'TimeOutTransferCheck', at: later(15 * 60_000) })
        .then([timedOut]).status,
    ).toBe('failed_timeout');
    spec
      .given([requested(), timedOut])
      .when({ type: 'TimeOutTransferCheck', at: later(16 * 60_000) })
      .thenNothingHappened();
  });

  it('commands on a check that was never requested are refused with not_found', () => {
    spec.given([]).when(complete([])).thenThrows('not_found');
    spec.given([]).when({ type: 'TimeOutTransferCheck', at: T0 }).thenThrows('not_found');
  });

  describe('retroactive exposure (an intelligence change re-evaluates a completed check)', () => {
    const REASONS = [{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-11-21', changedAt: later(86_400_000) }] as const;
    const completedWith = (alerts: PolicyAlert[]): TransferCheckEvent => ({
      type: 'TransferCheckCompleted',
      data: {
        checkId: CHECK,
        verdict: verdictWith(alerts),
        worstLevel: null,
        alertCount: alerts.length,
        sanctions: FIXTURE_COVERAGE,
        at: later(500),
      },
    });
    const reevaluate = (alerts: PolicyAlert[], changeKey = 'dataset:ofac_sdn:sha256:2'): TransferCheckCommand => ({
      type: 'ReevaluateTransferCheck',
      changeKey,
      reasons: REASONS.map((r) => ({ ...r })),
      policy: { id: 'standard', version: '2026-11-1' },
      facts: [],
      alerts,
      at: later(86_400_000),
    });
    const reevaluated = (alerts: PolicyAlert[], firstAlertIndex: number, changeKey = 'dataset:ofac_sdn:sha256:2'): TransferCheckEvent => ({
      type: 'TransferCheckReevaluated',
      data: {
        checkId: CHECK,
        changeKey,
        reasons: REASONS.map((r) => ({ ...r })),
        policy: { id: 'standard', version: '2026-11-1' },
        facts: [],
        alerts,
        firstAlertIndex,
        at: later(86_400_000),
      },
    });

    it('given a clean check, when a change makes the policy alert, it records the new alert and raises a retroactive webhook', () => {
      spec
        .given([requested(), completedWith([])])
        .when(reevaluate([alert('Severe')]))
        .thenMatches((events) => {
          expect(events[0]).toEqual(reevaluated([alert('Severe')], 0));
          const raised = events[1]!.data as { event_type: string; payload: Record<string, unknown> };
          expect(raised.event_type).toBe('tx.policy.alert.triggered');
          expect(raised.payload).toMatchObject({ check_id: CHECK, worst_level: 'Severe', retroactive: true });
          // The payload keeps the webhook's words, keys in the order they were always sent.
          expect(JSON.stringify(raised.payload.reasons)).toBe(
            JSON.stringify([{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-11-21', changed_at: later(86_400_000) }]),
          );
          expect(raised.payload.alerts).toEqual([alert('Severe')]);
        });
    });

    it('given a check that already alerted, only a new alert or a higher level counts, numbered after the earlier ones', () => {
      const given = [requested(), completedWith([alert('Low'), alert('Medium', 'Mixer')])];
      spec
        .given(given)
        .when(reevaluate([alert('Low'), alert('Medium', 'Mixer')]))
        .thenNothingHappened();
      spec
        .given(given)
        .when(reevaluate([alert('High'), alert('Medium', 'Mixer'), alert('Low', 'Scam')]))
        .thenMatches((events) => expect(events[0]).toEqual(reevaluated([alert('High'), alert('Low', 'Scam')], 2)));
    });

    it('given a change that already re-evaluated the check, the same change decides nothing; a later change counts from there', () => {
      const given = [requested(), completedWith([]), reevaluated([alert('High')], 0)];
      spec
        .given(given)
        .when(reevaluate([alert('Severe')]))
        .thenNothingHappened();
      spec
        .given(given)
        .when(reevaluate([alert('High')], 'curation:e1:added'))
        .thenNothingHappened();
      spec
        .given(given)
        .when(reevaluate([alert('Severe')], 'curation:e1:added'))
        .thenMatches((events) => expect(events[0]).toEqual(reevaluated([alert('Severe')], 1, 'curation:e1:added')));
    });

    it('given a running, failed or x402 check, a re-evaluation decides nothing', () => {
      spec
        .given([requested()])
        .when(reevaluate([alert('Severe')]))
        .thenNothingHappened();
      spec
        .given([requested('x402'), completedWith([])])
        .when(reevaluate([alert('Severe')]))
        .thenNothingHappened();
      spec
        .given([])
        .when(reevaluate([alert('Severe')]))
        .thenThrows('not_found');
    });
  });
});
