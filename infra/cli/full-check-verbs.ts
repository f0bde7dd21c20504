import { loadAddressCheck } from '../../commands/address-check.commands.js';
import { loadExplore } from '../../commands/explore.commands.js';
import { checkStream } from '../../domain/address-check/address-check.events.js';
import { exploreStream } from '../../domain/explore/explore.events.js';
import { fail } from '../../domain/shared/errors.js';
import { parseNetwork, SCREEN_NETWORKS } from '../../domain/shared/network.js';
import type { Services } from '../bootstrap.js';
import { flag, requiredFlag } from './args.js';
import type { VerbResult, VerbTable } from './verb.js';

const ok = (output: unknown): VerbResult => ({ exitCode: 0, output });

async function history(services: Pick<Services, 'store'>, stream: string) {
  const events = [];
  for await (const e of services.store.read(stream)) events.push({ revision: Number(e.revision), type: e.type, at: e.metadata.occurredAt });
  return events;
}

import { presentExploreReport } from '../../read-api/presenters/explore.presenter.js';
/**
 * Operator verbs of the full check: `check show --id`, `explore show --id` (state and event history of
 * one job), `jobs running` (what the reaper watches, with ages), `reaper sweep` (one sweep now) and
 * `transfers coverage [--network ETH]` (what the transfer index holds, and the ingester's last block).
 */
export const FULL_CHECK_VERBS: VerbTable<'commands' | 'config' | 'fullCheck' | 'store'> = {
  async 'check show'(services, args) {
    const checkId = requiredFlag(args, 'id');
    const { state } = await loadAddressCheck(services.commands, checkId);
    if (!state.request) throw fail('not_found', `no address check ${checkId}`);
    return ok({
      check_id: checkId,
      status: state.status,
      request: state.request,
      tiers: Object.values(state.tiers).map((o) => ({
        tier: o.tier,
        applied: 'applied' in o ? o.applied : true,
        reason: 'reason' in o ? o.reason : null,
      })),
      attempts: state.attempts,
      failure: state.failure,
      decision: state.verdict?.decision ?? null,
      risk_level: state.verdict?.risk.level ?? null,
      delivered: state.delivered !== null,
      events: await history(services, checkStream(checkId)),
    });
  },
  async 'explore show'(services, args) {
    const jobId = requiredFlag(args, 'id');
    const { state } = await loadExplore(services.commands, jobId);
    if (!state.request) throw fail('not_found', `no explore job ${jobId}`);
    return ok({
      job_id: jobId,
      status: state.status,
      request: state.request,
      attempts: state.attempts,
      error: state.error,
      // The report in the API's words (GET /v2/explore/{id}/result's body), as before it was a domain fact.
      report: state.report ? presentExploreReport(state.report) : null,
      events: await history(services, exploreStream(jobId)),
    });
  },
  async 'jobs running'(services) {
    const now = services.commands.clock.now().getTime();
    const jobs = services.fullCheck.runningJobs
      .running()
      .map((job) => ({ ...job, running_s: Math.round((now - Date.parse(job.requestedAt)) / 1000) }));
    return ok({ running: jobs.length, jobs });
  },
  async 'reaper sweep'(services) {
    return ok({ failed: await services.fullCheck.reaper.sweep() });
  },
  async 'transfers coverage'(services, args) {
    const wanted = flag(args, 'network');
    const network = wanted === undefined ? null : parseNetwork(wanted);
    if (wanted !== undefined && !network) throw fail('bad_request', `--network is one of ${SCREEN_NETWORKS.join(', ')}`);
    const coverage = await Promise.all((network ? [network] : SCREEN_NETWORKS).map((n) => services.fullCheck.transfers.coverage(n)));
    const ingester = services.fullCheck.ingester;
    return ok({ coverage, ingester: ingester ? { network: services.config.SVC_INGEST_NETWORK, last_block: ingester.lastBlock } : null });
  },
};
