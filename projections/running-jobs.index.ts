import { defineProjection } from '../domain/ports/projection.port.js';
import type { Collection, ReadStore } from '../domain/ports/read-store.port.js';

/**
 * The asynchronous jobs (address checks, explore jobs, transfer checks) that are still running: what the
 * reaper sweeps. A read model (`running-jobs`, one document per unfinished job, deleted when it ends)
 * keeps them across restarts; each process mirrors it in memory (only unfinished jobs: the working set),
 * loaded from the read model at start and then fed the live events like the other in-process indexes.
 */

export type RunningJob = {
  readonly kind: 'address_check' | 'explore' | 'transfer_check';
  readonly id: string;
  readonly requestedAt: string;
};

interface JobEvent {
  readonly type: string;
  readonly streamId: string;
  readonly data: unknown;
}

export interface RunningJobsIndex {
  readonly handles: readonly string[];
  readonly history: 'none';
  apply(event: JobEvent): void;
  running(): readonly RunningJob[];
  /** Loads the jobs the read model holds (at start, before the live events). */
  load(store: ReadStore): Promise<void>;
}

const STARTS: Readonly<Record<string, RunningJob['kind']>> = {
  AddressCheckRequested: 'address_check',
  ExploreRequested: 'explore',
  TransferCheckRequested: 'transfer_check',
};
const ENDS = ['CheckCompleted', 'CheckFailed', 'CheckTimedOut', 'ExploreCompleted', 'ExploreFailed', 'TransferCheckCompleted', 'TransferCheckFailed', 'TransferCheckTimedOut'];
const HANDLES = [...Object.keys(STARTS), ...ENDS];

/** The job an event starts, null for an event that ends one, undefined for any other. */
function jobOf(event: JobEvent): RunningJob | null | undefined {
  const kind = STARTS[event.type];
  if (kind) {
    // Transfer checks name their request time `at`.
    const data = event.data as { checkId?: string; jobId?: string; requestedAt?: string; at?: string };
    return { kind, id: (data.checkId ?? data.jobId)!, requestedAt: (data.requestedAt ?? data.at)! };
  }
  return ENDS.includes(event.type) ? null : undefined;
}

/** A job's document names its stream: the in-memory mirror is keyed by it. */
type RunningJobDoc = RunningJob & { readonly stream: string };

export const runningJobsProjection = defineProjection<RunningJobDoc>({
  name: 'running-jobs',
  collection: 'running_jobs',
  handles: HANDLES,
  idOf: (event) => (jobOf(event) === undefined ? null : event.streamId),
  evolve: (_current, event) => {
    const job = jobOf(event);
    return job ? { ...job, stream: event.streamId } : null;
  },
});

export function createRunningJobsIndex(): RunningJobsIndex {
  const jobs = new Map<string, RunningJob>();
  return {
    handles: HANDLES,
    history: 'none',
    apply(event) {
      const job = jobOf(event);
      if (job) jobs.set(event.streamId, job);
      else if (job === null) jobs.delete(event.streamId);
    },
    running: () => [...jobs.values()],
    async load(store) {
      const collection: Collection<RunningJobDoc> = store.collection(runningJobsProjection.collection);
      for (const { stream, kind, id, requestedAt } of await collection.find({})) jobs.set(stream, { kind, id, requestedAt });
    },
  };
}
