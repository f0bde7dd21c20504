import { computeComposite } from '../../domain/kyt/composite.js';
import { evaluateFacts, factsOf } from '../../domain/kyt/policy-engine.js';
import { transferCheckDecider, type TransferCheckCommand } from '../../domain/kyt/transfer-check.decider.js';
import { FAILURE_CODES, transferCheckStream, type Requester, type TransferFailureCode } from '../../domain/kyt/transfer-check.events.js';
import { findPatterns } from '../../domain/kyt/transfer-patterns.js';
import { buildTransferVerdict, type TransferCoverage } from '../../domain/kyt/transfer-result.js';
import { mergeVersions, transferDataVersions } from '../../domain/coverage/data-versions.js';
import { sanctionsCoverage } from '../../domain/coverage/sanctions-coverage.js';
import { screeningNetworkOf } from '../../domain/kyt/chain-intel.js';
import type { SenderExposure } from '../../domain/kyt/sender-exposure.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import { isServiceError } from '../../domain/shared/errors.js';
import type { Chain } from '../../domain/shared/network.js';
import { senderExposures, sendersByValue } from './sender-exposures.js';
import type { TransferCheckDeps } from './transfer-check-deps.js';
import { valueLegs } from './value-legs.js';
import { policyInForceFor } from '../policies/policy-in-force.js';

/**
 * The transfer check pipeline for one requested check: decode the transaction, value each leg in USD,
 * find each sender's direct and indirect exposure, build the USD-weighted composite, apply the policy in
 * force for the requester's subgroup (the standard one unless it activated its own) and record the result (or the failure) on the check's stream. Idempotent: a check that is
 * not running is left alone, and the outcome commands carry deterministic ids, so a redelivered
 * request records one outcome. A parse or RPC failure fails the check (the client gets 502, no charge),
 * and so does a check still without an answer after `timeoutMs` (its late answer is then dropped).
 */
export async function runTransferCheck(deps: TransferCheckDeps, checkId: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const stream = transferCheckStream(checkId);
  const { state } = await deps.executor.load(stream, transferCheckDecider);
  if (state.status !== 'running' || !state.request) return;
  const { chain, txHash, requester } = state.request;
  const work = judge(deps, checkId, chain, txHash, requester);
  const outcome = options.timeoutMs === undefined ? await work : await withDeadline(deps, work, options.timeoutMs);
  await deps.executor.execute(stream, transferCheckDecider, outcome, { commandId: `transfer-outcome:${checkId}`, causationId: checkId });
}

/** The check's outcome, or its failure after `timeoutMs`: a hung node holds no check past its deadline. */
async function withDeadline(
  deps: TransferCheckDeps,
  work: Promise<TransferCheckCommand>,
  timeoutMs: number,
): Promise<TransferCheckCommand> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<TransferCheckCommand>((resolve) => {
    timer = setTimeout(() => {
      const message = `the chain lookups did not finish within ${Math.round(timeoutMs / 100) / 10} s`;
      resolve({ type: 'FailTransferCheck', code: 'backend_unavailable', message, at: deps.clock.now().toISOString() });
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Decode, value, expose, judge: the outcome command (a failure never throws out of here). */
async function judge(
  deps: TransferCheckDeps,
  checkId: string,
  chain: Chain,
  txHash: string,
  requester: Requester,
): Promise<TransferCheckCommand> {
  let outcome: TransferCheckCommand;
  try {
    const tx = await deps.decoder.decode(chain, txHash);
    const { legs, pricing } = await valueLegs(deps, tx);
    const exposures = await senderExposures(deps, chain, sendersByValue(legs));
    const composite = computeComposite(legs, exposures, TAXONOMY);
    const patterns = findPatterns(tx);
    const { policyId, policy } = await policyInForceFor(deps, requester);
    const facts = factsOf(composite, patterns, TAXONOMY);
    const judged = evaluateFacts(policy, facts);
    const now = deps.clock.now();
    const checkedAt = now.toISOString();
    const coverage = await transferCoverage(deps, chain, exposures, now);
    const verdict = buildTransferVerdict({
      checkId,
      tx,
      legs,
      composite,
      patterns,
      outcome: judged,
      policy,
      policyId,
      pricing,
      coverage,
      checkedAt,
    });
    outcome = {
      type: 'CompleteTransferCheck',
      verdict,
      alerts: judged.alerts,
      sanctions: coverage.sanctions,
      policy: { id: policyId, version: policy.version },
      facts,
      at: checkedAt,
    };
  } catch (error) {
    outcome = { type: 'FailTransferCheck', ...failureOf(error), at: deps.clock.now().toISOString() };
  }
  return outcome;
}

/** What the check read: the lists, the sources behind every sender's exposure, and the transfer data when a sender was traced. */
async function transferCoverage(
  deps: TransferCheckDeps,
  chain: Chain,
  exposures: ReadonlyMap<string, SenderExposure>,
  now: Date,
): Promise<TransferCoverage> {
  const senders = [...exposures.values()];
  const network = screeningNetworkOf(chain);
  const traced = senders.some((s) => s.graph === 'analysed' || s.graph === 'budget_exhausted' || s.graph === 'no_history');
  const transferData = deps.transfers && network && traced ? transferDataVersions((await deps.transfers.coverage(network)).datasets) : [];
  return {
    sanctions: sanctionsCoverage(deps.intel.datasets(), now),
    snapshot: deps.intel.snapshot(),
    sources: mergeVersions(...senders.map((s) => s.sources)),
    transferData,
  };
}

function failureOf(error: unknown): { code: TransferFailureCode; message: string } {
  if (isServiceError(error) && (FAILURE_CODES as readonly string[]).includes(error.code)) {
    return { code: error.code as TransferFailureCode, message: error.message };
  }
  return { code: 'internal_error', message: 'the transfer check failed' };
}
