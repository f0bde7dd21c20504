import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import type { TransactionDecoder } from '../../domain/ports/transaction-decoder.port.js';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import type { CommandDeps } from '../command-deps.js';

/** What the transfer check (KYT) needs beyond every command's deps; assembled by infra/wiring. */
export interface TransferCheckDeps extends CommandDeps {
  readonly intel: IntelIndex;
  /** Signs each result's receipt when delivered. */
  readonly receipts: VerdictSigner;
  readonly decoder: TransactionDecoder;
  readonly prices: Prices;
  /** The transfer index behind indirect exposure; null when the deployment has none. */
  readonly transfers: TransferIndex | null;
  /** Monotonic milliseconds (performance.now) for the graph search's time budget. */
  readonly monotonicNow: () => number;
}
