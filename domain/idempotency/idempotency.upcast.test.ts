import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider.js';
import { claimOutcome, idempotencyDecider } from './idempotency.decider.js';
import { STORED_TRANSFER_CHECKS, transferCheckCompletedOf } from '../../test/support/stored-transfer-checks.js';
import { transferVerdictOfV1, type TransferResultV1 } from '../kyt/transfer-check-completed.upcast.js';
import { chargedBillingOfEnvelope } from '../ledger/charged-billing.upcast.js';
import { transferDeliverySchema } from './keyed-outcomes.js';
import { outcomeStoredV1toV2, parseIdempotencyEvent, upcastResponseStored } from './idempotency.upcast.js';

const T0 = '2026-03-10T12:00:00.000Z';
const claimedV1 = {
  type: 'IdempotencyKeyClaimed',
  data: { callId: 'call-1', route: 'POST /v2/screen', requestHash: 'h', bootId: 'boot-1', at: T0 },
};
/** The event as a data directory written before outcomes were stored holds it (schema version 1). */
const responseStoredV1 = {
  type: 'IdempotentResponseStored',
  data: { callId: 'call-1', status: 200, body: { verdict: { risk_level: 'low' }, billing: { model: 'quota', replay: false } }, at: T0 },
};

describe('idempotency events: version 1 (a stored HTTP answer) is read as version 2', () => {
  it('the upcast keeps the recorded answer verbatim', () => {
    expect(upcastResponseStored(responseStoredV1.data)).toEqual({
      type: 'IdempotentOutcomeStored',
      data: { callId: 'call-1', result: { kind: 'recordedAnswer', code: 200, body: responseStoredV1.data.body }, at: T0 },
    });
  });

  it('a history holding the old shape replays the answer recorded then, and claims nothing', () => {
    const history = [claimedV1, responseStoredV1].map((event) => parseIdempotencyEvent(event)).filter((event) => event !== null);
    expect(history.map((event) => event.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotentOutcomeStored']);
    const state = fold(idempotencyDecider, idempotencyDecider.initialState(), history);
    const produced = idempotencyDecider.decide(
      { type: 'Claim', callId: 'call-2', route: 'POST /v2/screen', requestHash: 'h', bootId: 'boot-2', at: T0 },
      state,
    );
    expect(produced).toEqual([]);
    expect(claimOutcome(produced, state)).toEqual({
      kind: 'replay',
      stored: { kind: 'recordedAnswer', code: 200, body: responseStoredV1.data.body },
    });
  });

  it('an unknown type is skipped, a malformed old event is refused', () => {
    expect(parseIdempotencyEvent({ type: 'SomethingElse', data: {} })).toBeNull();
    expect(() => parseIdempotencyEvent({ type: 'IdempotentResponseStored', data: { callId: 'call-1', body: {}, at: T0 } })).toThrow();
  });
});

describe('a transfer check delivery stored under a key before transfer verdicts were domain facts', () => {
  const stored = STORED_TRANSFER_CHECKS.checks.find((check) => transferCheckCompletedOf(check) !== undefined)!;
  const result = transferCheckCompletedOf(stored)!.data.result as TransferResultV1;
  const envelope = {
    model: 'ledger',
    currency: 'USD',
    charged_usd: 0.5,
    balance_usd: 9.5,
    monthly_spent_usd: 0.5,
    monthly_cap_usd: null,
    replay: false,
  };
  const v1 = {
    callId: 'call-1',
    result: { kind: 'outcome', outcome: { kind: 'completed', result, receipt: 'r', billing: envelope } },
    at: T0,
  };

  it('replays as the verdict its TransferCheckCompleted upcasts to, with the charge it paid', () => {
    const upcast = outcomeStoredV1toV2(v1) as { result: { outcome: unknown } };
    const delivery = transferDeliverySchema.parse(upcast.result.outcome);
    expect(delivery).toEqual({
      kind: 'completed',
      verdict: transferVerdictOfV1(result),
      receipt: 'r',
      billing: chargedBillingOfEnvelope(envelope),
    });
  });
});
