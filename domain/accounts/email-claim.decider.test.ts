import { describe, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { emailClaimDecider, type EmailClaimCommand } from './email-claim.decider.js';
import type { EmailClaimEvent } from './email-claim.events.js';

const spec = deciderSpec(emailClaimDecider);
const T = '2026-03-10T12:00:00.000Z';
const claim = (userId: string, email = 'Ops@Example.test ', knownOwner: string | null = null): EmailClaimCommand => ({
  type: 'ClaimEmail',
  email,
  userId,
  knownOwner,
  at: T,
});
const claimed = (userId: string): EmailClaimEvent => ({ type: 'EmailClaimed', data: { email: 'ops@example.test', userId, at: T } });

describe('email claim decider (one account per email)', () => {
  it('the first account claims the address, normalized', () => {
    spec
      .given([])
      .when(claim('u1'))
      .then([claimed('u1')]);
  });

  it('the same account claiming again (a retried open) decides nothing', () => {
    spec
      .given([claimed('u1')])
      .when(claim('u1', 'ops@example.test'))
      .thenNothingHappened();
  });

  it('another account is refused with email_taken, naming the owner', () => {
    spec
      .given([claimed('u1')])
      .when(claim('u2', 'OPS@example.test'))
      .thenThrows('email_taken', { userId: 'u1' });
  });

  it('an account of an older data directory (no claim, known to the read model) keeps its address', () => {
    spec
      .given([])
      .when(claim('u2', 'ops@example.test', 'u-old'))
      .thenThrows('email_taken', { userId: 'u-old' });
    spec
      .given([])
      .when(claim('u-old', 'ops@example.test', 'u-old'))
      .then([claimed('u-old')]);
  });
});
