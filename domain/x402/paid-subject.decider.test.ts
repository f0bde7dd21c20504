import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { paidSubjectDecider } from './paid-subject.decider.js';
import type { PaidSubjectEvent } from './paid-subject.events.js';

const spec = deciderSpec(paidSubjectDecider);
const AT = '2026-06-01T12:00:00.000Z';
const TX = `0x${'cd'.repeat(32)}`;
const claim = (callId: string) => ({ type: 'Claim' as const, callId, product: 'check_transfer', subject: 'ETH:0xfeed', at: AT });
const claimed = (callId: string): PaidSubjectEvent => ({
  type: 'PaidSubjectClaimed',
  data: { callId, product: 'check_transfer', subject: 'ETH:0xfeed', at: AT },
});
const confirmed: PaidSubjectEvent = { type: 'PaidSubjectConfirmed', data: { callId: 'call-1', transaction: TX, at: AT } };

describe('paid subject decider: one payment per subject', () => {
  it('the first payer claims the subject; later payers decide nothing and are served without settling', () => {
    spec
      .given([])
      .when(claim('call-1'))
      .then([claimed('call-1')]);
    expect(
      spec
        .given([claimed('call-1')])
        .when(claim('call-2'))
        .thenNothingHappened().holder,
    ).toBe('call-1');
    expect(
      spec
        .given([claimed('call-1'), confirmed])
        .when(claim('call-2'))
        .thenNothingHappened(),
    ).toEqual({ holder: 'call-1', transaction: TX });
  });

  it('the holder confirms with its settlement, or releases the claim when the settlement failed', () => {
    spec
      .given([claimed('call-1')])
      .when({ type: 'Confirm', callId: 'call-1', transaction: TX, at: AT })
      .then([confirmed]);
    const released = spec
      .given([claimed('call-1')])
      .when({ type: 'Release', callId: 'call-1', at: AT })
      .then([{ type: 'PaidSubjectReleased', data: { callId: 'call-1', at: AT } }]);
    expect(released.holder).toBeNull();
    spec
      .given([claimed('call-1'), { type: 'PaidSubjectReleased', data: { callId: 'call-1', at: AT } }])
      .when(claim('call-2'))
      .then([claimed('call-2')]);
  });

  it('a paid subject is never released, and only the holder confirms or releases', () => {
    spec
      .given([claimed('call-1'), confirmed])
      .when({ type: 'Release', callId: 'call-1', at: AT })
      .thenNothingHappened();
    spec
      .given([claimed('call-1')])
      .when({ type: 'Release', callId: 'call-2', at: AT })
      .thenNothingHappened();
    spec
      .given([claimed('call-1')])
      .when({ type: 'Confirm', callId: 'call-2', transaction: TX, at: AT })
      .thenNothingHappened();
  });
});
