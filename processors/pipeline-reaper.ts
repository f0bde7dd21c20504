import { recordCheckStep } from '../commands/address-check.commands.js';
import type { CommandDeps } from '../commands/command-deps.js';
import { recordExploreStep } from '../commands/explore.commands.js';
import { timeOutTransferCheck } from '../commands/kyt/transfer-check.commands.js';
import { CHECK_TIMEOUT_MS } from '../domain/address-check/address-check.decider.js';

/**
 * The stuck-job reaper (the spec's 15-minute wall-clock cap): every sweep finds the address checks,
 * explore jobs and transfer checks still running past the cap, on its clock, and fails them (a check
 * becomes `failed_timeout`, an explore job raises service.bfs.failed). The decider re-checks the cap against the
 * request time, so a sweep on a stale read model, or two reapers at once, change nothing wrongly.
 */

export interface RunningJob {
  readonly kind: 'address_check' | 'explore' | 'transfer_check';
  readonly id: string;
  readonly requestedAt: string;
}

export interface PipelineReaper {
  /** One sweep now; resolves with the number of jobs it failed. */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createPipelineReaper(deps: {
  commands: CommandDeps;
  /** Jobs an index of the log shows as running (it may lag: the decider re-checks). */
  running: () => readonly RunningJob[];
  intervalMs: number;
  onError?: (error: unknown) => void;
}): PipelineReaper {
  let timer: ReturnType<typeof setInterval> | null = null;
  let sweeping: Promise<number> | null = null;

  async function sweepOnce(): Promise<number> {
    const now = deps.commands.clock.now();
    const overdue = deps.running().filter((job) => now.getTime() - Date.parse(job.requestedAt) >= CHECK_TIMEOUT_MS);
    const at = now.toISOString();
    for (const job of overdue) {
      if (job.kind === 'address_check') await recordCheckStep(deps.commands, job.id, { type: 'TimeOut', at }, `check-timeout:${job.id}`);
      else if (job.kind === 'transfer_check') await timeOutTransferCheck(deps.commands, job.id, at);
      else await recordExploreStep(deps.commands, job.id, { type: 'TimeOut', at }, `explore-timeout:${job.id}`);
    }
    return overdue.length;
  }

  const sweep = (): Promise<number> => {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = null;
    });
    return sweeping;
  };

  return {
    sweep,
    start() {
      timer ??= setInterval(() => void sweep().catch((error) => deps.onError?.(error)), deps.intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping?.catch(() => undefined);
    },
  };
}
