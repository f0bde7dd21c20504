import { screenRecordDecider } from '../domain/intel/screen-record.decider.js';
import { screenRecordStream, screenSummaryOf } from '../domain/intel/screen-record.events.js';
import type { VerdictBody } from '../domain/intel/screen-verdict.schema.js';
import type { CommandDeps } from './command-deps.js';

/** Keeps the summary of a charged light screen's verdict (stream `screen-{callId}`) for the account's History. */
export async function recordScreenVerdict(
  deps: CommandDeps,
  input: { userId: string; callId: string; address: string; network: string; verdict: VerdictBody; dataAvailable: boolean },
): Promise<void> {
  await deps.executor.execute(
    screenRecordStream(input.callId),
    screenRecordDecider,
    {
      type: 'RecordScreenVerdict',
      callId: input.callId,
      userId: input.userId,
      address: input.address,
      network: input.network,
      summary: screenSummaryOf(input.verdict, input.dataAvailable),
      at: deps.clock.now().toISOString(),
    },
    { commandId: `screen-record:${input.callId}` },
  );
}
