import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { fold } from '../shared/decider.js';
import { chargedBilling } from './charged-billing.js';
import { ledgerDecider, usageIn, type LedgerCommand } from './ledger.decider.js';
import type { ChargeDetails, LedgerEvent, Plan } from './ledger.events.js';

const spec = deciderSpec(ledgerDecider);

const MARCH = '2026-03-01T00:00:00.000Z';
const APRIL = '2026-04-01T00:00:00.000Z';
const T = '2026-03-10T12:00:00.000Z';
const T2 = '2026-03-20T08:30:00.000Z';
const LAST_MS_OF_MARCH = '2026-03-31T23:59:59.999Z';
const FIRST_MS_OF_APRIL = '2026-04-01T00:00:00.000Z';
const details: ChargeDetails = { endpoint: 'POST /v2/screen', keyId: 'k1', network: 'ethereum', subject: '0xabc' };

const QUOTA = (monthlyUnits: number): Plan => ({ kind: 'quota', monthlyUnits });
const LEDGER: Plan = { kind: 'ledger' };

// commands
const charge = (chargeId: string, at = T, priceMicros = 100_000, units = 1): LedgerCommand => ({
  type: 'Charge',
  chargeId,
  product: 'screen',
  units,
  priceMicros,
  at,
  details,
});
const refund = (chargeId: string, at = T2): LedgerCommand => ({ type: 'Refund', chargeId, reason: 'backend_failed', at });
const deposit = (depositId: string, amountMicros: number, at = T): LedgerCommand => ({ type: 'Deposit', depositId, amountMicros, at });

// events
const planChanged = (plan: Plan, at = T): LedgerEvent => ({ type: 'PlanChanged', data: { plan, at } });
const deposited = (depositId: string, amountMicros: number, at = T): LedgerEvent => ({
  type: 'FundsDeposited',
  data: { depositId, amountMicros, at },
});
const capSet = (capMicros: number | null, at = T): LedgerEvent => ({ type: 'MonthlyCapSet', data: { capMicros, at } });
const periodStarted = (periodStart: string, monthlyUnits: number): LedgerEvent => ({
  type: 'QuotaPeriodStarted',
  data: { periodStart, monthlyUnits },
});
const charged = (chargeId: string, o: { units?: number; amountMicros?: number; periodStart?: string; at?: string } = {}): LedgerEvent => ({
  type: 'Charged',
  data: {
    chargeId,
    product: 'screen',
    units: o.units ?? 0,
    amountMicros: o.amountMicros ?? 0,
    periodStart: o.periodStart ?? MARCH,
    at: o.at ?? T,
    details,
  },
});
const refunded = (chargeId: string, o: { units?: number; amountMicros?: number; at?: string } = {}): LedgerEvent => ({
  type: 'Refunded',
  data: { chargeId, units: o.units ?? 0, amountMicros: o.amountMicros ?? 0, reason: 'backend_failed', at: o.at ?? T2 },
});

/** A quota plan with `used` units already charged in March. */
const quotaHistory = (monthlyUnits: number, used: number): LedgerEvent[] => [
  planChanged(QUOTA(monthlyUnits)),
  ...(used > 0 ? [periodStarted(MARCH, monthlyUnits)] : []),
  ...Array.from({ length: used }, (_, i) => charged(`q${i}`, { units: 1 })),
];

/** A ledger plan funded with `balance` micros. */
const funded = (balance: number, cap: number | null = null): LedgerEvent[] => [
  planChanged(LEDGER),
  deposited('d1', balance),
  ...(cap === null ? [] : [capSet(cap)]),
];

describe('ledger decider: plans', () => {
  it('refuses a charge with quota_exceeded when the account has no plan', () => {
    spec.given([]).when(charge('c1')).thenThrows('quota_exceeded', { reason: 'no_plan' });
    // money alone is not a plan
    spec
      .given([deposited('d1', 10_000_000)])
      .when(charge('c1'))
      .thenThrows('quota_exceeded', { reason: 'no_plan' });
  });

  it('records plan changes and cap changes', () => {
    spec
      .given([])
      .when({ type: 'ChangePlan', plan: QUOTA(15), at: T })
      .then([planChanged(QUOTA(15))]);
    spec
      .given([])
      .when({ type: 'SetMonthlyCap', capMicros: 5_000_000, at: T })
      .then([capSet(5_000_000)]);
    spec
      .given([capSet(5_000_000)])
      .when({ type: 'SetMonthlyCap', capMicros: null, at: T })
      .then([capSet(null)]);
  });

  it('a plan change inside a month keeps the units already used in it', () => {
    const state = spec
      .given([...quotaHistory(3, 2)])
      .when({ type: 'ChangePlan', plan: QUOTA(2), at: T2 })
      .then([planChanged(QUOTA(2), T2)]);
    expect(state.periodUnitsUsed).toBe(2);
    spec
      .given([...quotaHistory(3, 2), planChanged(QUOTA(2), T2)])
      .when(charge('c9', T2))
      .thenThrows('quota_exceeded');
  });
});

describe('ledger decider: quota plans', () => {
  it('opens the month with QuotaPeriodStarted on its first charge, then charges units and no money', () => {
    spec
      .given([planChanged(QUOTA(15))])
      .when(charge('c1'))
      .then([periodStarted(MARCH, 15), charged('c1', { units: 1, amountMicros: 0 })]);
    spec
      .given(quotaHistory(15, 1))
      .when(charge('c2'))
      .then([charged('c2', { units: 1 })]);
  });

  it('allows exactly N units a month, then refuses with quota_exceeded and the usage details', () => {
    spec
      .given(quotaHistory(3, 2))
      .when(charge('c3'))
      .then([charged('c3', { units: 1 })]);
    spec.given(quotaHistory(3, 3)).when(charge('c4')).thenThrows('quota_exceeded', { monthlyQuota: 3, unitsUsed: 3, periodStart: MARCH });
    // a multi-unit call that would overshoot is refused as a whole
    spec
      .given(quotaHistory(3, 2))
      .when(charge('big', T, 0, 2))
      .thenThrows('quota_exceeded', { unitsUsed: 2 });
    // a zero quota allows nothing
    spec
      .given([planChanged(QUOTA(0))])
      .when(charge('c1'))
      .thenThrows('quota_exceeded');
  });

  it('a new calendar month (UTC) resets the usage with QuotaPeriodStarted', () => {
    spec
      .given(quotaHistory(3, 3))
      .when(charge('c4', FIRST_MS_OF_APRIL))
      .then([periodStarted(APRIL, 3), charged('c4', { units: 1, periodStart: APRIL, at: FIRST_MS_OF_APRIL })]);
    // the last millisecond of March still belongs to March
    spec.given(quotaHistory(3, 3)).when(charge('c4', LAST_MS_OF_MARCH)).thenThrows('quota_exceeded');
    const state = spec
      .given([...quotaHistory(3, 3), periodStarted(APRIL, 3), charged('c4', { units: 1, periodStart: APRIL })])
      .when(charge('c5', '2026-04-02T00:00:00.000Z'))
      .then([charged('c5', { units: 1, periodStart: APRIL, at: '2026-04-02T00:00:00.000Z' })]);
    expect(usageIn(state, '2026-04-15T00:00:00.000Z').units).toBe(2);
    expect(usageIn(state, '2026-05-01T00:00:00.000Z').units).toBe(0);
  });

  it('a charge that arrives late (its time in an earlier month) never reopens that month nor resets the current one', () => {
    // e.g. a retry after a wrong-expected-version conflict, or a clock stepped back across midnight
    const aprilExhausted = [
      ...quotaHistory(2, 0),
      periodStarted(APRIL, 2),
      charged('a1', { units: 1, periodStart: APRIL, at: FIRST_MS_OF_APRIL }),
      charged('a2', { units: 1, periodStart: APRIL, at: FIRST_MS_OF_APRIL }),
    ];
    spec.given(aprilExhausted).when(charge('late', LAST_MS_OF_MARCH)).thenThrows('quota_exceeded', { unitsUsed: 2 });
    const oneLeft = aprilExhausted.slice(0, -1);
    const state = spec
      .given(oneLeft)
      .when(charge('late', LAST_MS_OF_MARCH))
      .then([charged('late', { units: 1, periodStart: APRIL, at: LAST_MS_OF_MARCH })]);
    expect(state.periodStart).toBe(APRIL);
    expect(state.periodUnitsUsed).toBe(2);
  });
});

describe('ledger decider: ledger plans', () => {
  it('charges the price and no units', () => {
    const state = spec
      .given(funded(1_000_000))
      .when(charge('c1', T, 300_000))
      .then([periodStarted(MARCH, 0), charged('c1', { amountMicros: 300_000 })]);
    expect(state.balanceMicros).toBe(700_000);
    expect(usageIn(state, T)).toEqual({ units: 0, spentMicros: 300_000 });
  });

  it('may spend the balance down to exactly zero', () => {
    const state = spec
      .given(funded(100_000))
      .when(charge('c1'))
      .then([periodStarted(MARCH, 0), charged('c1', { amountMicros: 100_000 })]);
    expect(state.balanceMicros).toBe(0);
  });

  it('refuses with insufficient_funds and the shortfall when the balance is too low', () => {
    spec
      .given(funded(250_000, 5_000_000))
      .when(charge('c1', T, 1_000_000))
      .thenThrows('insufficient_funds', {
        balanceMicros: 250_000,
        priceMicros: 1_000_000,
        shortfallMicros: 750_000,
        monthlySpentMicros: 0,
        monthlyCapMicros: 5_000_000,
      });
    spec
      .given([planChanged(LEDGER)])
      .when(charge('c1'))
      .thenThrows('insufficient_funds', { balanceMicros: 0, shortfallMicros: 100_000 });
  });

  it('refuses with monthly_cap_exceeded once the month would spend above the cap', () => {
    const history = [
      ...funded(10_000_000, 250_000),
      periodStarted(MARCH, 0),
      charged('c1', { amountMicros: 100_000 }),
      charged('c2', { amountMicros: 100_000 }),
    ];
    spec
      .given(history)
      .when(charge('c3', T, 50_000))
      .then([charged('c3', { amountMicros: 50_000 })]);
    spec
      .given(history)
      .when(charge('c3', T, 100_000))
      .thenThrows('monthly_cap_exceeded', { monthlyCapMicros: 250_000, monthlySpentMicros: 200_000 });
    // the cap is per month: April starts from zero
    spec
      .given(history)
      .when(charge('c3', FIRST_MS_OF_APRIL, 100_000))
      .then([periodStarted(APRIL, 0), charged('c3', { amountMicros: 100_000, periodStart: APRIL, at: FIRST_MS_OF_APRIL })]);
    // removing the cap lifts the limit
    spec
      .given([...history, capSet(null)])
      .when(charge('c3', T, 100_000))
      .then([charged('c3', { amountMicros: 100_000 })]);
    // the cap is checked before the balance
    spec
      .given([...funded(0, 0)])
      .when(charge('c1'))
      .thenThrows('monthly_cap_exceeded');
  });
});

describe('ledger decider: exactly-once charges', () => {
  const once = [...funded(1_000_000), periodStarted(MARCH, 0), charged('c1', { amountMicros: 100_000 })];

  it('a second Charge of the same chargeId decides nothing', () => {
    const state = spec.given(once).when(charge('c1')).thenNothingHappened();
    expect(state.balanceMicros).toBe(900_000);
  });

  it('decides nothing for a known chargeId even when it could not be charged now (other price, month, plan, after a refund)', () => {
    spec
      .given(once)
      .when(charge('c1', T, 50_000_000))
      .thenNothingHappened();
    spec.given(once).when(charge('c1', FIRST_MS_OF_APRIL)).thenNothingHappened();
    spec
      .given([...once, planChanged({ kind: 'none' })])
      .when(charge('c1'))
      .thenNothingHappened();
    spec
      .given([...once, refunded('c1', { amountMicros: 100_000 })])
      .when(charge('c1'))
      .thenNothingHappened();
  });
});

describe('ledger decider: refunds', () => {
  const ledgerCharged = [...funded(1_000_000), periodStarted(MARCH, 0), charged('c1', { amountMicros: 300_000 })];
  const quotaCharged = [...quotaHistory(2, 2)];

  it('refuses a refund of an unknown charge with not_found', () => {
    spec.given(ledgerCharged).when(refund('nope')).thenThrows('not_found');
    spec.given([]).when(refund('nope')).thenThrows('not_found');
  });

  it('refunds what is left of the charge and restores the balance and monthly spend', () => {
    const state = spec
      .given(ledgerCharged)
      .when(refund('c1'))
      .then([refunded('c1', { amountMicros: 300_000 })]);
    expect(state.balanceMicros).toBe(1_000_000);
    expect(usageIn(state, T2).spentMicros).toBe(0);
    expect(state.charges.get('c1')).toMatchObject({ amountMicros: 300_000, refundedMicros: 300_000 });
  });

  it('refunds restore quota units: an exhausted month can charge again', () => {
    const state = spec
      .given(quotaCharged)
      .when(refund('q0'))
      .then([refunded('q0', { units: 1 })]);
    expect(usageIn(state, T2).units).toBe(1);
    spec
      .given([...quotaCharged, refunded('q0', { units: 1 })])
      .when(charge('c9', T2))
      .then([charged('c9', { units: 1, at: T2 })]);
  });

  it('a second refund of the same charge decides nothing', () => {
    const state = spec
      .given([...ledgerCharged, refunded('c1', { amountMicros: 300_000 })])
      .when(refund('c1'))
      .thenNothingHappened();
    expect(state.balanceMicros).toBe(1_000_000);
    spec
      .given([...quotaCharged, refunded('q1', { units: 1 })])
      .when(refund('q1'))
      .thenNothingHappened();
  });

  it('refunding a charge of an earlier month gives the money back without touching this month’s usage', () => {
    const history = [
      ...funded(1_000_000),
      periodStarted(MARCH, 0),
      charged('c1', { amountMicros: 300_000 }),
      periodStarted(APRIL, 0),
      charged('c2', { amountMicros: 200_000, periodStart: APRIL, at: FIRST_MS_OF_APRIL }),
    ];
    const state = spec
      .given(history)
      .when(refund('c1', '2026-04-02T00:00:00.000Z'))
      .then([refunded('c1', { amountMicros: 300_000, at: '2026-04-02T00:00:00.000Z' })]);
    expect(state.balanceMicros).toBe(800_000);
    expect(usageIn(state, '2026-04-02T00:00:00.000Z').spentMicros).toBe(200_000);
  });
});

describe('ledger decider: deposits', () => {
  it('deposits add to the balance', () => {
    const state = spec
      .given([deposited('d1', 1_000)])
      .when(deposit('d2', 2_500))
      .then([deposited('d2', 2_500)]);
    expect(state.balanceMicros).toBe(3_500);
  });

  it('a deposit is idempotent by depositId, whatever its amount', () => {
    const state = spec
      .given([deposited('d1', 1_000)])
      .when(deposit('d1', 1_000))
      .thenNothingHappened();
    expect(state.balanceMicros).toBe(1_000);
    spec
      .given([deposited('d1', 1_000)])
      .when(deposit('d1', 9_999))
      .thenNothingHappened();
  });

  it('refuses deposits that are not a positive whole number of micro-USD', () => {
    for (const amount of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      spec.given([]).when(deposit('d1', amount)).thenThrows('bad_request');
    }
  });
});

describe('ledger decider: replay and envelope', () => {
  it('parse skips unknown event types and evolve ignores them', () => {
    expect(ledgerDecider.parse({ type: 'SomethingNew', data: {} })).toBeNull();
    const state = fold(ledgerDecider, ledgerDecider.initialState(), funded(5));
    const same = ledgerDecider.evolve(state, { type: 'SomethingNew', data: {} } as unknown as LedgerEvent);
    expect(same.balanceMicros).toBe(5);
  });

  it('parse rejects a stored event that breaks its schema (negative money)', () => {
    expect(() => ledgerDecider.parse({ type: 'FundsDeposited', data: { depositId: 'd', amountMicros: -1, at: T } })).toThrow();
  });

  it('chargedBilling reports the ledger plan in micro-USD and the quota plan in units', () => {
    const ledgerState = fold(ledgerDecider, ledgerDecider.initialState(), [
      ...funded(2_000_000, 1_500_000),
      periodStarted(MARCH, 0),
      charged('c1', { amountMicros: 500_000 }),
    ]);
    expect(chargedBilling(ledgerState, { units: 0, amountMicros: 500_000 }, T)).toEqual({
      model: 'ledger',
      chargedMicros: 500_000,
      balanceMicros: 1_500_000,
      monthlySpentMicros: 500_000,
      monthlyCapMicros: 1_500_000,
      replay: false,
    });
    const quotaState = fold(ledgerDecider, ledgerDecider.initialState(), quotaHistory(15, 4));
    expect(chargedBilling(quotaState, { units: 1, amountMicros: 0 }, T, true)).toEqual({
      model: 'quota',
      chargedUnits: 1,
      unitsUsed: 4,
      monthlyQuota: 15,
      periodStart: MARCH,
      replay: true,
    });
  });
});
