import type { AlertLevel } from '../../domain/kyt/alert-level.js';
import { kytSettingsDecider, kytSettingsStream } from '../../domain/kyt/kyt-settings.decider.js';
import type { CommandDeps } from '../command-deps.js';

/**
 * A subgroup's default `alert_min_level`: what its new webhook subscriptions get when they name none.
 * It filters nothing itself: each subscription receives the alerts at or above its own level.
 */
export async function alertMinLevelOf(deps: CommandDeps, subgroupId: string): Promise<AlertLevel> {
  return (await deps.executor.load(kytSettingsStream(subgroupId), kytSettingsDecider)).state.alertMinLevel;
}

/** Sets a subgroup's default `alert_min_level` for the subscriptions created from now on. */
export async function setAlertMinLevel(deps: CommandDeps, subgroupId: string, level: AlertLevel): Promise<AlertLevel> {
  const outcome = await deps.executor.execute(
    kytSettingsStream(subgroupId),
    kytSettingsDecider,
    { type: 'SetAlertMinLevel', subgroupId, level, at: deps.clock.now().toISOString() },
    { commandId: deps.ids.newId() },
    (state) => state.alertMinLevel,
  );
  return outcome.view;
}
