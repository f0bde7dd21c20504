import type { Network } from '../shared/network.js';
import type { ProviderAssessment } from '../inspect/provider-assessment.js';

/**
 * One independent risk provider of the multi-provider inspect: the service's own engine, or an outside
 * API shown under an alias (`provider_a`, `provider_b`, …). A provider never throws: whatever goes wrong
 * (HTTP 502/503, a timeout, an unreadable answer) is an `{ ok: false, error }` outcome, so the other
 * providers of the same inspect complete.
 */
export type ProviderOutcome =
  | {
      readonly ok: true;
      /** The provider's own answer, passed through to the client unchanged. */
      readonly raw: unknown;
      /** Our reading of `raw`, which the final audit is built from. */
      readonly assessment: ProviderAssessment;
    }
  | { readonly ok: false; readonly error: string };

export interface RiskProvider {
  /** The public name: the own engine's label or an alias; never the vendor's name. */
  readonly name: string;
  /** The adapter behind the name (e.g. `goplus_address_security`), for operators only. */
  readonly kind: string;
  /** `signal` aborts the call when the inspect's per-provider time budget is spent. */
  inspect(address: string, network: Network, signal: AbortSignal): Promise<ProviderOutcome>;
}
