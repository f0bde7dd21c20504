import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/support/manual-clock.js';
import { ANSWER_MARGIN_MS, ANSWER_WITHIN_MS, answerBudget, SETTLEMENT_RESERVE_MS } from './answer-budget.js';

describe('a paid check’s answer budget', () => {
  it('the lookup before settlement leaves the settlement its reserve; the wait ends before the spec’s 30 s', async () => {
    const clock = manualClock();
    const budget = answerBudget(clock);
    expect(budget.lookupMs()).toBe(ANSWER_WITHIN_MS - SETTLEMENT_RESERVE_MS);
    expect(budget.waitMs(30_000)).toBe(ANSWER_WITHIN_MS - ANSWER_MARGIN_MS);
    expect(budget.waitMs(5_000)).toBe(5_000);
    await clock.advance(18_000); // a slow lookup, then the settlement
    expect(budget.lookupMs()).toBe(2_000);
    await clock.advance(4_000);
    expect(budget.lookupMs()).toBe(0);
    expect(budget.waitMs(30_000)).toBe(ANSWER_WITHIN_MS - 22_000 - ANSWER_MARGIN_MS);
    await clock.advance(30_000);
    expect(budget.waitMs(30_000)).toBe(0);
  });
});
