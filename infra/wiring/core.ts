import { join } from 'node:path';
import { createCommandExecutor } from '../../commands/command-executor.js';
import { addressCheckEventSchemas } from '../../domain/address-check/address-check.events.js';
import { idempotencyEventSchemas } from '../../domain/idempotency/idempotency.events.js';
import { transferCheckEventSchemas } from '../../domain/kyt/transfer-check.events.js';
import { silentLogger, type Logger } from '../../domain/ports/logger.port.js';
import { createInspectCompletions } from '../../projections/inspect-completions.js';
import { createIntelIndex } from '../../projections/intel-index.js';
import { createStreamChanges } from '../../projections/stream-changes.js';
import { rpcContractCodeReader } from '../chain/rpc-contract-code.js';
import type { Config } from '../config.js';
import { trackConsumerGroups } from '../metrics/consumer-groups.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { timedEventStore } from '../metrics/timed-event-store.js';
import { Ed25519VerdictSigner } from '../receipts/ed25519-verdict-signer.js';
import { createAsyncCorrelation } from '../system/async-correlation.js';
import { cryptoRandom } from '../system/crypto-random.js';
import { systemClock } from '../system/system-clock.js';
import { uuidIds } from '../system/uuid-ids.js';
import type { Ports } from '../topology/open-ports.js';

export type Core = Awaited<ReturnType<typeof createCore>>;

/**
 * What every feature shares: the ports wrapped in their metrics, the in-memory indexes folded from the log
 * (intelligence, inspect completions, the streams commands wait on), the receipts' signer, and the
 * commands' dependencies (executor, clock, ids, correlation).
 */
export async function createCore(config: Config, ports: Ports, logger: Logger | undefined) {
  // Metrics wrap the chosen adapters: append latency on any event store, the consumer groups this process runs.
  const metrics = createServiceMetrics({ token: config.METRICS_TOKEN ?? null });
  const store = timedEventStore(ports.store, metrics.registry);
  const bus = trackConsumerGroups(ports.bus);
  const correlation = createAsyncCorrelation();
  const intel = createIntelIndex({ requiredSanctions: config.SVC_REQUIRED_SANCTIONS });
  // smart_contract.is_contract from eth_getCode on the networks with an RPC configured, in every product's verdict.
  const contracts =
    config.SVC_RPC_URL_ETH || config.SVC_RPC_URL_BSC
      ? rpcContractCodeReader({ rpcUrls: { ETH: config.SVC_RPC_URL_ETH, BSC: config.SVC_RPC_URL_BSC } })
      : undefined;
  // The streams commands wait on (commands/wait-for-stream.ts): checks' outcomes and idempotent twins.
  const streamChanges = createStreamChanges([
    ...Object.keys(addressCheckEventSchemas),
    ...Object.keys(transferCheckEventSchemas),
    ...Object.keys(idempotencyEventSchemas),
  ]);
  const receipts = await Ed25519VerdictSigner.open(
    config.RECEIPT_KEYS_FILE ?? join(config.DATA_DIR, 'receipt-keys.json'),
    systemClock.now(),
  );
  const commands = {
    receipts,
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds, correlation }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: uuidIds.newId(),
    correlation,
    log: logger ?? silentLogger,
    changes: streamChanges,
    intel,
    ...(contracts ? { contracts } : {}),
  };
  const inspectCompletions = createInspectCompletions();
  return { metrics, store, bus, correlation, intel, contracts, streamChanges, inspectCompletions, receipts, commands };
}

/** The commands of another processor instance: its own executor on `store` and boot id. */
export function commandsOn(core: Core, store: Core['store']): Core['commands'] {
  const executor = createCommandExecutor({ store, clock: systemClock, ids: uuidIds, correlation: core.correlation });
  return { ...core.commands, executor, bootId: uuidIds.newId() };
}
