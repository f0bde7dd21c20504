import type { VerdictDifference } from '../../domain/replay/verdict-diff.js';
import type { ReplayComparison, SourceRow, VerdictReplay } from '../../domain/replay/verdict-replay.js';
import type { Presented } from './presented.js';

/** A difference on the wire: an absent side is an absent key (JSON has no `undefined`), never a null. */
function differenceBody(difference: VerdictDifference) {
  return {
    path: difference.path,
    ...(difference.was === undefined ? {} : { was: difference.was }),
    ...(difference.now === undefined ? {} : { now: difference.now }),
  };
}

function comparisonBody(comparison: ReplayComparison & { sources: readonly SourceRow[] }) {
  return {
    result: comparison.identical ? ('identical' as const) : ('different' as const),
    difference_count: comparison.differenceCount,
    differences: comparison.differences.map(differenceBody),
    data_versions: [...comparison.sources],
  };
}

/** POST /v2/verdicts/{verdict_id}/replay's body. */
export function presentVerdictReplay(replay: VerdictReplay): Presented<Record<string, unknown>> {
  const { today } = replay;
  return {
    status: 200,
    body: {
      verdict_id: replay.verdictId,
      kind: replay.kind,
      made_at: replay.madeAt,
      as_of: comparisonBody(replay.asOf),
      today: today ? { at: today.at, ...comparisonBody(today), changes: [...today.changes] } : null,
      recorded_inputs: [...replay.recorded],
      recorded_answers: replay.recordedAnswers.map((answer) => ({ ...answer })),
    },
  };
}
