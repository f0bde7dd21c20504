import type { Position } from '../../domain/ports/event-store.port.js';
import type { LogEnd } from './lmdb-event-store.js';
import type { WrittenKeys } from './lmdb-read-store.js';

/** What the projection thread starts with (its `workerData`). */
export interface ProjectionThreadData {
  /** The worker's own module (ts-worker.mjs imports it). */
  readonly entry: string;
  /** The embedded store's directory (DATA_DIR/store). */
  readonly storeDir: string;
  readonly readModelsDir: string;
  readonly fsync: boolean;
  /** The checkpoint's name. */
  readonly name: string;
  /** Prefixes of the streams the sinks on the service's thread are rebuilt from (kept in SINK_STREAMS). */
  readonly sinkStreams: readonly string[];
  /** How far the log was durable when the thread was started. */
  readonly at: LogEnd;
}

export type ToProjectionThread =
  /** The writer made the log durable up to here. */
  | { readonly kind: 'follow'; readonly at: LogEnd }
  /** The service's thread wrote these read-model documents (a rebuild's swap): drop them from the cache. */
  | { readonly kind: 'forget'; readonly keys: WrittenKeys }
  /** Commit what is folded and end. */
  | { readonly kind: 'stop' };

export type FromProjectionThread =
  /** Running, its read models showing everything up to `position` (the checkpoint it resumed from). */
  | { readonly kind: 'started'; readonly position: Position | null }
  /**
   * The read models show everything up to `position` (`read`: events read so far). `written`: the
   * documents committed since the last report, which the service's thread must drop from its cache before
   * it lets anyone who waited for `position` read them (the same message, so they cannot come apart).
   */
  | {
      readonly kind: 'processed';
      readonly position: Position;
      readonly recordedAt: number | null;
      readonly read: number;
      readonly written: WrittenKeys;
    }
  | { readonly kind: 'error'; readonly message: string; readonly where: string }
  | { readonly kind: 'stopped'; readonly read: number };
