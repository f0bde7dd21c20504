import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import { fail } from '../../domain/shared/errors.js';
import { clientGroup } from './client-address.js';

/**
 * Per-client limits, one per class of call: `paid` (a request carrying a payment proof, checked before any
 * signature work) and `free` (quotes and the result endpoints). The counting is the CallRateLimits port's:
 * this process's token buckets (embedded) or a counter shared by every instance (external). A refusal is
 * `rate_limit_exceeded` with the seconds until a call is allowed again.
 */
export function createRateLimiter(options: { clock: Clock; paidPerMinute: number; freePerMinute: number; limits: CallRateLimits }) {
  return {
    async take(kind: 'paid' | 'free', ip: string): Promise<void> {
      const perMinute = kind === 'paid' ? options.paidPerMinute : options.freePerMinute;
      const decision = await options.limits.take(`${kind}|${clientGroup(ip)}`, perMinute, options.clock.now().getTime());
      if (!decision.allowed) {
        const limit = kind === 'paid' ? `${perMinute} paid calls` : `${perMinute} free requests`;
        throw fail('rate_limit_exceeded', `more than ${limit} per minute from this address; retry in ${decision.retryAfterSeconds} s`, {
          retryAfterSeconds: decision.retryAfterSeconds,
        });
      }
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
