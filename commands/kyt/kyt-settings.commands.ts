import type { AlertLevel } from '../../domain/kyt/alert-level.js';
import { kytSettingsDecider, kytSettingsStream } from '../../domain/kyt/kyt-settings.decider.js';
import type { CommandDeps } from '../command-deps.js';

/** Sets a subgroup's floor for transfer alerts pushed to its webhooks (checks requested from now on). */
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
