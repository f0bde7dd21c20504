import { PRODUCTS, type Product } from '../domain/billing/products.js';
import { chargedBilling, type ChargedBilling } from '../domain/ledger/charged-billing.js';
import { refusalEnvelope } from './billing-refusal.js';
import { chargeRecordOf, ledgerDecider, type LedgerState } from '../domain/ledger/ledger.decider.js';
import type { ChargeDetails, Plan } from '../domain/ledger/ledger.events.js';
import { fail, isServiceError } from '../domain/shared/errors.js';
import { present } from '../domain/shared/present.js';
import type { Micros } from '../domain/shared/money.js';
import type { CommandDeps } from './command-deps.js';
import { depositSeenEarlier, earlierCharge, executeOnLedger, ledgerHead } from './ledger-chain.js';

export interface ChargeResult {
  readonly billing: ChargedBilling;
  /** True when this charge id had already been charged: nothing was taken this time. */
  readonly duplicate: boolean;
}

/**
 * Charges one call. The charge id is the call's identity (a check id, an idempotent call id…): charging
 * it again takes nothing. A refusal (402) rejects with insufficient_funds / quota_exceeded /
 * monthly_cap_exceeded carrying the details of the shortfall. The charge id is deduplicated across the
 * ledger's periods: one taken in an earlier month (a check charged on the 31st, polled on the 1st) is
 * found in the closed period that took it (see domain/ledger/ledger-period.ts).
 */
export async function chargeCall(
  deps: CommandDeps,
  input: { userId: string; chargeId: string; product: Product; details: ChargeDetails; units?: number; priceMicros?: Micros },
): Promise<ChargeResult> {
  const product = PRODUCTS[input.product];
  const at = deps.clock.now().toISOString();
  let earlier: Awaited<ReturnType<typeof earlierCharge>> = null;
  const outcome = await executeOnLedger(
    deps,
    input.userId,
    async (head) => {
      earlier = await earlierCharge(deps, head, input.chargeId);
      return {
        type: 'Charge',
        chargeId: input.chargeId,
        product: input.product,
        units: input.units ?? product.units,
        priceMicros: input.priceMicros ?? product.priceMicros,
        at,
        details: input.details,
        earlier,
      };
    },
    { commandId: `charge:${input.chargeId}` },
    (state: LedgerState) => {
      const charge = present(chargeRecordOf(state, input.chargeId, earlier), 'the charge just recorded');
      const refunded =
        charge.refundedMicros + charge.refundedUnits > 0 &&
        charge.refundedMicros === charge.amountMicros &&
        charge.refundedUnits === charge.units;
      return { envelope: chargedBilling(state, charge, at), refunded };
    },
  ).catch((error: unknown) => {
    throw withRefusalEnvelope(error);
  });
  const duplicate = outcome.events.length === 0;
  // A call id whose charge was refunded (the call failed) must not be served again for free.
  if (duplicate && outcome.view.refunded) {
    throw fail('backend_unavailable', 'this call failed earlier and its charge was refunded; send it again with a new Idempotency-Key');
  }
  const { envelope } = outcome.view;
  return { billing: duplicate ? { ...envelope, replay: true } : envelope, duplicate };
}

/**
 * Refuses now, with the same 402 as chargeCall, a charge the ledger would refuse; takes nothing. For calls
 * charged on delivery (inspect): a call that cannot pay is refused before any work starts.
 */
export async function assertCanCharge(
  deps: CommandDeps,
  input: { userId: string; product: Product; units: number; priceMicros: Micros },
): Promise<void> {
  const { state } = await ledgerHead(deps, input.userId);
  const probe = {
    type: 'Charge',
    // Decided, never appended: an id no call has, so the ledger judges it as a new charge.
    chargeId: PROBE_CHARGE_ID,
    product: input.product,
    units: input.units,
    priceMicros: input.priceMicros,
    at: deps.clock.now().toISOString(),
    details: { endpoint: PRODUCTS[input.product].endpoint, keyId: null, network: null, subject: null },
  } as const;
  try {
    ledgerDecider.decide(probe, state);
  } catch (error) {
    throw withRefusalEnvelope(error);
  }
}

/** Call ids are uuids or `kind:id` pairs; none is this one. */
const PROBE_CHARGE_ID = 'probe:can-charge?';

/** A 402 carries the billing envelope of the refused call (nothing charged), with the shortfall. */
function withRefusalEnvelope(error: unknown): unknown {
  if (!isServiceError(error) || !['insufficient_funds', 'monthly_cap_exceeded', 'quota_exceeded'].includes(error.code)) return error;
  return fail(error.code, error.message, { billing: refusalEnvelope(error.details ?? {}) });
}

/** Reverses what is left of a charge (backend failure after charging). */
export async function refundCall(deps: CommandDeps, input: { userId: string; chargeId: string; reason: string }): Promise<ChargedBilling> {
  const at = deps.clock.now().toISOString();
  const outcome = await executeOnLedger(
    deps,
    input.userId,
    async (head) => ({
      type: 'Refund',
      chargeId: input.chargeId,
      reason: input.reason,
      at,
      earlier: await earlierCharge(deps, head, input.chargeId),
    }),
    { commandId: `refund:${input.chargeId}` },
    (state: LedgerState) => chargedBilling(state, { units: 0, amountMicros: 0 }, at),
  );
  return outcome.view;
}

export async function deposit(
  deps: CommandDeps,
  input: { userId: string; depositId?: string; amountMicros: Micros },
): Promise<ChargedBilling> {
  const at = deps.clock.now().toISOString();
  const depositId = input.depositId ?? deps.ids.newId();
  const outcome = await executeOnLedger(
    deps,
    input.userId,
    async (head) => ({
      type: 'Deposit',
      depositId,
      amountMicros: input.amountMicros,
      at,
      seenEarlier: await depositSeenEarlier(deps, head, depositId),
    }),
    { commandId: `deposit:${depositId}` },
    (state: LedgerState) => chargedBilling(state, { units: 0, amountMicros: 0 }, at),
  );
  return outcome.view;
}

export async function changePlan(deps: CommandDeps, userId: string, plan: Plan): Promise<void> {
  const at = deps.clock.now().toISOString();
  await executeOnLedger(deps, userId, async () => ({ type: 'ChangePlan', plan, at }), { commandId: deps.ids.newId() });
}

export async function setMonthlyCap(deps: CommandDeps, userId: string, capMicros: Micros | null): Promise<void> {
  const at = deps.clock.now().toISOString();
  await executeOnLedger(deps, userId, async () => ({ type: 'SetMonthlyCap', capMicros, at }), { commandId: deps.ids.newId() });
}

/** The balance as the ledger's current period says now (strongly consistent, not a read model). */
export async function readBalance(deps: CommandDeps, userId: string): Promise<{ plan: Plan; billing: ChargedBilling; state: LedgerState }> {
  const { state } = await ledgerHead(deps, userId);
  const at = deps.clock.now().toISOString();
  return { plan: state.plan, billing: chargedBilling(state, { units: 0, amountMicros: 0 }, at), state };
}
