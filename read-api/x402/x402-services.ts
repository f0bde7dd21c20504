import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import type { TransferCheckDeps } from '../../commands/kyt/transfer-check-deps.js';
import type { X402Deps } from '../../commands/x402/pay-for-call.js';
import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { PipelineApi } from '../pipeline-api.js';

/** What the x402 app uses; assembled by infra/wiring when the channel is configured. */
export interface X402AppServices {
  readonly deps: X402Deps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };
  readonly limits: { readonly paidPerMinute: number; readonly freePerMinute: number };
  /** Where calls are counted: this process (embedded) or the store every instance shares (external). */
  readonly rateLimits: CallRateLimits;
  /**
   * Addresses or CIDR ranges of the proxies in front of the service (e.g. `10.0.0.0/8`, `loopback`): the
   * client is the first X-Forwarded-For hop that is not one of them. Empty: the socket's peer is the client.
   */
  readonly trustedProxies: readonly string[];
  /** The public base of the x402 URLs, for quotes' `resource.url`; the request's own host when unset. */
  readonly publicUrl?: string;
  /** The full check and explore jobs (budgets); their paid routes exist when this is set. */
  readonly pipeline?: PipelineApi;
  /** The transfer check (KYT); its paid route and free result route exist when this is set. */
  readonly transfers?: TransferCheckDeps;
  /** How long a paid asynchronous check waits for its result before answering 202 (the spec: 30 s). */
  readonly checkWaitMs: number;
}
