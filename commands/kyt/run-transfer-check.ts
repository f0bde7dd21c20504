import { computeComposite } from '../../domain/kyt/composite.js';
import { evaluatePolicy } from '../../domain/kyt/policy-engine.js';
import { STANDARD_POLICY } from '../../domain/kyt/standard-policy.js';
import { transferCheckDecider, type TransferCheckCommand } from '../../domain/kyt/transfer-check.decider.js';
import { FAILURE_CODES, transferCheckStream, type TransferFailureCode } from '../../domain/kyt/transfer-check.events.js';
import { findPatterns } from '../../domain/kyt/transfer-patterns.js';
import { transferResultBody } from '../../domain/kyt/transfer-result.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import { isServiceError } from '../../domain/shared/errors.js';
import { senderExposures, sendersByValue } from './sender-exposures.js';
import type { TransferCheckDeps } from './transfer-check-deps.js';
import { valueLegs } from './value-legs.js';

/**
 * The transfer check pipeline for one requested check: decode the transaction, value each leg in USD,
 * find each sender's direct and indirect exposure, build the USD-weighted composite, apply the standard
 * policy and record the result (or the failure) on the check's stream. Idempotent: a check that is
 * not running is left alone, and the outcome commands carry deterministic ids, so a redelivered
 * request records one outcome. A parse or RPC failure fails the check (the client gets 502, no charge).
 */
export async function runTransferCheck(deps: TransferCheckDeps, checkId: string): Promise<void> {
  const stream = transferCheckStream(checkId);
  const { state } = await deps.executor.load(stream, transferCheckDecider);
  if (state.status !== 'running' || !state.request) return;
  const { chain, txHash } = state.request;
  let outcome: TransferCheckCommand;
  try {
    const tx = await deps.decoder.decode(chain, txHash);
    const { legs, pricing } = await valueLegs(deps, tx);
    const exposures = await senderExposures(deps, chain, sendersByValue(legs));
    const composite = computeComposite(legs, exposures, TAXONOMY);
    const patterns = findPatterns(tx);
    const judged = evaluatePolicy(STANDARD_POLICY, composite, patterns, TAXONOMY);
    const checkedAt = deps.clock.now().toISOString();
    const result = transferResultBody({ checkId, tx, legs, composite, patterns, outcome: judged, policy: STANDARD_POLICY, pricing, checkedAt });
    outcome = { type: 'CompleteTransferCheck', result, alerts: judged.alerts, at: checkedAt };
  } catch (error) {
    outcome = { type: 'FailTransferCheck', ...failureOf(error), at: deps.clock.now().toISOString() };
  }
  await deps.executor.execute(stream, transferCheckDecider, outcome, { commandId: `transfer-outcome:${checkId}`, causationId: checkId });
}

function failureOf(error: unknown): { code: TransferFailureCode; message: string } {
  if (isServiceError(error) && (FAILURE_CODES as readonly string[]).includes(error.code)) {
    return { code: error.code as TransferFailureCode, message: error.message };
  }
  return { code: 'internal_error', message: 'the transfer check failed' };
}
