import { PRODUCTS, type Product } from '../domain/billing/products.js';
import { billingEnvelope, type BillingEnvelope } from '../domain/ledger/billing-envelope.js';
import { ledgerDecider, type LedgerState } from '../domain/ledger/ledger.decider.js';
import { ledgerStream, type ChargeDetails, type Plan } from '../domain/ledger/ledger.events.js';
import type { Micros } from '../domain/shared/money.js';
import type { CommandDeps } from './command-deps.js';

export interface ChargeResult {
  readonly billing: BillingEnvelope;
  /** True when this charge id had already been charged: nothing was taken this time. */
  readonly duplicate: boolean;
}

/**
 * Charges one call. The charge id is the call's identity (a check id, an idempotent call id…): charging
 * it again takes nothing. A refusal (402) rejects with insufficient_funds / quota_exceeded /
 * monthly_cap_exceeded carrying the details of the shortfall.
 */
export async function chargeCall(
  deps: CommandDeps,
  input: { userId: string; chargeId: string; product: Product; details: ChargeDetails; units?: number; priceMicros?: Micros },
): Promise<ChargeResult> {
  const product = PRODUCTS[input.product];
  const at = deps.clock.now().toISOString();
  const outcome = await deps.executor.execute(
    ledgerStream(input.userId),
    ledgerDecider,
    {
      type: 'Charge',
      chargeId: input.chargeId,
      product: input.product,
      units: input.units ?? product.units,
      priceMicros: input.priceMicros ?? product.priceMicros,
      at,
      details: input.details,
    },
    { commandId: `charge:${input.chargeId}` },
    (state: LedgerState) => {
      const charge = state.charges.get(input.chargeId)!;
      return billingEnvelope(state, charge, at);
    },
  );
  const duplicate = outcome.events.length === 0;
  return { billing: duplicate ? { ...outcome.view, replay: true } : outcome.view, duplicate };
}

/** Reverses what is left of a charge (backend failure after charging). */
export async function refundCall(deps: CommandDeps, input: { userId: string; chargeId: string; reason: string }): Promise<BillingEnvelope> {
  const at = deps.clock.now().toISOString();
  const outcome = await deps.executor.execute(
    ledgerStream(input.userId),
    ledgerDecider,
    { type: 'Refund', chargeId: input.chargeId, reason: input.reason, at },
    { commandId: `refund:${input.chargeId}` },
    (state: LedgerState) => billingEnvelope(state, { units: 0, amountMicros: 0 }, at),
  );
  return outcome.view;
}

export async function deposit(deps: CommandDeps, input: { userId: string; depositId?: string; amountMicros: Micros }): Promise<BillingEnvelope> {
  const at = deps.clock.now().toISOString();
  const depositId = input.depositId ?? deps.ids.newId();
  const outcome = await deps.executor.execute(
    ledgerStream(input.userId),
    ledgerDecider,
    { type: 'Deposit', depositId, amountMicros: input.amountMicros, at },
    { commandId: `deposit:${depositId}` },
    (state: LedgerState) => billingEnvelope(state, { units: 0, amountMicros: 0 }, at),
  );
  return outcome.view;
}

export async function changePlan(deps: CommandDeps, userId: string, plan: Plan): Promise<void> {
  const at = deps.clock.now().toISOString();
  await deps.executor.execute(ledgerStream(userId), ledgerDecider, { type: 'ChangePlan', plan, at }, { commandId: deps.ids.newId() });
}

export async function setMonthlyCap(deps: CommandDeps, userId: string, capMicros: Micros | null): Promise<void> {
  const at = deps.clock.now().toISOString();
  await deps.executor.execute(ledgerStream(userId), ledgerDecider, { type: 'SetMonthlyCap', capMicros, at }, { commandId: deps.ids.newId() });
}

/** The balance as the ledger stream says now (strongly consistent, not a read model). */
export async function readBalance(deps: CommandDeps, userId: string): Promise<{ plan: Plan; billing: BillingEnvelope; state: LedgerState }> {
  const { state } = await deps.executor.load(ledgerStream(userId), ledgerDecider);
  const at = deps.clock.now().toISOString();
  return { plan: state.plan, billing: billingEnvelope(state, { units: 0, amountMicros: 0 }, at), state };
}
