import type { Clock } from '../domain/ports/clock.port.js';
import type { CorrelationScope } from '../domain/ports/correlation.port.js';
import type { Ids } from '../domain/ports/ids.port.js';
import type { Logger } from '../domain/ports/logger.port.js';
import type { Random } from '../domain/ports/random.port.js';
import type { StreamChanges } from '../domain/ports/stream-changes.port.js';
import type { CommandExecutor } from './command-executor.js';

/** What every command handler needs; assembled once by infra/wiring/core.ts. */
export interface CommandDeps {
  readonly executor: CommandExecutor;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly random: Random;
  /** Identifies this process's life; idempotency claims of an earlier life are taken over. */
  readonly bootId: string;
  /**
   * The correlation scope the executor reads; processor runners on these deps run each event's work in it
   * and log through `log` (see processors/processor-runner.ts).
   */
  readonly correlation?: CorrelationScope;
  readonly log?: Logger;
  /** Wakes a waiting command when its stream changes (commands/wait-for-stream.ts); without it, waits re-read on a backoff. */
  readonly changes?: StreamChanges;
}
