import { policyBookDecider } from '../../domain/policies/policy-book.decider.js';
import { policyBookStream, type PolicyBookEvent } from '../../domain/policies/policy-book.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import type { CommandDeps } from '../../commands/command-deps.js';
import { backtestJobs } from '../../commands/policies/backtest-jobs.js';
import { caseOutcomeReader } from '../../projections/case-outcomes.projection.js';
import { policyInputsRepository } from '../../projections/policy-inputs.projection.js';
import type { PolicyAppServices } from '../../read-api/routes/policies-services.js';

/** What /v2/policies uses beside the commands: the policy streams and the backtests' read models. */
export function policyAppServices(
  store: Pick<EventStore, 'read'>,
  readStore: ReadStore,
  commands: Pick<CommandDeps, 'ids' | 'clock'>,
): PolicyAppServices {
  const checks = { ...policyInputsRepository(readStore), outcomesOf: caseOutcomeReader(readStore) };
  return {
    backtests: backtestJobs({ checks, ids: commands.ids, clock: commands.clock }),
    async history(subgroupId, policyId) {
      const events: PolicyBookEvent[] = [];
      for await (const recorded of store.read(policyBookStream(subgroupId))) {
        const event = policyBookDecider.parse(recorded);
        if (event && event.data.policyId === policyId) events.push(event);
      }
      return events;
    },
  };
}
