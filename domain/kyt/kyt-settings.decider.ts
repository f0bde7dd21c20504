import { z } from 'zod';
import { parserFor, type Decider } from '../shared/decider.js';
import { ALERT_LEVELS, DEFAULT_ALERT_MIN_LEVEL, type AlertLevel } from './alert-level.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `kytsettings-{subgroupId}`: a subgroup's transfer-alert configuration. Today one setting, the
 * lowest alert level pushed to the subgroup's webhooks (default Medium).
 */
export const kytSettingsStreams = streamFamily('kytsettings');
export const kytSettingsStream = kytSettingsStreams.stream;

export const kytSettingsEventSchemas = {
  AlertMinLevelSet: z.object({ subgroupId: z.string(), level: z.enum(ALERT_LEVELS), at: z.string() }),
} as const;

export type KytSettingsEvent = { type: 'AlertMinLevelSet'; data: z.infer<(typeof kytSettingsEventSchemas)['AlertMinLevelSet']> };
export type KytSettingsCommand = { type: 'SetAlertMinLevel'; subgroupId: string; level: AlertLevel; at: string };
export interface KytSettingsState {
  readonly alertMinLevel: AlertLevel;
}

export const kytSettingsDecider: Decider<KytSettingsCommand, KytSettingsEvent, KytSettingsState> = {
  decide: (command, state) =>
    command.level === state.alertMinLevel
      ? []
      : [{ type: 'AlertMinLevelSet', data: { subgroupId: command.subgroupId, level: command.level, at: command.at } }],
  evolve: (state, event) => ({ ...state, alertMinLevel: event.data.level }),
  initialState: () => ({ alertMinLevel: DEFAULT_ALERT_MIN_LEVEL }),
  parse: parserFor<KytSettingsEvent>(kytSettingsEventSchemas),
};
