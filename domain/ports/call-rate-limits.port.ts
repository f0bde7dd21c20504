/** The answer to one call against a per-minute limit. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Counts calls per key (a class of calls and a client) against `perMinute`, time passed in as milliseconds.
 * Embedded: token buckets in this process. External: one counter per key and minute in the shared store
 * (MongoDB), so N API instances enforce the limit together instead of N times over. An unreachable store
 * rejects `backend_unavailable`.
 */
export interface CallRateLimits {
  take(key: string, perMinute: number, nowMs: number): Promise<RateDecision>;
}
