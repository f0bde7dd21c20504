import { present } from '../../domain/shared/present.js';
import { PRODUCTS, type Product } from '../../domain/billing/products.js';
import type { Facilitator } from '../../domain/ports/facilitator.port.js';
import { fail, isServiceError, type ErrorCode } from '../../domain/shared/errors.js';
import { paymentCodeForReason } from '../../domain/x402/facilitator-reasons.js';
import { paidSubjectDecider } from '../../domain/x402/paid-subject.decider.js';
import { paidSubjectStream } from '../../domain/x402/paid-subject.events.js';
import { paymentDecider, type PaymentCommand } from '../../domain/x402/payment.decider.js';
import { paymentStream } from '../../domain/x402/payment.events.js';
import { requirementFor } from '../../domain/x402/quote.js';
import { verifyPaymentLocally, type VerifiedPayment } from '../../domain/x402/verify-payment.js';
import type { X402Terms } from '../../domain/x402/x402-networks.js';
import type { PaymentPayload, SettlementResponse } from '../../domain/x402/x402-wire.js';
import type { CommandDeps } from '../command-deps.js';

export interface X402Deps extends CommandDeps {
  readonly facilitator: Facilitator;
  readonly terms: X402Terms;
}

export interface PaidCall<Result> {
  /** A fresh id for this request: the payment's events name it, and their ids derive from it. */
  readonly callId: string;
  readonly product: Product;
  /** The paid request, e.g. `GET /screen/ETH/0x…`. */
  readonly resource: string;
  /** Products paid once per subject (a transfer): a later proof for the same subject is never settled. */
  readonly subject?: string;
  readonly payment: PaymentPayload;
  /**
   * Facts of the request the client answers for, checked once the proof is verified and before the payment
   * is touched (e.g. that the transfer to check exists and is mined). A refusal here settles nothing and
   * leaves the proof's nonce unused, so the same proof can be sent again once the fact holds.
   */
  precheck?(): Promise<void>;
  /**
   * The backend; it runs only once the payment is settled, or waived for an already paid subject.
   * `paidBy` is the call whose payment covers this one: this call, or the subject's first payer (whose
   * call id names the subject's work, e.g. the transfer check, so every payer of the subject finds it).
   */
  run(context: { paidBy: string; payer: string }): Promise<Result>;
}

export interface PaidCallResult<Result> {
  readonly result: Result;
  /** The settlement receipt; null when an earlier payment for the same subject covered this call. */
  readonly receipt: SettlementResponse | null;
}

/**
 * The paid-call pipeline of the x402 channel, settle-first as the spec's errors imply:
 * 1. verify the proof locally against our own terms (no I/O), then the call's own precheck (nothing is
 *    recorded when it refuses: the proof stays usable);
 * 2. reserve (chain, asset, payer, nonce): the first append to the payment's stream, so a replayed proof,
 *    sequential or concurrent, is `payment_replayed` before any work;
 * 3. the facilitator verifies on-chain state (nonce unused, balance) and settles;
 * 4. only then the backend runs. A backend failure after settlement is recorded (no automatic refund) and
 *    answers `backend_unavailable` (502) or `service_internal_error` (500), with the receipt.
 * Every outcome is an event on the payment's stream, for accounting and reconciliation.
 */
export async function payForCall<Result extends { status: number }>(
  deps: X402Deps,
  call: PaidCall<Result>,
): Promise<PaidCallResult<Result>> {
  const now = () => deps.clock.now().toISOString();
  const priceMicros = PRODUCTS[call.product].priceMicros;
  const verified = await verifyPaymentLocally(call.payment, {
    terms: deps.terms,
    priceMicros,
    nowSeconds: Math.floor(deps.clock.now().getTime() / 1000),
  });
  const stream = paymentStream({
    chainId: deps.terms.network.chainId,
    asset: deps.terms.network.asset,
    payer: verified.payer,
    nonce: verified.authorization.nonce,
  });
  const record = (command: PaymentCommand) =>
    deps.executor.execute(stream, paymentDecider, command, { commandId: `x402:${call.callId}:${command.type}` });

  await call.precheck?.();

  await record({ type: 'Reserve', ...reservation(deps, call, verified), at: now() });

  const requirements = requirementFor(deps.terms, priceMicros);
  const refuse = async (stage: 'verify' | 'settle', code: ErrorCode, reason: string, transaction: string | null, message: string) => {
    await record({ type: 'RecordFailure', callId: call.callId, stage, code, reason, transaction, at: now() });
    return fail(code, message);
  };
  const verdict = await deps.facilitator.verify(call.payment, requirements).catch(async (error: unknown) => {
    throw await refuse('verify', 'backend_unavailable', errorText(error), null, 'the payment network is unreachable; nothing was charged');
  });
  if (!verdict.isValid) {
    const reason = verdict.invalidReason ?? 'invalid';
    throw await refuse(
      'verify',
      paymentCodeForReason(reason),
      reason,
      null,
      `the payment was refused: ${verdict.invalidMessage ?? reason}`,
    );
  }

  const holder = call.subject ? await claimSubject(deps, call, now()) : call.callId;
  if (holder !== call.callId) {
    await record({
      type: 'RecordWaiver',
      callId: call.callId,
      subject: present(call.subject, 'only products paid once per subject get here, and they have a subject'),
      at: now(),
    });
    return { result: await runBackend(deps, call, record, null, { paidBy: holder, payer: verified.payer.toLowerCase() }), receipt: null };
  }
  const receipt = await settle(deps, call, verified, requirements, record, now);
  return { result: await runBackend(deps, call, record, receipt, { paidBy: call.callId, payer: verified.payer.toLowerCase() }), receipt };
}

function reservation(deps: X402Deps, call: PaidCall<unknown>, verified: VerifiedPayment) {
  const { network, payTo } = deps.terms;
  return {
    callId: call.callId,
    network: network.caip2,
    asset: network.asset.toLowerCase(),
    payer: verified.payer.toLowerCase(),
    payTo: payTo.toLowerCase(),
    amount: verified.amount.toString(),
    nonce: verified.authorization.nonce.toLowerCase(),
    validBefore: verified.authorization.validBefore,
    product: call.product,
    resource: call.resource,
  };
}

async function settle(
  deps: X402Deps,
  call: PaidCall<unknown>,
  verified: VerifiedPayment,
  requirements: ReturnType<typeof requirementFor>,
  record: (command: PaymentCommand) => Promise<unknown>,
  now: () => string,
): Promise<SettlementResponse> {
  const release = () => (call.subject ? releaseSubject(deps, call, now()) : Promise.resolve());
  let settled;
  try {
    settled = await deps.facilitator.settle(call.payment, requirements);
  } catch (error) {
    const details = isServiceError(error) ? (error.details ?? {}) : {};
    const transaction = typeof details.transaction === 'string' ? details.transaction : null;
    if (details.broadcast === false) {
      await record({
        type: 'RecordFailure',
        callId: call.callId,
        stage: 'settle',
        code: 'backend_unavailable',
        reason: errorText(error),
        transaction,
        at: now(),
      });
      await release();
      throw fail('backend_unavailable', 'the payment network is unreachable; nothing was charged');
    }
    await record({ type: 'RecordUncertainSettlement', callId: call.callId, reason: errorText(error), transaction, at: now() });
    throw fail(
      'backend_unavailable',
      `the settlement's outcome is unknown${transaction ? ` (transaction ${transaction})` : ''}; it is recorded for reconciliation`,
    );
  }
  const receipt: SettlementResponse = {
    success: settled.success,
    transaction: settled.transaction,
    network: deps.terms.network.caip2,
    payer: verified.payer,
    ...(settled.errorReason ? { errorReason: settled.errorReason } : {}),
  };
  if (!settled.success) {
    const reason = settled.errorReason ?? 'settlement_failed';
    await record({
      type: 'RecordFailure',
      callId: call.callId,
      stage: 'settle',
      code: paymentCodeForReason(reason),
      reason,
      transaction: settled.transaction || null,
      at: now(),
    });
    await release();
    throw fail(paymentCodeForReason(reason), `the payment could not be settled: ${settled.errorMessage ?? reason}`, { receipt });
  }
  await record({ type: 'RecordSettlement', callId: call.callId, transaction: settled.transaction, at: now() });
  if (call.subject) {
    await deps.executor.execute(
      paidSubjectStream(call.product, call.subject),
      paidSubjectDecider,
      { type: 'Confirm', callId: call.callId, transaction: settled.transaction, at: now() },
      { commandId: `x402:${call.callId}:confirm` },
    );
  }
  return receipt;
}

/** Backend failures the client sees as they are; any other is `service_internal_error`. */
const PUBLIC_BACKEND_FAILURES: ReadonlySet<ErrorCode> = new Set(['backend_unavailable', 'tx_not_found', 'tx_decode_failed']);

async function runBackend<Result extends { status: number }>(
  deps: X402Deps,
  call: PaidCall<Result>,
  record: (command: PaymentCommand) => Promise<unknown>,
  receipt: SettlementResponse | null,
  payment: { paidBy: string; payer: string },
): Promise<Result> {
  const at = () => deps.clock.now().toISOString();
  let result: Result;
  try {
    result = await call.run(payment);
  } catch (error) {
    const code: ErrorCode = isServiceError(error) && PUBLIC_BACKEND_FAILURES.has(error.code) ? error.code : 'service_internal_error';
    await record({ type: 'RecordBackendFailure', callId: call.callId, code, at: at() });
    const paid = receipt ? `after the payment was settled (transaction ${receipt.transaction})` : 'for an already paid call';
    const what =
      code === 'backend_unavailable'
        ? 'the screening backend is unreachable'
        : code === 'service_internal_error'
          ? 'the call failed'
          : (error as Error).message;
    throw fail(
      code,
      `${what} ${paid}; the payment is recorded for reconciliation and is not refunded automatically`,
      receipt ? { receipt } : undefined,
    );
  }
  await record({ type: 'RecordServed', callId: call.callId, status: result.status, at: at() });
  return result;
}

/** The subject's holder after this call's claim: this call, or the one that claimed it first. */
async function claimSubject(deps: X402Deps, call: PaidCall<unknown>, at: string): Promise<string> {
  const outcome = await deps.executor.execute(
    paidSubjectStream(call.product, present(call.subject, 'only products paid once per subject get here, and they have a subject')),
    paidSubjectDecider,
    {
      type: 'Claim',
      callId: call.callId,
      product: call.product,
      subject: present(call.subject, 'only products paid once per subject get here, and they have a subject'),
      at,
    },
    { commandId: `x402:${call.callId}:claim` },
    (state) => present(state.holder, 'Claim always leaves a holder'),
  );
  return outcome.view;
}

async function releaseSubject(deps: X402Deps, call: PaidCall<unknown>, at: string): Promise<void> {
  await deps.executor.execute(
    paidSubjectStream(call.product, present(call.subject, 'only products paid once per subject get here, and they have a subject')),
    paidSubjectDecider,
    { type: 'Release', callId: call.callId, at },
    { commandId: `x402:${call.callId}:release` },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
