import type { CommandDeps } from '../commands/command-deps.js';
import { loadExplore, recordExploreStep } from '../commands/explore.commands.js';
import type { TierDeps } from '../domain/address-check/tier-runners.js';
import { searchExposure } from '../domain/exposure/exposure-search.js';
import { labelFromIntel, memoized } from '../domain/exposure/node-label.js';
import { exploreStreams } from '../domain/explore/explore.events.js';
import type { FlowDirection } from '../domain/ports/chain-data.port.js';
import { asConsequenceOf, firstPerKey } from './event-scope.js';
import type { Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Runs each requested explore job: the exposure search in the asked direction(s), then the report. A
 * failure records an attempt, which is itself the retry trigger; the decider turns the last allowed
 * attempt into the job's failure (and service.bfs.failed). The report id derives from the job id, so a
 * re-run completes with the same report id.
 */
export function createExploreProcessor(deps: TierDeps): Processor<CommandDeps> {
  async function run(context: CommandDeps, jobId: string) {
    const { state } = await loadExplore(context, jobId);
    if (state.status !== 'running' || !state.request) return;
    const { address, network, direction, budget } = state.request;
    const classify = memoized((a) => labelFromIntel(deps.intel.lookup(a, network)));
    const searchDeps = {
      flows: deps.transfers.flows.bind(deps.transfers),
      flowsOfMany: deps.transfers.flowsOfMany?.bind(deps.transfers),
      classify,
      now: deps.now,
      ...(deps.breathe ? { breathe: deps.breathe } : {}),
    };
    const search = (d: FlowDirection) => searchExposure(searchDeps, { address, network, direction: d, budget });
    let results;
    try {
      results = {
        incoming: direction === 'out' ? null : await search('in'),
        outgoing: direction === 'in' ? null : await search('out'),
      };
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await recordExploreStep(
        context,
        jobId,
        { type: 'RecordFailure', error: message, at: context.clock.now().toISOString() },
        `explore-failure:${jobId}:${state.attempts + 1}`,
      );
      return;
    }
    const reportId = context.ids.eventId(`explore-report:${jobId}`, 0);
    await recordExploreStep(
      context,
      jobId,
      { type: 'Complete', reportId, ...results, at: context.clock.now().toISOString() },
      `explore-complete:${jobId}`,
    );
  }

  return {
    name: 'explore-search',
    topics: [topicOfFamily('explore')],
    async handle(batch, context) {
      const jobs = firstPerKey(
        batch.filter((e) => e.type === 'ExploreRequested' || e.type === 'ExploreAttemptFailed'),
        (e) => exploreStreams.idOf(e.streamId),
      );
      await Promise.all([...jobs].map(([jobId, event]) => asConsequenceOf(event, () => run(context, jobId))));
    },
  };
}
