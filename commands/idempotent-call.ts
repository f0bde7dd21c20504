import { claimOutcome, idempotencyDecider, type IdempotencyState } from '../domain/idempotency/idempotency.decider.js';
import { idempotencyStream, type IdempotencyEvent } from '../domain/idempotency/idempotency.events.js';
import { fail } from '../domain/shared/errors.js';
import { sha256Hex as digest } from '../domain/shared/hash.js';
import type { CommandDeps } from './command-deps.js';
import { nextSettlement, signalSettled } from './key-settlements.js';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 64;
/** How long a request waits for a concurrent twin holding the same key before answering 409. */
export const WAIT_FOR_TWIN_MS = 15_000;

/**
 * What a call under an Idempotency-Key answers: the outcome of this execution (`replay: false`) or the one
 * stored by the key's first call (`replay: true`); or, for a first call recorded before outcomes were
 * stored, the answer it gave then (presented verbatim by read-api).
 */
export type KeyedResult<Outcome> =
  | { readonly kind: 'outcome'; readonly outcome: Outcome; readonly replay: boolean }
  | { readonly kind: 'recordedAnswer'; readonly code: number; readonly body: unknown; readonly replay: true };

/**
 * How a route reads its stored outcome back: its zod schema (commands/ does not import zod, so only the
 * shape of `safeParse` is named here). A stored outcome is JSON written by an older version of the code,
 * so it is parsed, never cast.
 */
export interface OutcomeSchema<Outcome> {
  safeParse(value: unknown): { success: true; data: Outcome } | { success: false; error: unknown };
}

/**
 * Runs `execute` at most once per (user, Idempotency-Key) within 24 h. The same key and body get the
 * stored outcome with `replay: true` and no charge; another body gets 409 idempotency_conflict.
 * A concurrent twin (same key, same body, first still running) waits for the first to settle and
 * receives its stored outcome; it answers 409 only if the first is still running after 15 s of the clock.
 * An error releases the key, as nothing was charged. The stored outcome is plain JSON: the claim's route
 * is part of the key's identity, so only the route that stored an outcome ever reads it back, through
 * that route's `outcomeSchema`; one that does not parse fails closed (store_corrupt), never replayed as cast.
 */
export async function idempotentCall<Outcome>(
  deps: CommandDeps,
  input: { userId: string; key: string; route: string; body: unknown },
  execute: (callId: string) => Promise<Outcome>,
  outcomeSchema: OutcomeSchema<Outcome>,
): Promise<KeyedResult<Outcome>> {
  const stream = idempotencyStream(input.userId, digest(input.key));
  const requestHash = digest(JSON.stringify(input.body ?? null));
  const deadline = deps.clock.now().getTime() + WAIT_FOR_TWIN_MS;
  for (;;) {
    const wait = nextSettlement(deps, stream, deadline - deps.clock.now().getTime());
    const proposedCallId = deps.ids.newId();
    let claim;
    try {
      const outcome = await deps.executor.execute(
        stream,
        idempotencyDecider,
        { type: 'Claim', callId: proposedCallId, route: input.route, requestHash, bootId: deps.bootId, at: deps.clock.now().toISOString() },
        { commandId: `claim:${proposedCallId}` },
        (state: IdempotencyState, events: readonly IdempotencyEvent[]) => claimOutcome(events, state),
      );
      claim = outcome.view;
    } catch (error) {
      wait.cancel();
      throw error;
    }
    if (claim.kind !== 'in_progress') wait.cancel();
    switch (claim.kind) {
      case 'replay': {
        const { stored } = claim;
        // The claim's route and body matched: the stored outcome is this route's own, parsed by its schema.
        if (stored.kind === 'outcome')
          return { kind: 'outcome', outcome: storedOutcome(input.route, stored.outcome, outcomeSchema), replay: true };
        return { kind: 'recordedAnswer', code: stored.code, body: stored.body, replay: true };
      }
      case 'execute':
        return { kind: 'outcome', outcome: await runClaimed(deps, stream, claim.callId, execute), replay: false };
      case 'in_progress':
        if (!(await wait.settled) && deps.clock.now().getTime() >= deadline) {
          throw fail('idempotency_conflict', 'a request with this Idempotency-Key is still in progress');
        }
    }
  }
}

/** A stored outcome read back by its route's schema; one it refuses is a damaged or foreign record, not an answer. */
function storedOutcome<Outcome>(route: string, stored: unknown, schema: OutcomeSchema<Outcome>): Outcome {
  const parsed = schema.safeParse(stored);
  if (!parsed.success) throw fail('store_corrupt', `the outcome stored for this Idempotency-Key is not a ${route} outcome`);
  return parsed.data;
}

async function runClaimed<Outcome>(
  deps: CommandDeps,
  stream: string,
  callId: string,
  execute: (callId: string) => Promise<Outcome>,
): Promise<Outcome> {
  const context = { commandId: `settle:${callId}:${deps.ids.newId()}` };
  try {
    let outcome: Outcome;
    try {
      outcome = await execute(callId);
    } catch (error) {
      await deps.executor.execute(stream, idempotencyDecider, { type: 'Release', callId, at: deps.clock.now().toISOString() }, context);
      throw error;
    }
    await deps.executor.execute(
      stream,
      idempotencyDecider,
      { type: 'StoreOutcome', callId, outcome, at: deps.clock.now().toISOString() },
      context,
    );
    return outcome;
  } finally {
    signalSettled(deps.executor, stream);
  }
}
