import type { VerbTable } from './verb.js';

/**
 * The operator's view of monitors: `monitors stats` (counts, the last re-evaluation and its lag from the
 * intelligence change's commit) and `monitors renew` (a renewal sweep now instead of at the next tick).
 * Run against a running service, they answer from inside it (the last re-evaluation is its memory).
 */
export const MONITOR_VERBS: VerbTable<'monitors' | 'projections'> = {
  async 'monitors stats'(services) {
    await services.projections.whenCaughtUp();
    return { exitCode: 0, output: await services.monitors.api.stats() };
  },
  async 'monitors renew'(services) {
    await services.projections.whenCaughtUp();
    return { exitCode: 0, output: await services.monitors.renewals.sweep() };
  },
};
