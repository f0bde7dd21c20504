import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodStartOf } from '../billing/period.js';
import { fold } from '../shared/decider.js';
import { isServiceError, type ErrorCode } from '../shared/errors.js';
import { ledgerDecider, usageIn, type LedgerCommand, type LedgerState } from './ledger.decider.js';
import type { LedgerEvent, Plan } from './ledger.events.js';

/**
 * Random command sequences against the ledger decider, audited after every step by code that reads
 * only the event list (docs/ARCHITECTURE.md#ledger-invariants, TigerBeetle's auditor pattern): exactly-once
 * charges, no overdraft, refunds bounded by their charge, caps and quotas as they stood at the time of
 * each charge, conservation of money, and replay determinism. A small independent model also predicts
 * each command's outcome (accepted, nothing, or which refusal).
 */

const details = { endpoint: 'POST /v2/screen', keyId: null, network: null, subject: null };
const START = Date.parse('2026-01-29T18:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Step =
  | { kind: 'deposit'; id: number; amount: number }
  | { kind: 'charge'; id: number; price: number; units: number }
  | { kind: 'refund'; id: number }
  | { kind: 'cap'; cap: number | null }
  | { kind: 'plan'; plan: Plan };

/** A step and how far the clock moves before it (sometimes backwards: a late or retried command). */
interface TimedStep {
  readonly step: Step;
  readonly advanceMs: number;
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('deposit' as const), id: fc.nat(5), amount: fc.integer({ min: 1, max: 2_000_000 }) }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      id: fc.nat(11),
      price: fc.constantFrom(0, 50_000, 100_000, 500_000, 1_000_000),
      units: fc.integer({ min: 1, max: 3 }),
    }),
  },
  // ids 12 and 13 are never charged: refunds of unknown charges
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refund' as const), id: fc.nat(13) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cap' as const), cap: fc.option(fc.integer({ min: 0, max: 1_500_000 }), { nil: null }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('plan' as const),
      plan: fc.oneof(
        fc.constant<Plan>({ kind: 'none' }),
        fc.constant<Plan>({ kind: 'ledger' }),
        fc.integer({ min: 0, max: 8 }).map((monthlyUnits): Plan => ({ kind: 'quota', monthlyUnits })),
      ),
    }),
  },
);

const advanceArb = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 6 * HOUR }) },
  { weight: 4, arbitrary: fc.integer({ min: 1 * DAY, max: 12 * DAY }) },
  // a command decided late: its time is before the previous one's, often in the previous month
  { weight: 2, arbitrary: fc.integer({ min: -12 * DAY, max: -1 }) },
);

const planArb = fc.oneof(
  fc.constant<Plan>({ kind: 'ledger' }),
  fc.integer({ min: 0, max: 8 }).map((monthlyUnits): Plan => ({ kind: 'quota', monthlyUnits })),
);

/** Mostly starts on a paid plan (with money on ledger plans) so that charges are not all refused. */
const scenarioArb = fc
  .tuple(
    fc.option(planArb, { nil: null, freq: 8 }),
    fc.integer({ min: 0, max: 3_000_000 }),
    fc.array(fc.record({ step: stepArb, advanceMs: advanceArb }), { minLength: 1, maxLength: 70 }),
  )
  .map(([plan, funds, steps]): TimedStep[] => [
    ...(plan ? [{ step: { kind: 'plan', plan } as Step, advanceMs: 0 }] : []),
    ...(funds > 0 ? [{ step: { kind: 'deposit', id: 0, amount: funds } as Step, advanceMs: 0 }] : []),
    ...steps,
  ]);

function toCommand(step: Step, at: string): LedgerCommand {
  switch (step.kind) {
    case 'deposit':
      return { type: 'Deposit', depositId: `d${step.id}`, amountMicros: step.amount, at };
    case 'charge':
      return { type: 'Charge', chargeId: `c${step.id}`, product: 'screen', units: step.units, priceMicros: step.price, at, details };
    case 'refund':
      return { type: 'Refund', chargeId: `c${step.id}`, reason: 'test', at };
    case 'cap':
      return { type: 'SetMonthlyCap', capMicros: step.cap, at };
    case 'plan':
      return { type: 'ChangePlan', plan: step.plan, at };
  }
}

/**
 * Everything the event list alone says, recomputed from scratch, with every invariant asserted on the
 * way. Deliberately shares no code with the decider beyond `periodStartOf`.
 */
function audit(events: readonly LedgerEvent[]) {
  let balance = 0;
  let plan: Plan = { kind: 'none' };
  let cap: number | null = null;
  let currentPeriod: string | null = null;
  const deposits = new Set<string>();
  const charges = new Map<string, { units: number; amount: number; period: string; refundedUnits: number; refundedAmount: number }>();
  /** Net units and micros per period: charges of the period minus refunds of those charges. */
  const perPeriod = new Map<string, { units: number; spent: number }>();
  const periodOf = (p: string) => perPeriod.get(p) ?? perPeriod.set(p, { units: 0, spent: 0 }).get(p)!;

  for (const event of events) {
    switch (event.type) {
      case 'PeriodOpened':
      case 'PeriodClosed':
        // period boundaries carry the state over unchanged: the model runs across them
        break;
      case 'PlanChanged':
        plan = event.data.plan;
        break;
      case 'MonthlyCapSet':
        cap = event.data.capMicros;
        break;
      case 'FundsDeposited':
        expect(deposits.has(event.data.depositId), `deposit ${event.data.depositId} credited twice`).toBe(false);
        deposits.add(event.data.depositId);
        balance += event.data.amountMicros;
        break;
      case 'QuotaPeriodStarted':
        if (currentPeriod !== null) {
          expect(Date.parse(event.data.periodStart), 'a period never starts before the current one').toBeGreaterThan(
            Date.parse(currentPeriod),
          );
        }
        currentPeriod = event.data.periodStart;
        break;
      case 'Charged': {
        const { chargeId, units, amountMicros, periodStart } = event.data;
        expect(charges.has(chargeId), `charge ${chargeId} charged twice`).toBe(false);
        expect(periodStart, 'a charge counts in the current period').toBe(currentPeriod);
        // the period is the charge's own calendar month unless that month is already over
        if (Date.parse(periodStartOf(event.data.at)) >= Date.parse(periodStart)) expect(periodStart).toBe(periodStartOf(event.data.at));
        expect(plan.kind, 'no charge without a plan').not.toBe('none');
        charges.set(chargeId, { units, amount: amountMicros, period: periodStart, refundedUnits: 0, refundedAmount: 0 });
        balance -= amountMicros;
        const period = periodOf(periodStart);
        period.units += units;
        period.spent += amountMicros;
        if (plan.kind === 'quota') {
          expect(amountMicros, 'quota plans charge no money').toBe(0);
          expect(period.units, `quota usage above the quota in ${periodStart}`).toBeLessThanOrEqual(plan.monthlyUnits);
        } else {
          expect(units, 'ledger plans charge no units').toBe(0);
          if (cap !== null) expect(period.spent, `monthly spend above the cap in ${periodStart}`).toBeLessThanOrEqual(cap);
        }
        break;
      }
      case 'Refunded': {
        const charge = charges.get(event.data.chargeId);
        expect(charge, `refund of unknown charge ${event.data.chargeId}`).toBeDefined();
        if (!charge) break;
        charge.refundedUnits += event.data.units;
        charge.refundedAmount += event.data.amountMicros;
        expect(charge.refundedUnits, 'refund above its charge (units)').toBeLessThanOrEqual(charge.units);
        expect(charge.refundedAmount, 'refund above its charge (micros)').toBeLessThanOrEqual(charge.amount);
        expect(event.data.units + event.data.amountMicros, 'a refund that refunds nothing').toBeGreaterThan(0);
        balance += event.data.amountMicros;
        const period = periodOf(charge.period);
        period.units -= event.data.units;
        period.spent -= event.data.amountMicros;
        break;
      }
    }
    expect(balance, 'balance below zero').toBeGreaterThanOrEqual(0);
  }
  const totals = {
    deposited: sum(events, (e) => (e.type === 'FundsDeposited' ? e.data.amountMicros : 0)),
    charged: sum(events, (e) => (e.type === 'Charged' ? e.data.amountMicros : 0)),
    refunded: sum(events, (e) => (e.type === 'Refunded' ? e.data.amountMicros : 0)),
  };
  // conservation: the running balance is exactly deposits − charges + refunds
  expect(balance).toBe(totals.deposited - totals.charged + totals.refunded);
  return { balance, plan, cap, currentPeriod, charges, perPeriod, deposits };
}

const sum = (events: readonly LedgerEvent[], f: (e: LedgerEvent) => number) => events.reduce((s, e) => s + f(e), 0);

/** What an independent model predicts for a command: events, nothing, or a refusal code. */
function predict(command: LedgerCommand, model: ReturnType<typeof audit>): 'events' | 'nothing' | ErrorCode {
  switch (command.type) {
    case 'ChangePlan':
    case 'SetMonthlyCap':
      return 'events';
    case 'Deposit':
      return model.deposits.has(command.depositId) ? 'nothing' : 'events';
    case 'Refund': {
      const charge = model.charges.get(command.chargeId);
      if (!charge) return 'not_found';
      return charge.refundedUnits === charge.units && charge.refundedAmount === charge.amount ? 'nothing' : 'events';
    }
    case 'Charge': {
      if (model.charges.has(command.chargeId)) return 'nothing';
      const monthOfAt = periodStartOf(command.at);
      const period =
        model.currentPeriod !== null && Date.parse(monthOfAt) < Date.parse(model.currentPeriod) ? model.currentPeriod : monthOfAt;
      const used = period === model.currentPeriod ? (model.perPeriod.get(period) ?? { units: 0, spent: 0 }) : { units: 0, spent: 0 };
      if (model.plan.kind === 'none') return 'quota_exceeded';
      if (model.plan.kind === 'quota') return used.units + command.units > model.plan.monthlyUnits ? 'quota_exceeded' : 'events';
      if (model.cap !== null && used.spent + command.priceMicros > model.cap) return 'monthly_cap_exceeded';
      return model.balance < command.priceMicros ? 'insufficient_funds' : 'events';
    }
    case 'ClosePeriod':
    case 'OpenPeriod':
      return 'events';
  }
}

function snapshot(state: LedgerState) {
  return {
    plan: state.plan,
    balanceMicros: state.balanceMicros,
    monthlyCapMicros: state.monthlyCapMicros,
    periodStart: state.periodStart,
    periodUnitsUsed: state.periodUnitsUsed,
    periodSpentMicros: state.periodSpentMicros,
    deposits: [...state.deposits].sort(),
    charges: [...state.charges.entries()].sort(([a], [b]) => a.localeCompare(b)),
  };
}

function run(scenario: readonly TimedStep[]) {
  let state = ledgerDecider.initialState();
  const events: LedgerEvent[] = [];
  let now = START;
  const outcomes: string[] = [];
  for (const { step, advanceMs } of scenario) {
    now += advanceMs;
    const at = new Date(now).toISOString();
    const command = toCommand(step, at);
    const model = audit(events);
    const predicted = predict(command, model);
    const before = snapshot(state);
    let outcome: string;
    try {
      const produced = ledgerDecider.decide(command, state);
      outcome = produced.length === 0 ? 'nothing' : 'events';
      state = fold(ledgerDecider, state, produced);
      events.push(...produced);
    } catch (error) {
      if (!isServiceError(error)) throw error;
      outcome = error.code;
      expect(snapshot(state), 'a refused command leaves the state untouched').toEqual(before);
      if (error.code === 'insufficient_funds') {
        expect(error.details).toMatchObject({ shortfallMicros: (command as { priceMicros: number }).priceMicros - model.balance });
      }
    }
    expect(outcome, `${command.type} at ${at}`).toBe(predicted);
    outcomes.push(outcome);
    if (command.type === 'Charge' && outcome === 'events') {
      const month = periodStartOf(at);
      if (model.currentPeriod !== null && month !== model.currentPeriod) {
        outcomes.push(Date.parse(month) < Date.parse(model.currentPeriod) ? 'late charge in a closed month' : 'charge opening a new month');
      }
    }

    // after every step: the audit of the whole event list, and the live state agrees with it
    const after = audit(events);
    expect(state.balanceMicros).toBe(after.balance);
    expect(state.charges.size).toBe(after.charges.size);
    if (state.periodStart !== null) {
      const p = after.perPeriod.get(state.periodStart) ?? { units: 0, spent: 0 };
      // refunds of a closed month's charges never touch the current month
      expect(usageIn(state, state.periodStart)).toEqual({ units: p.units, spentMicros: p.spent });
    }
  }
  // replay determinism: the events as stored (JSON, parsed back) fold into the same state, twice
  const stored = JSON.parse(JSON.stringify(events)) as unknown[];
  const replay = () =>
    fold(
      ledgerDecider,
      ledgerDecider.initialState(),
      stored.map((e) => ledgerDecider.parse(e as LedgerEvent)!),
    );
  expect(snapshot(replay())).toEqual(snapshot(state));
  expect(snapshot(replay())).toEqual(snapshot(replay()));
  return outcomes;
}

describe('ledger decider properties', () => {
  it('keeps every ledger invariant over random command sequences, and an independent model predicts every outcome', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        run(scenario).forEach((o) => seen.add(o));
      }),
      { numRuns: 400 },
    );
    // the generator reaches every outcome, so the properties are not vacuous
    expect([...seen].sort()).toEqual([
      'charge opening a new month',
      'events',
      'insufficient_funds',
      'late charge in a closed month',
      'monthly_cap_exceeded',
      'not_found',
      'nothing',
      'quota_exceeded',
    ]);
  });

  it('a funded ledger under a storm of repeated charge ids charges each id at most once and spends down to exactly what was affordable', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_000_000 }),
        fc.array(fc.record({ id: fc.nat(30), price: fc.constantFrom(100_000, 500_000, 1_000_000) }), { minLength: 1, maxLength: 120 }),
        (funds, attempts) => {
          const at = '2026-02-14T10:00:00.000Z';
          let state = fold(ledgerDecider, ledgerDecider.initialState(), [
            { type: 'PlanChanged', data: { plan: { kind: 'ledger' }, at } },
            ...(funds > 0 ? [{ type: 'FundsDeposited' as const, data: { depositId: 'd', amountMicros: funds, at } }] : []),
          ]);
          let expectedBalance = funds;
          const charged = new Set<string>();
          for (const { id, price } of attempts) {
            const command = toCommand({ kind: 'charge', id, price, units: 1 }, at);
            let produced: readonly LedgerEvent[];
            try {
              produced = ledgerDecider.decide(command, state);
            } catch (error) {
              if (!isServiceError(error) || error.code !== 'insufficient_funds') throw error;
              expect(expectedBalance).toBeLessThan(price);
              continue;
            }
            if (charged.has(`c${id}`)) expect(produced).toEqual([]);
            else {
              expect(produced.filter((e) => e.type === 'Charged')).toHaveLength(1);
              charged.add(`c${id}`);
              expectedBalance -= price;
            }
            state = fold(ledgerDecider, state, produced);
            expect(state.balanceMicros).toBe(expectedBalance);
            expect(state.balanceMicros).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
