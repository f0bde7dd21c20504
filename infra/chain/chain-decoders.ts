import type { DecodedTransaction } from '../../domain/kyt/decoded-transaction.js';
import type { TransactionDecoder } from '../../domain/ports/transaction-decoder.port.js';
import { fail } from '../../domain/shared/errors.js';
import { TRANSFER_CHAINS, type Chain } from '../../domain/shared/network.js';
import { evmTransactionDecoder } from './evm-transaction-decoder.js';
import { tronHttpDecoder } from './tron-http-decoder.js';

/** The TransactionDecoder of the service: one adapter per configured chain (EVM JSON-RPC, TRON HTTP API). */
export function createChainDecoders(options: {
  readonly rpcUrls: Partial<Record<Exclude<Chain, 'TRON'>, string>>;
  readonly tron?: { readonly baseUrl: string; readonly apiKey?: string };
  readonly timeoutMs: number;
}): TransactionDecoder {
  const decoders = new Map<Chain, { decode(txHash: string): Promise<DecodedTransaction> }>();
  for (const chain of TRANSFER_CHAINS) {
    if (chain === 'TRON') {
      if (options.tron) decoders.set(chain, tronHttpDecoder({ ...options.tron, timeoutMs: options.timeoutMs }));
      continue;
    }
    const rpcUrl = options.rpcUrls[chain];
    if (rpcUrl) decoders.set(chain, evmTransactionDecoder({ chain, rpcUrl, timeoutMs: options.timeoutMs }));
  }
  return {
    chains: () => [...decoders.keys()],
    async decode(chain, txHash) {
      const decoder = decoders.get(chain);
      if (!decoder) throw fail('backend_unavailable', `no endpoint is configured for ${chain}`);
      return decoder.decode(txHash);
    },
  };
}
