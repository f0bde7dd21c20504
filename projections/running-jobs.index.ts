import { eventRegistry, type EventOf } from '../domain/events/registry.js';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
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

export interface RunningJobsIndex {
  readonly handles: readonly string[];
  readonly history: 'none';
  apply(event: RecordedEvent): void;
  running(): readonly RunningJob[];
  /** Loads the jobs the read model holds (at start, before the live events). */
  load(store: ReadStore): Promise<void>;
}

const STARTS = ['AddressCheckRequested', 'ExploreRequested', 'TransferCheckRequested'] as const;
const ENDS = [
  'CheckCompleted',
  'CheckFailed',
  'CheckTimedOut',
  'ExploreCompleted',
  'ExploreFailed',
  'TransferCheckCompleted',
  'TransferCheckFailed',
  'TransferCheckTimedOut',
] as const;
const HANDLES = [...STARTS, ...ENDS];
type JobEvent = EventOf<(typeof HANDLES)[number]>;

/** The job an event starts, null for an event that ends one. */
function jobOf(event: JobEvent): RunningJob | null {
  switch (event.type) {
    case 'AddressCheckRequested':
      return { kind: 'address_check', id: event.data.checkId, requestedAt: event.data.requestedAt };
    case 'ExploreRequested':
      return { kind: 'explore', id: event.data.jobId, requestedAt: event.data.requestedAt };
    case 'TransferCheckRequested':
      // Transfer checks name their request time `at`.
      return { kind: 'transfer_check', id: event.data.checkId, requestedAt: event.data.at };
    default:
      return null;
  }
}

const handled = new Set<string>(HANDLES);
const isJobEvent = (event: { readonly type: string }): event is JobEvent => handled.has(event.type);

/** A job's document names its stream: the in-memory mirror is keyed by it. */
type RunningJobDoc = RunningJob & { readonly stream: string };

export const runningJobsProjection = defineProjection({
  name: 'running-jobs',
  collection: 'running_jobs',
  handles: HANDLES,
  idOf: (event) => event.streamId,
  evolve: (_current: RunningJobDoc | null, event) => {
    const job = jobOf(event);
    return job ? { ...job, stream: event.streamId } : null;
  },
});

export function createRunningJobsIndex(): RunningJobsIndex {
  const jobs = new Map<string, RunningJob>();
  return {
    handles: HANDLES,
    history: 'none',
    apply(recorded) {
      const event = eventRegistry.parse(recorded);
      if (!event || !isJobEvent(event)) return;
      const job = jobOf(event);
      if (job) jobs.set(event.streamId, job);
      else jobs.delete(event.streamId);
    },
    running: () => [...jobs.values()],
    async load(store) {
      const collection: Collection<RunningJobDoc> = store.collection(runningJobsProjection.collection);
      for (const { stream, kind, id, requestedAt } of await collection.find({})) jobs.set(stream, { kind, id, requestedAt });
    },
  };
}
