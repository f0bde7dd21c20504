import type { Services } from '../bootstrap.js';
import type { ParsedArgs } from './args.js';

/**
 * The operator's view of monitors: `monitors stats` (counts, the last re-evaluation and its lag from the
 * intelligence change's commit) and `monitors renew` (a renewal sweep now instead of at the next tick).
 * Run against a running service, they answer from inside it (the last re-evaluation is its memory).
 */
export const MONITOR_VERBS: Record<string, (services: Services, args: ParsedArgs) => Promise<{ exitCode: number; output: unknown }>> = {
  async 'monitors stats'(services) {
    await services.projections.whenCaughtUp();
    return { exitCode: 0, output: await services.monitors.api.stats() };
  },
  async 'monitors renew'(services) {
    await services.projections.whenCaughtUp();
    return { exitCode: 0, output: await services.monitors.renewals.sweep() };
  },
};
