import type { SanctionsMatch } from '../intel/screen-verdict.schema.js';
import { MAX_DIFFERENCES, verdictDifferences, type VerdictDifference } from './verdict-diff.js';

/**
 * A verdict recomputed from the event log (docs/ARCHITECTURE.md#verdict-replay): as of its own time, to
 * prove what was known then, and optionally with today's data beside it, to show what changed since.
 */
export const REPLAYABLE_KINDS = ['screen', 'full_check', 'transfer_check', 'inspect', 'monitor_change'] as const;
export type ReplayableKind = (typeof REPLAYABLE_KINDS)[number];

/** A source row of a verdict's `coverage.data_versions.sources`. */
export interface SourceRow {
  readonly source: string;
  readonly version: string;
  readonly content_hash: string;
  /** Absent in verdicts kept before it was recorded. */
  readonly imported_at?: string | undefined;
}

/** The domain's source versions as the rows a replay compares and tells changes from. */
export const sourceRowsOf = (
  sources: readonly { source: string; version: string; contentHash: string; importedAt?: string | undefined }[],
): SourceRow[] => sources.map((s) => ({ source: s.source, version: s.version, content_hash: s.contentHash, imported_at: s.importedAt }));

/** One recomputation: the value compared with the stored verdict, and the facts "what changed since" is told from. */
export interface Recomputed {
  readonly value: unknown;
  readonly sources: readonly SourceRow[];
  readonly sanctions: readonly SanctionsMatch[];
}

/**
 * An outside provider's answer a replay reuses as recorded (an inspect's providers): it is not asked again,
 * so the replay proves what the verdict made of the answer, not what the provider would say now.
 */
export interface RecordedAnswer {
  readonly provider: string;
  readonly kind: string;
  /** `failed`: the provider did not answer then; the replay counts it as failed again. */
  readonly outcome: 'answered' | 'failed';
}

export interface ReplayComparison {
  readonly identical: boolean;
  /** The first MAX_DIFFERENCES differing leaves; `differenceCount` says how many there are. */
  readonly differences: readonly VerdictDifference[];
  readonly differenceCount: number;
}

export interface VerdictReplay {
  readonly verdictId: string;
  readonly kind: ReplayableKind;
  /** When the verdict was made: the data and policy are read as they were then. */
  readonly madeAt: string;
  /** The verdict recomputed as of its time, against what was given. */
  readonly asOf: ReplayComparison & { readonly sources: readonly SourceRow[] };
  /** The verdict recomputed with today's data, against what was given (null when not asked). */
  readonly today:
    (ReplayComparison & { readonly at: string; readonly sources: readonly SourceRow[]; readonly changes: readonly string[] }) | null;
  /** The inputs that came from outside the log's intelligence (chain data, prices, providers), replayed as recorded. */
  readonly recorded: readonly string[];
  /** The outside providers' answers replayed as recorded (an inspect's; empty for the other kinds). */
  readonly recordedAnswers: readonly RecordedAnswer[];
}

export function compareVerdicts(given: unknown, recomputed: unknown): ReplayComparison {
  const all = verdictDifferences(given, recomputed);
  return { identical: all.length === 0, differences: all.slice(0, MAX_DIFFERENCES), differenceCount: all.length };
}

const KIND_WORDS: Readonly<Record<ReplayableKind, string>> = {
  screen: 'screen',
  full_check: 'full check',
  transfer_check: 'transfer check',
  inspect: 'inspect',
  monitor_change: 'monitor change',
};

const day = (iso: string): string => iso.slice(0, 10);
const matchKey = (match: SanctionsMatch): string => `${match.source}|${match.list}|${match.listEntryId ?? ''}`;

/** "What changed since": one sentence per new sanctions listing and per source whose data changed. */
export function changesSince(kind: ReplayableKind, madeAt: string, then: Recomputed, now: Recomputed): string[] {
  const after = `after your ${KIND_WORDS[kind]} of ${day(madeAt)}`;
  const listedThen = new Set(then.sanctions.map(matchKey));
  const listings = now.sanctions
    .filter((match) => !listedThen.has(matchKey(match)))
    .map((match) => {
      const imported = now.sources.find((row) => row.source === match.source)?.imported_at;
      const when = match.listDate ? ` on ${match.listDate}` : imported ? ` (imported ${day(imported)})` : '';
      return `listed by ${match.source} (${match.list} sanctions)${when}, ${after}`;
    });
  const thenBySource = new Map(then.sources.map((row) => [row.source, row]));
  const sources = now.sources.flatMap((row) => {
    const was = thenBySource.get(row.source);
    if (was?.content_hash === row.content_hash) return [];
    const change = was ? `changed from version ${was.version} to ${row.version}` : `version ${row.version} now bears on it`;
    const imported = row.imported_at ? ` (imported ${day(row.imported_at)})` : '';
    return [`${row.source} ${change}${imported}, ${after}`];
  });
  const nowSources = new Set(now.sources.map((row) => row.source));
  const gone = then.sources.filter((row) => !nowSources.has(row.source)).map((row) => `${row.source} no longer bears on it`);
  return [...listings, ...sources, ...gone];
}
