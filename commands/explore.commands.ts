import type { ExploreAccepted } from '../domain/idempotency/keyed-outcomes.js';
import type { CheckOwner } from '../domain/address-check/address-check.events.js';
import { PRODUCTS } from '../domain/billing/products.js';
import type { ExposureBudget } from '../domain/exposure/exposure.schema.js';
import { exploreDecider, type ExploreCommand, type ExploreDirection, type ExploreState } from '../domain/explore/explore.decider.js';
import { exploreStream } from '../domain/explore/explore.events.js';
import { fail } from '../domain/shared/errors.js';
import { present } from '../domain/shared/present.js';
import type { Network } from '../domain/shared/network.js';
import { assertCanCharge, chargeCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import type { ExploreReport } from '../domain/explore/explore-report.js';
import { asReplay, type ChargedBilling } from '../domain/ledger/charged-billing.js';

/**
 * Explore jobs: an asynchronous breadth-first exposure search of one address, with a caller-chosen
 * direction and a budget within the service's maxima. The x402 channel pays before it requests; the V2
 * channel is charged like the full check, once, on the first delivery of the result.
 */

/** An explore job recorded and waiting for the pipeline (typed by its schema, which a replay parses). */
export type { ExploreAccepted };

/** What a fetch of an explore job finds: still running, or the report (with its charge on the V2 channel; null on x402, paid up front). */
export type ExploreDelivery =
  | { readonly kind: 'running'; readonly jobId: string; readonly requestedAt: string }
  | { readonly kind: 'completed'; readonly report: ExploreReport; readonly billing: ChargedBilling | null };

export const exploreResultUrl = (jobId: string, prefix = '/v2'): string => `${prefix}/explore/${jobId}/result`;

export function loadExplore(deps: CommandDeps, jobId: string): Promise<{ state: ExploreState }> {
  return deps.executor.load(exploreStream(jobId), exploreDecider);
}

export async function requestExplore(
  deps: CommandDeps,
  input: { jobId: string; owner: CheckOwner; address: string; network: Network; direction: ExploreDirection; budget: ExposureBudget },
): Promise<void> {
  await deps.executor.execute(
    exploreStream(input.jobId),
    exploreDecider,
    { type: 'Request', ...input, at: deps.clock.now().toISOString() },
    { commandId: `explore-request:${input.jobId}` },
  );
}

export async function recordExploreStep(deps: CommandDeps, jobId: string, command: ExploreCommand, commandId: string): Promise<void> {
  await deps.executor.execute(exploreStream(jobId), exploreDecider, command, { commandId });
}

/** POST /v2/explore: refused with 402 up front when the key could not pay for the report. */
export async function submitExplore(
  deps: CommandDeps,
  input: {
    userId: string;
    keyId: string;
    jobId: string;
    address: string;
    network: Network;
    direction: ExploreDirection;
    budget: ExposureBudget;
  },
): Promise<ExploreAccepted> {
  const product = PRODUCTS.explore;
  await assertCanCharge(deps, { userId: input.userId, product: 'explore', units: product.units, priceMicros: product.priceMicros });
  const { userId, keyId, ...job } = input;
  await requestExplore(deps, { ...job, owner: { channel: 'v2', ownerId: userId, keyId } });
  return { kind: 'accepted', jobId: input.jobId };
}

/** The job's outcome for whoever owns it; the V2 channel charges the first completed delivery (x402 has paid already). */
export async function deliverExploreResult(
  deps: CommandDeps,
  input: { jobId: string; owner: Pick<CheckOwner, 'channel' | 'ownerId'>; keyId: string | null },
): Promise<ExploreDelivery> {
  const { state } = await loadExplore(deps, input.jobId);
  const request = state.request;
  if (!request || request.owner.channel !== input.owner.channel || request.owner.ownerId !== input.owner.ownerId)
    throw fail('not_found', 'no such explore job');
  if (state.status === 'running' || state.status === 'none') {
    return { kind: 'running', jobId: input.jobId, requestedAt: request.requestedAt };
  }
  if (state.status === 'failed') {
    throw fail('check_failed', `the explore job failed (${state.error ?? 'pipeline error'}); nothing was charged`, {
      job_id: input.jobId,
      status: 'failed',
    });
  }
  const report = present(state.report, "the completed job's report");
  if (request.owner.channel !== 'v2') return { kind: 'completed', report, billing: null };
  // A delivery recorded without billing charges again below, which the ledger finds by the job id: nothing is taken twice.
  if (state.delivered?.billing) return { kind: 'completed', report, billing: asReplay(state.delivered.billing) };
  const { billing, duplicate } = await chargeCall(deps, {
    userId: request.owner.ownerId,
    chargeId: input.jobId,
    product: 'explore',
    details: { endpoint: PRODUCTS.explore.endpoint, keyId: input.keyId, network: request.network, subject: request.address },
  });
  await recordExploreStep(
    deps,
    input.jobId,
    { type: 'RecordDelivery', billing: { ...billing, replay: false }, at: deps.clock.now().toISOString() },
    `explore-deliver:${input.jobId}`,
  );
  return { kind: 'completed', report, billing: duplicate ? asReplay(billing) : billing };
}
