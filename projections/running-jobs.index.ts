/**
 * The asynchronous jobs (address checks, explore jobs, transfer checks) that are still running,
 * folded in memory from their events like the intelligence index (an in-process index, rebuilt from the
 * log at each start, in every process role): what the reaper sweeps. It holds only unfinished jobs.
 */

export interface RunningJob {
  readonly kind: 'address_check' | 'explore' | 'transfer_check';
  readonly id: string;
  readonly requestedAt: string;
}

export interface RunningJobsIndex {
  readonly handles: readonly string[];
  apply(event: { readonly type: string; readonly streamId: string; readonly data: unknown }): void;
  running(): readonly RunningJob[];
}

const STARTS: Readonly<Record<string, RunningJob['kind']>> = {
  AddressCheckRequested: 'address_check',
  ExploreRequested: 'explore',
  TransferCheckRequested: 'transfer_check',
};
const ENDS = ['CheckCompleted', 'CheckFailed', 'CheckTimedOut', 'ExploreCompleted', 'ExploreFailed', 'TransferCheckCompleted', 'TransferCheckFailed', 'TransferCheckTimedOut'];

export function createRunningJobsIndex(): RunningJobsIndex {
  const jobs = new Map<string, RunningJob>();
  return {
    handles: [...Object.keys(STARTS), ...ENDS],
    apply(event) {
      const kind = STARTS[event.type];
      if (kind) {
        // Transfer checks name their request time `at`.
        const data = event.data as { checkId?: string; jobId?: string; requestedAt?: string; at?: string };
        jobs.set(event.streamId, { kind, id: (data.checkId ?? data.jobId)!, requestedAt: (data.requestedAt ?? data.at)! });
      } else if (ENDS.includes(event.type)) {
        jobs.delete(event.streamId);
      }
    },
    running: () => [...jobs.values()],
  };
}
