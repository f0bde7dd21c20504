import type { CommandDeps } from '../commands/command-deps.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import type { MessageBus } from '../domain/ports/message-bus.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { VerdictSigner } from '../domain/ports/verdict-signer.port.js';
import type { ProjectionRunner } from '../processors/projection-runner.js';
import type { Relay } from '../processors/relay.js';
import type { accountRepository } from '../projections/accounts.projection.js';
import type { apiKeyRepository } from '../projections/api-keys.projection.js';
import type { balanceRepository } from '../projections/balances.projection.js';
import type { usageRepository } from '../projections/usage-rows.js';
import type { AppServices } from '../read-api/services.js';
import type { Config } from './config.js';
import type { FullCheckModule } from './full-check/full-check-module.js';
import type { TransferCheckModule } from './kyt/transfer-check-module.js';
import type { MonitorModule } from './monitors/monitor-module.js';
import type { Ed25519VerdictSigner } from './receipts/ed25519-verdict-signer.js';
import type { X402Module } from './x402/x402-module.js';

/** What createServices (bootstrap.ts) returns: the parts of one process, which main, the CLI and tests use. */
export interface Services {
  readonly config: Config;
  readonly store: EventStore;
  readonly bus: MessageBus;
  readonly readStore: ReadStore;
  readonly intel: IntelIndex & { apply(event: { type: string; data: unknown }): void };
  readonly commands: CommandDeps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };
  /** The verdict receipts' signer and key ring (rotation by the CLI). */
  readonly receipts: Ed25519VerdictSigner;
  readonly projections: ProjectionRunner;
  /** Copies `$all` onto Kafka (BUS=kafka); null with the embedded bus, which reads the log itself. */
  readonly relay: Relay | null;
  readonly app: AppServices;
  /** The x402 channel: the x402 app's services (null while the channel is off) and its accounting read models. */
  readonly x402: X402Module;
  /** Full check, explore jobs and the reaper: the transfer index, prices, pipeline processors. */
  readonly fullCheck: FullCheckModule;
  /** Transfer checks (KYT): decoders, prices and the commands' deps (the x402 channel and tests use them). */
  readonly transferChecks: TransferCheckModule;
  /** Monitors: the re-evaluation processor, monthly renewals and the operator's stats. */
  readonly monitors: MonitorModule;
  readonly repositories: {
    readonly accounts: ReturnType<typeof accountRepository>;
    readonly apiKeys: ReturnType<typeof apiKeyRepository>;
    readonly usage: ReturnType<typeof usageRepository>;
    readonly balances: ReturnType<typeof balanceRepository>;
  };
  /** Replays the log into the read models and starts the relay and processors. */
  start(): Promise<void>;
  /** Resolves once everything appended so far is projected, relayed and processed (tests never sleep). */
  whenCaughtUp(): Promise<void>;
  /** Stops in reverse start order, waiting for work in flight. */
  close(): Promise<void>;
  /**
   * Starts one more instance of every processor on `bus`, in the same consumer groups, with its own command
   * executor on `store` (default: this service's), as a ROLE=processors process would; scale-out tests run
   * several in one process. It shares this process's read models and in-memory indexes.
   */
  startProcessorsOn(options: { bus: MessageBus; store?: EventStore }): Promise<{ whenCaughtUp(): Promise<void>; stop(): Promise<void> }>;
}
