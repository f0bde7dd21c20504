import type { Clock } from '../../domain/ports/clock.port.js';
import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { IntelHistory, VerdictEventRef } from '../../domain/ports/intel-history.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import {
  changesSince,
  compareVerdicts,
  type Recomputed,
  type RecordedAnswer,
  type ReplayableKind,
  type VerdictReplay,
} from '../../domain/replay/verdict-replay.js';
import { fail } from '../../domain/shared/errors.js';
import type { CommandDeps } from '../command-deps.js';

/** What a replay reads: the log (checks, policies), the intelligence as of a verdict and today, the transfer graph. */
export interface ReplayDeps extends Pick<CommandDeps, 'executor' | 'clock'> {
  /** Today's intelligence index. */
  readonly intel: IntelIndex;
  readonly history: IntelHistory;
  /** The log's streams, read directly where a verdict is in one (a monitor's change). */
  readonly log: Pick<EventStore, 'read'>;
  /** The transfer graph behind a transfer check's indirect exposure (null when the deployment has none). */
  readonly transfers: TransferIndex | null;
  readonly monotonicNow: () => number;
}

/** A replay reads the intelligence streams from the start once: this bounds it (504 gateway_timeout past it). */
export const DEFAULT_REPLAY_TIMEOUT_MS = 60_000;

export interface ReplayOptions {
  /** Also recompute with today's data ("what changed since"). */
  readonly today: boolean;
  /** The replay's bound: past it, 504 gateway_timeout. */
  readonly timeoutMs: number;
  /** A line of progress for a long replay (the CLI prints them on stderr). */
  readonly onProgress?: (line: string) => void;
}

/** One verdict's replay, as each kind prepares it: what was given, what it is about and how to recompute it. */
export interface ReplayPlan {
  readonly kind: ReplayableKind;
  readonly verdictId: string;
  readonly madeAt: string;
  /** The verdict as it was given, in the shape `recompute` answers. */
  readonly given: unknown;
  /** The addresses whose intelligence can change the verdict (the as-of index holds only theirs). */
  readonly addresses: readonly string[];
  readonly verdictEvent: VerdictEventRef;
  readonly recorded: readonly string[];
  /** The outside answers replayed as recorded (an inspect's providers); absent: none. */
  readonly recordedAnswers?: readonly RecordedAnswer[];
  /** `today` null: as of the verdict, each step at the time it recorded; else with today's data at today's time. */
  recompute(intel: IntelIndex, today: Clock | null): Promise<Recomputed>;
}

/** A clock stopped at the verdict's time: sanctions lists' ages are counted to it, as they were. */
export const clockAt = (iso: string): Clock => ({ now: () => new Date(iso) });

/** Folds the intelligence as of the verdict, recomputes, compares; then, when asked, the same with today's data. */
export async function runReplay(deps: ReplayDeps, plan: ReplayPlan, options: ReplayOptions): Promise<VerdictReplay> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const say = options.onProgress ?? (() => undefined);
  try {
    say(`reading the intelligence recorded before ${plan.kind} ${plan.verdictId} (${plan.madeAt})`);
    const asOfIndex = await deps.history.asOf({
      addresses: plan.addresses,
      verdict: plan.verdictEvent,
      signal: controller.signal,
      onProgress: ({ intelEvents }) => say(`folded ${intelEvents} intelligence events`),
    });
    if (controller.signal.aborted) throw fail('gateway_timeout', `the replay did not finish within ${options.timeoutMs / 1000} s`);
    if (!asOfIndex) throw fail('not_found', 'the verdict’s own event is not in the log');
    say(`recomputing as of ${plan.madeAt}`);
    const then = await plan.recompute(asOfIndex, null);
    const asOf = { ...compareVerdicts(plan.given, then.value), sources: then.sources };
    const told = { verdictId: plan.verdictId, kind: plan.kind, madeAt: plan.madeAt, recorded: plan.recorded };
    const recordedAnswers = plan.recordedAnswers ?? [];
    if (!options.today) return { ...told, asOf, today: null, recordedAnswers };
    say('recomputing with today’s data');
    const at = deps.clock.now().toISOString();
    const now = await plan.recompute(deps.intel, deps.clock);
    const today = {
      ...compareVerdicts(plan.given, now.value),
      at,
      sources: now.sources,
      changes: changesSince(plan.kind, plan.madeAt, then, now),
    };
    return { ...told, asOf, today, recordedAnswers };
  } finally {
    clearTimeout(timer);
  }
}
