import type { VerdictReplay } from '../../domain/replay/verdict-replay.js';
import { fail } from '../../domain/shared/errors.js';
import { fullCheckReplayPlan } from './replay-full-check.js';
import type { MonitorChange } from './monitor-change.js';
import { monitorChangeReplayPlan } from './replay-monitor-change.js';
import { inspectReplayPlan } from './replay-inspect.js';
import { runReplay, type ReplayDeps, type ReplayOptions } from './replay-plan.js';
import { screenReplayPlan, type StoredScreen } from './replay-screen.js';
import { transferCheckReplayPlan } from './replay-transfer-check.js';

/** A verdict to replay, as the account's History names its kind (`screen`, `check_address`, `check_transfer`, …). */
export type StoredVerdictRef =
  | { readonly kind: 'screen'; readonly screen: StoredScreen }
  | { readonly kind: 'monitor_change'; readonly change: MonitorChange }
  | { readonly kind: string; readonly id: string };

/**
 * POST /v2/verdicts/{id}/replay and `verdict replay`: the verdict recomputed from the log as of its time
 * (docs/ARCHITECTURE.md#verdict-replay), free and bounded in time. The caller has checked the verdict is
 * the account's.
 */
export async function replayVerdict(deps: ReplayDeps, ref: StoredVerdictRef, options: ReplayOptions): Promise<VerdictReplay> {
  if ('screen' in ref) return runReplay(deps, screenReplayPlan(ref.screen), options);
  if ('change' in ref) return runReplay(deps, monitorChangeReplayPlan(ref.change), options);
  switch (ref.kind) {
    case 'check_address':
      return runReplay(deps, await fullCheckReplayPlan(deps, ref.id), options);
    case 'check_transfer':
      return runReplay(deps, await transferCheckReplayPlan(deps, ref.id), options);
    case 'inspect':
      return runReplay(deps, await inspectReplayPlan(deps, ref.id), options);
    default:
      throw fail('not_found', 'no such verdict');
  }
}
