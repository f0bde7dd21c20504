import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import { present } from '../../domain/shared/present.js';
import type { Hex } from 'viem';
import type { CommandDeps } from '../../commands/command-deps.js';
import type { TransferCheckDeps } from '../../commands/kyt/transfer-check-deps.js';
import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import type { Facilitator } from '../../domain/ports/facilitator.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import type { X402Terms } from '../../domain/x402/x402-networks.js';
import { x402PaymentRepository, type X402PaymentRepository } from '../../projections/x402-payments.projection.js';
import { x402RevenueRepository, type X402RevenueRepository } from '../../projections/x402-revenue.projection.js';
import type { PipelineApi } from '../../read-api/pipeline-api.js';
import type { X402AppServices } from '../../read-api/x402/x402-services.js';
import { createInProcessRateLimits } from '../embedded/in-process-rate-limits.js';
import { publicClientFor } from './chain-reader.js';
import { withChainChecks } from './chain-checked-facilitator.js';
import { createGasWallet } from './gas-wallet.js';
import { createHttpFacilitator } from './http-facilitator.js';
import { createLocalFacilitator } from './local-facilitator.js';
import { trustedProxiesOf, x402TermsOf, type X402Config } from './x402-config.js';

export interface X402Module {
  /** The x402 app's services; null when the channel is off (no X402_PAY_TO). */
  readonly app: X402AppServices | null;
  readonly payments: X402PaymentRepository;
  readonly revenue: X402RevenueRepository;
}

/**
 * Everything the x402 channel adds to a service: its terms, the facilitator adapter (X402_FACILITATOR:
 * `local` settles from our gas wallet on X402_RPC_URL; `http` asks a hosted facilitator, with on-chain
 * checks on X402_RPC_URL when it is set) and its read models.
 */
export function createX402Module(deps: {
  config: X402Config;
  commands: CommandDeps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };
  readStore: ReadStore;
  /** The full check, explore jobs and transfer checks, served on the channel too. */
  pipeline?: PipelineApi;
  transferChecks?: TransferCheckDeps;
  /** The shared call counter of an external deployment (MongoDB); this process's token buckets without. */
  rateLimits?: CallRateLimits;
}): X402Module {
  const { config } = deps;
  const terms = x402TermsOf(config);
  const accounting = { payments: x402PaymentRepository(deps.readStore), revenue: x402RevenueRepository(deps.readStore) };
  if (!terms) return { app: null, ...accounting };
  return {
    app: {
      deps: { ...deps.commands, facilitator: facilitatorFor(config, terms, deps.commands), terms },
      limits: { paidPerMinute: config.X402_PAID_CALLS_PER_MINUTE, freePerMinute: config.X402_FREE_CALLS_PER_MINUTE },
      rateLimits: deps.rateLimits ?? createInProcessRateLimits(),
      trustedProxies: trustedProxiesOf(config),
      ...(config.X402_PUBLIC_URL ? { publicUrl: config.X402_PUBLIC_URL } : {}),
      ...(deps.pipeline ? { pipeline: deps.pipeline } : {}),
      ...(deps.transferChecks ? { transfers: deps.transferChecks } : {}),
      checkWaitMs: config.X402_CHECK_WAIT_MS,
    },
    ...accounting,
  };
}

function facilitatorFor(config: X402Config, terms: X402Terms, commands: CommandDeps): Facilitator {
  const client = config.X402_RPC_URL ? publicClientFor(terms.network, config.X402_RPC_URL, config.X402_RPC_TIMEOUT_MS) : null;
  if (config.X402_FACILITATOR === 'http') {
    const hosted = createHttpFacilitator({
      url: present(config.X402_FACILITATOR_URL, 'the config requires X402_FACILITATOR_URL for the http facilitator'),
      timeoutMs: config.X402_SETTLE_TIMEOUT_MS,
      ...(config.X402_FACILITATOR_AUTHORIZATION ? { authorization: config.X402_FACILITATOR_AUTHORIZATION } : {}),
    });
    return client ? withChainChecks(hosted, { network: terms.network, client }) : hosted;
  }
  const wallet = createGasWallet({
    client: present(client, 'the config requires X402_RPC_URL for the local facilitator'),
    privateKey: config.X402_GAS_WALLET_KEY as Hex,
    chainId: terms.network.chainId,
    receiptPollMs: config.X402_RECEIPT_POLL_MS,
    receiptTimeoutMs: config.X402_SETTLE_TIMEOUT_MS,
  });
  return createLocalFacilitator({
    network: terms.network,
    client: present(client, 'the config requires X402_RPC_URL for the local facilitator'),
    wallet,
    clock: commands.clock,
  });
}
