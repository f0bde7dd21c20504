import { present } from '../domain/shared/present.js';
import { periodStartOf } from '../domain/billing/period.js';
import { ledgerPeriodDecider, needsRollover, oldestMonthHolding } from '../domain/ledger/ledger-period.js';
import type { ChargeRecord, LedgerCommand, LedgerState } from '../domain/ledger/ledger.decider.js';
import { ledgerEventSchemas, ledgerPeriodStream, ledgerStream } from '../domain/ledger/ledger.events.js';
import { fail, isServiceError } from '../domain/shared/errors.js';
import type { CommandDeps } from './command-deps.js';
import type { CommandContext, CommandExecutor, CommandOutcome } from './command-executor.js';
import type { LedgerEvent } from '../domain/ledger/ledger.events.js';

/**
 * The I/O side of ledger periods (domain/ledger/ledger-period.ts): finding a user's current period,
 * rolling over to a new month (close the old period, then open the new one with its closing), and
 * looking a charge or deposit id up in the closed periods that could hold it.
 *
 * Every step is idempotent and re-checked by the decider, so racers, retries and a crash between the
 * close and the open converge: a closed period names its successor, and whoever follows that name
 * opens the successor if nobody has yet.
 */

/** Users whose current period stream is remembered per executor (a hint: a stale one is followed forward). */
const HEAD_CACHE_LIMIT = 10_000;
const headCaches = new WeakMap<CommandExecutor, Map<string, string>>();
/** A command follows at most this many period moves (racers rolling over) before giving up. */
const MAX_PERIOD_MOVES = 24;

export interface LedgerHead {
  readonly stream: string;
  readonly state: LedgerState;
}

function headCache(deps: CommandDeps): Map<string, string> {
  let cache = headCaches.get(deps.executor);
  if (!cache) headCaches.set(deps.executor, (cache = new Map()));
  return cache;
}

function rememberHead(deps: CommandDeps, userId: string, stream: string) {
  const cache = headCache(deps);
  cache.delete(userId);
  cache.set(userId, stream);
  if (cache.size > HEAD_CACHE_LIMIT) cache.delete(present(cache.keys().next().value, 'a cache over its limit has an oldest entry'));
}

/** Opens the period a closed one names, if a crash or a racer left it unopened (no-op otherwise). */
async function openSuccessor(deps: CommandDeps, stream: string, closed: NonNullable<LedgerState['closed']>) {
  await deps.executor.execute(
    closed.next,
    ledgerPeriodDecider,
    { type: 'OpenPeriod', month: closed.nextMonth, previous: stream, opening: closed.closing, at: deps.clock.now().toISOString() },
    { commandId: `open-period:${closed.next}` },
  );
}

/**
 * A cold start's first guess at the current period: this month's stream if it exists, else the chain
 * walked from its root through each period's last event (one small read per period, never a fold).
 */
async function firstGuess(deps: CommandDeps, userId: string): Promise<string> {
  const thisMonth = ledgerPeriodStream(userId, periodStartOf(deps.clock.now()));
  if ((await deps.executor.lastEvent(thisMonth)) !== null) return thisMonth;
  let stream = ledgerStream(userId);
  for (;;) {
    const last = await deps.executor.lastEvent(stream);
    if (last?.type !== 'PeriodClosed') return stream;
    const closed = ledgerEventSchemas.PeriodClosed.parse(last.data);
    if ((await deps.executor.lastEvent(closed.next)) === null) await openSuccessor(deps, stream, closed);
    stream = closed.next;
  }
}

/** The user's current (open) period and its state. */
export async function ledgerHead(deps: CommandDeps, userId: string): Promise<LedgerHead> {
  let stream = headCache(deps).get(userId) ?? (await firstGuess(deps, userId));
  for (let moves = 0; moves < MAX_PERIOD_MOVES; moves++) {
    const { state } = await deps.executor.load(stream, ledgerPeriodDecider);
    if (!state.closed) {
      rememberHead(deps, userId, stream);
      return { stream, state };
    }
    await openSuccessor(deps, stream, state.closed);
    stream = state.closed.next;
  }
  throw fail('invalid_state', `the ledger of ${userId} moved more than ${MAX_PERIOD_MOVES} periods while being read`);
}

/** Closes `head` and opens the period of `month` with its closing (or follows whoever closed it first). */
async function rollOver(deps: CommandDeps, userId: string, head: LedgerHead, month: string, at: string) {
  const next = ledgerPeriodStream(userId, month);
  const outcome = await deps.executor.execute(
    head.stream,
    ledgerPeriodDecider,
    { type: 'ClosePeriod', next, nextMonth: month, at },
    { commandId: `close-period:${head.stream}` },
    (state: LedgerState) => present(state.closed, 'ClosePeriod always leaves the period closed'),
  );
  await openSuccessor(deps, head.stream, outcome.view);
  rememberHead(deps, userId, outcome.view.next);
}

/** The decider's refusals that mean "this is no longer the current period": find it again and retry. */
const movedOn = (error: unknown) =>
  isServiceError(error) && error.code === 'invalid_state' && ['period_closed', 'period_ended'].includes(String(error.details?.reason));

/**
 * Runs one ledger command on the user's current period, rolling over to the command's month first when
 * it is later. `build` makes the command from the current period (e.g. with a lookup in closed ones);
 * it runs again whenever the period moved under the command.
 */
export async function executeOnLedger<View>(
  deps: CommandDeps,
  userId: string,
  build: (head: LedgerHead) => Promise<LedgerCommand>,
  context: CommandContext,
  view?: (state: LedgerState, events: readonly LedgerEvent[]) => View,
): Promise<CommandOutcome<LedgerEvent, View>> {
  for (let moves = 0; moves < MAX_PERIOD_MOVES; moves++) {
    const head = await ledgerHead(deps, userId);
    const command = await build(head);
    if (needsRollover(head.state, command)) {
      await rollOver(deps, userId, head, periodStartOf(command.at), command.at);
      continue;
    }
    try {
      return await deps.executor.execute(head.stream, ledgerPeriodDecider, command, context, view);
    } catch (error) {
      if (!movedOn(error)) throw error;
    }
  }
  throw fail('invalid_state', `the ledger of ${userId} moved more than ${MAX_PERIOD_MOVES} periods under one command`);
}

/**
 * Walks back from the period before `head` through the closed periods that may hold `id` (see
 * oldestMonthHolding), newest first, handing each period's state to `visit` until it returns true.
 */
async function walkClosedPeriods(deps: CommandDeps, head: LedgerHead, id: string, visit: (state: LedgerState) => boolean) {
  const oldest = oldestMonthHolding(id, deps.clock.now().getTime());
  let successorMonth = head.state.month;
  let previous = head.state.opened?.previous ?? null;
  while (previous !== null) {
    // months strictly fall along the chain: below the successor's month there is nothing that young
    if (oldest !== null && successorMonth !== null && Date.parse(successorMonth) <= oldest) return;
    const { state } = await deps.executor.load(previous, ledgerPeriodDecider);
    if (visit(state)) return;
    successorMonth = state.month;
    previous = state.opened?.previous ?? null;
  }
}

/** The charge as the closed periods before `head` recorded it (refunds taken in them included), or null. */
export async function earlierCharge(deps: CommandDeps, head: LedgerHead, chargeId: string): Promise<ChargeRecord | null> {
  let refundedUnits = 0;
  let refundedMicros = 0;
  let found: ChargeRecord | null = null;
  await walkClosedPeriods(deps, head, chargeId, (state) => {
    const record = state.charges.get(chargeId);
    if (!record) return false;
    refundedUnits += record.refundedUnits;
    refundedMicros += record.refundedMicros;
    if (record.refundOfEarlier) return false;
    found = { ...record, refundedUnits, refundedMicros, refundOfEarlier: false };
    return true;
  });
  return found;
}

/** Whether a closed period before `head` already took this deposit. */
export async function depositSeenEarlier(deps: CommandDeps, head: LedgerHead, depositId: string): Promise<boolean> {
  let seen = false;
  await walkClosedPeriods(deps, head, depositId, (state) => (seen = state.deposits.has(depositId)));
  return seen;
}
