import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { fold } from '../shared/decider.js';
import { claimOutcome, IDEMPOTENCY_WINDOW_MS, idempotencyDecider, type IdempotencyCommand } from './idempotency.decider.js';
import type { IdempotencyEvent } from './idempotency.events.js';

const spec = deciderSpec(idempotencyDecider);

const T0 = '2026-03-10T12:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const ROUTE = 'POST /v2/screen';
const BODY = 'hash-of-body-a';
const OTHER_BODY = 'hash-of-body-b';

const claim = (callId: string, o: { bootId?: string; at?: string; requestHash?: string; route?: string } = {}): IdempotencyCommand => ({
  type: 'Claim',
  callId,
  route: o.route ?? ROUTE,
  requestHash: o.requestHash ?? BODY,
  bootId: o.bootId ?? 'boot-1',
  at: o.at ?? T0,
});
const claimed = (callId: string, o: { bootId?: string; at?: string; requestHash?: string } = {}): IdempotencyEvent => ({
  type: 'IdempotencyKeyClaimed',
  data: { callId, route: ROUTE, requestHash: o.requestHash ?? BODY, bootId: o.bootId ?? 'boot-1', at: o.at ?? T0 },
});
const outcome = { kind: 'completed', verdict: 'ok', billing: { model: 'quota', replay: false } };
const stored = (callId: string, at = later(1_000)): IdempotencyEvent => ({
  type: 'IdempotentOutcomeStored',
  data: { callId, result: { kind: 'outcome', outcome }, at },
});
const released = (callId: string, at = later(1_000)): IdempotencyEvent => ({ type: 'IdempotencyClaimReleased', data: { callId, at } });

/** What the requester of `command` is told to do, given the history. */
function outcomeOf(history: IdempotencyEvent[], command: IdempotencyCommand) {
  const state = fold(idempotencyDecider, idempotencyDecider.initialState(), history);
  const produced = idempotencyDecider.decide(command, state);
  return claimOutcome(produced, fold(idempotencyDecider, state, produced));
}

describe('idempotency decider: claims', () => {
  it('the first request with a key claims it and executes under its own call id', () => {
    spec
      .given([])
      .when(claim('call-1'))
      .then([claimed('call-1')]);
    expect(outcomeOf([], claim('call-1'))).toEqual({ kind: 'execute', callId: 'call-1' });
  });

  it('the same key and body after StoreOutcome replays the stored outcome and decides nothing', () => {
    const history = [claimed('call-1'), stored('call-1')];
    spec
      .given(history)
      .when(claim('call-2', { at: later(60_000) }))
      .thenNothingHappened();
    expect(outcomeOf(history, claim('call-2', { at: later(60_000) }))).toEqual({ kind: 'replay', stored: { kind: 'outcome', outcome } });
    // a restarted process replays too: a stored outcome is never taken over
    spec
      .given(history)
      .when(claim('call-2', { bootId: 'boot-2' }))
      .thenNothingHappened();
    expect(outcomeOf(history, claim('call-2', { bootId: 'boot-2' }))).toEqual({ kind: 'replay', stored: { kind: 'outcome', outcome } });
  });

  it('the same key with a different body (or route) is an idempotency_conflict, whether running or done', () => {
    spec
      .given([claimed('call-1')])
      .when(claim('call-2', { requestHash: OTHER_BODY }))
      .thenThrows('idempotency_conflict');
    spec
      .given([claimed('call-1'), stored('call-1')])
      .when(claim('call-2', { requestHash: OTHER_BODY }))
      .thenThrows('idempotency_conflict');
    spec
      .given([claimed('call-1')])
      .when(claim('call-2', { route: 'POST /v2/check-transfer' }))
      .thenThrows('idempotency_conflict');
    // another boot may not take over a claim with another body either
    spec
      .given([claimed('call-1')])
      .when(claim('call-2', { requestHash: OTHER_BODY, bootId: 'boot-2' }))
      .thenThrows('idempotency_conflict');
  });

  it('a concurrent twin in the same boot gets in_progress and decides nothing', () => {
    spec
      .given([claimed('call-1')])
      .when(claim('call-2', { at: later(5) }))
      .thenNothingHappened();
    expect(outcomeOf([claimed('call-1')], claim('call-2', { at: later(5) }))).toEqual({ kind: 'in_progress' });
  });

  it('a claim left by another bootId is taken over with the SAME call id and the original claim time', () => {
    const history = [claimed('call-1', { bootId: 'boot-1' })];
    const state = spec
      .given(history)
      .when(claim('call-2', { bootId: 'boot-2', at: later(30_000) }))
      .then([claimed('call-1', { bootId: 'boot-2', at: T0 })]);
    expect(state.claim).toMatchObject({ callId: 'call-1', bootId: 'boot-2', at: T0 });
    expect(outcomeOf(history, claim('call-2', { bootId: 'boot-2', at: later(30_000) }))).toEqual({ kind: 'execute', callId: 'call-1' });
    // the new owner's twins then wait
    const takenOver = [...history, claimed('call-1', { bootId: 'boot-2' })];
    expect(outcomeOf(takenOver, claim('call-3', { bootId: 'boot-2' }))).toEqual({ kind: 'in_progress' });
  });

  it('expires after 24 h: a new claim starts afresh, with a new call id and even another body', () => {
    const history = [claimed('call-1'), stored('call-1')];
    spec
      .given(history)
      .when(claim('call-2', { at: later(IDEMPOTENCY_WINDOW_MS), requestHash: OTHER_BODY }))
      .then([claimed('call-2', { at: later(IDEMPOTENCY_WINDOW_MS), requestHash: OTHER_BODY })]);
    expect(outcomeOf(history, claim('call-2', { at: later(IDEMPOTENCY_WINDOW_MS) }))).toEqual({ kind: 'execute', callId: 'call-2' });
    // one millisecond before, it still replays / conflicts
    spec
      .given(history)
      .when(claim('call-2', { at: later(IDEMPOTENCY_WINDOW_MS - 1) }))
      .thenNothingHappened();
    spec
      .given(history)
      .when(claim('call-2', { at: later(IDEMPOTENCY_WINDOW_MS - 1), requestHash: OTHER_BODY }))
      .thenThrows('idempotency_conflict');
    // an in-flight claim also expires (measured from the original claim, not the takeover)
    const takenOver = [claimed('call-1'), claimed('call-1', { bootId: 'boot-2', at: T0 })];
    spec
      .given(takenOver)
      .when(claim('call-3', { bootId: 'boot-2', at: later(IDEMPOTENCY_WINDOW_MS) }))
      .then([claimed('call-3', { bootId: 'boot-2', at: later(IDEMPOTENCY_WINDOW_MS) })]);
  });

  it('Release frees the key: the next claim executes with a new call id, any body', () => {
    const history = [claimed('call-1'), released('call-1')];
    spec
      .given(history)
      .when(claim('call-2', { at: later(2_000) }))
      .then([claimed('call-2', { at: later(2_000) })]);
    spec
      .given(history)
      .when(claim('call-2', { at: later(2_000), requestHash: OTHER_BODY }))
      .then([claimed('call-2', { at: later(2_000), requestHash: OTHER_BODY })]);
    expect(outcomeOf(history, claim('call-2'))).toEqual({ kind: 'execute', callId: 'call-2' });
  });
});

describe('idempotency decider: settling a claim', () => {
  it('StoreOutcome records the outcome of the current claim once', () => {
    spec
      .given([claimed('call-1')])
      .when({ type: 'StoreOutcome', callId: 'call-1', outcome, at: later(1_000) })
      .then([stored('call-1')]);
    spec
      .given([claimed('call-1'), stored('call-1')])
      .when({ type: 'StoreOutcome', callId: 'call-1', outcome: { kind: 'other' }, at: later(2_000) })
      .thenNothingHappened();
  });

  it('StoreOutcome or Release from a call that no longer holds the key decides nothing', () => {
    spec.given([]).when({ type: 'StoreOutcome', callId: 'call-1', outcome, at: T0 }).thenNothingHappened();
    spec
      .given([claimed('call-2')])
      .when({ type: 'StoreOutcome', callId: 'call-1', outcome, at: T0 })
      .thenNothingHappened();
    spec.given([]).when({ type: 'Release', callId: 'call-1', at: T0 }).thenNothingHappened();
    spec
      .given([claimed('call-2')])
      .when({ type: 'Release', callId: 'call-1', at: T0 })
      .thenNothingHappened();
    spec
      .given([claimed('call-1'), released('call-1')])
      .when({ type: 'Release', callId: 'call-1', at: later(3_000) })
      .thenNothingHappened();
  });

  it('Release frees an unsettled claim but never erases a stored outcome', () => {
    const state = spec
      .given([claimed('call-1')])
      .when({ type: 'Release', callId: 'call-1', at: later(1_000) })
      .then([released('call-1')]);
    expect(state).toEqual({ claim: null, stored: null });
    spec
      .given([claimed('call-1'), stored('call-1')])
      .when({ type: 'Release', callId: 'call-1', at: later(2_000) })
      .thenNothingHappened();
  });

  it('the process that took a claim over settles it under the shared call id', () => {
    const takenOver = [claimed('call-1', { bootId: 'boot-1' }), claimed('call-1', { bootId: 'boot-2' })];
    spec
      .given(takenOver)
      .when({ type: 'StoreOutcome', callId: 'call-1', outcome, at: later(1_000) })
      .then([stored('call-1')]);
  });
});
