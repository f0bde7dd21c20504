import type { CommandDeps } from '../../commands/command-deps.js';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import type { TransferCheckDeps } from '../../commands/kyt/transfer-check-deps.js';
import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { transferCheckProcessor, type TransferCheckProcessor } from '../../processors/transfer-check.processor.js';
import type { TransferApi } from '../../read-api/transfer-api.js';
import { createChainDecoders } from '../chain/chain-decoders.js';
import type { Config } from '../config.js';
import { createCoinGeckoPrices, firstPriced } from '../prices/coingecko-prices.js';
import { chainEndpoints } from './kyt-config.js';

/**
 * The transfer check (KYT), assembled from the configuration: one transaction decoder per configured
 * chain, the prices (the service's snapshot, or CoinGecko in front of it), the full check's transfer
 * index for indirect exposure, the pipeline processor and what the routes need.
 */
export interface TransferCheckModule {
  readonly api: TransferApi;
  /** For the x402 channel and tests: the deps the transfer-check commands take. */
  readonly deps: TransferCheckDeps;
  /** The pipeline processor, issuing its commands through `commands` (this process's or another instance's). */
  processorFor(commands: CommandDeps): TransferCheckProcessor;
}

export function createTransferCheckModule(input: {
  config: Config;
  commands: CommandDeps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };
  prices: Prices;
  transfers: TransferIndex | null;
}): TransferCheckModule {
  const { config } = input;
  const endpoints = chainEndpoints(config);
  const decoder = createChainDecoders({
    rpcUrls: endpoints.evm,
    ...(endpoints.tron ? { tron: endpoints.tron } : {}),
    timeoutMs: config.CHAIN_RPC_TIMEOUT_MS,
  });
  const prices =
    config.SVC_KYT_PRICES === 'coingecko'
      ? firstPriced([
          createCoinGeckoPrices({
            baseUrl: config.COINGECKO_API_URL,
            timeoutMs: config.CHAIN_RPC_TIMEOUT_MS,
            ...(config.COINGECKO_API_KEY ? { apiKey: config.COINGECKO_API_KEY } : {}),
          }),
          input.prices,
        ])
      : input.prices;
  const limits = { concurrency: config.SVC_KYT_CHECK_CONCURRENCY, timeoutMs: config.SVC_KYT_CHECK_TIMEOUT_MS };
  const deps: TransferCheckDeps = { ...input.commands, decoder, prices, transfers: input.transfers, monotonicNow: () => performance.now() };
  return {
    api: { deps, syncWaitMs: config.SVC_KYT_SYNC_WAIT_MS },
    deps,
    processorFor: (commands) => transferCheckProcessor({ ...deps, ...commands }, limits),
  };
}
