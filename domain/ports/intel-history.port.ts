import type { RecordedEvent } from './event-store.port.js';
import type { IntelIndex } from './intel-index.port.js';

/** The event a verdict was recorded by: the streams it may be in, and how to know it. */
export interface VerdictEventRef {
  /** A prefix of the stream the verdict's event is in (its check's stream, its charge's ledger). */
  readonly streamPrefix: string;
  readonly isVerdict: (event: RecordedEvent) => boolean;
}

/** How far a replay's fold has read: intelligence events folded, and all events of the log read. */
export interface FoldProgress {
  readonly intelEvents: number;
}

/**
 * The intelligence index as the log held it when a verdict was made (docs/ARCHITECTURE.md#verdict-replay):
 * every dataset import and curation recorded before the verdict's own event, folded again. Bounded to the
 * addresses a replay asks about: every source's version and content hash are kept, the claims of other
 * addresses are not, so it costs one read of the intelligence streams and little memory.
 */
export interface IntelHistory {
  /** Null when the verdict's event is not in the log. Ends early (null) when `signal` aborts. */
  asOf(query: {
    readonly addresses: readonly string[];
    readonly verdict: VerdictEventRef;
    readonly signal: AbortSignal;
    readonly onProgress?: (progress: FoldProgress) => void;
  }): Promise<IntelIndex | null>;
}
