import type { Clock } from '../../domain/ports/clock.port.js';

/**
 * The spec's bound on a paid check's answer ("waits up to 30 s; 200 with the full result, or 202"),
 * counted from its arrival: the lookup before settlement, the settlement and the wait for the result included.
 */
export const ANSWER_WITHIN_MS = 30_000;
/** What the lookup before settlement must leave of the bound: verifying and settling the payment, and answering. */
export const SETTLEMENT_RESERVE_MS = 10_000;
/** Kept back from the wait for the result: writing the answer, and its way to the client on a loaded machine. */
export const ANSWER_MARGIN_MS = 1_500;

/** A paid call's time, counted from its arrival on `clock`. */
export interface AnswerBudget {
  /** How long the lookup before settlement may still take. */
  lookupMs(): number;
  /** How long to wait for the result now: `configured` at most, and never past the answer's bound. */
  waitMs(configured: number): number;
}

export function answerBudget(clock: Clock): AnswerBudget {
  const deadline = clock.now().getTime() + ANSWER_WITHIN_MS;
  const left = () => deadline - clock.now().getTime();
  return {
    lookupMs: () => Math.max(0, left() - SETTLEMENT_RESERVE_MS),
    waitMs: (configured) => Math.max(0, Math.min(configured, left() - ANSWER_MARGIN_MS)),
  };
}
