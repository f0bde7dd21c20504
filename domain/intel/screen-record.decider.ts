import { parserFor, type Decider } from '../shared/decider.js';
import { screenRecordEventSchemas, type ScreenRecordEvent, type ScreenSummary } from './screen-record.events.js';

export interface RecordScreenVerdict {
  readonly type: 'RecordScreenVerdict';
  readonly callId: string;
  readonly userId: string;
  readonly address: string;
  readonly network: string;
  readonly summary: ScreenSummary;
  readonly at: string;
}

export interface ScreenRecordState {
  readonly recorded: boolean;
}

/** A light screen's verdict is recorded once: a retried call (same call id) adds nothing. */
export function decideScreenRecord(command: RecordScreenVerdict, state: ScreenRecordState): ScreenRecordEvent[] {
  if (state.recorded) return [];
  const { callId, userId, address, network, summary, at } = command;
  return [{ type: 'ScreenVerdictRecorded', data: { callId, userId, address, network, summary, at } }];
}

export const screenRecordDecider: Decider<RecordScreenVerdict, ScreenRecordEvent, ScreenRecordState> = {
  decide: decideScreenRecord,
  evolve: () => ({ recorded: true }),
  initialState: () => ({ recorded: false }),
  parse: parserFor<ScreenRecordEvent>(screenRecordEventSchemas),
};
