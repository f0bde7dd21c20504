import type { CommandDeps } from '../../commands/command-deps.js';
import { idempotentCall, type KeyedResult, type OutcomeSchema } from '../../commands/idempotent-call.js';

/** A command's outcome as HTTP: the status and the body, shaped here and nowhere in commands/ or domain/. */
export interface Presented<Body> {
  readonly status: number;
  readonly body: Body;
}

/**
 * The answer to a call under an Idempotency-Key: the outcome presented, or an answer recorded before
 * outcomes were stored, verbatim; a replay has `billing.replay: true` (nothing was charged by it).
 */
export function presentKeyed<Outcome, Body>(
  result: KeyedResult<Outcome>,
  present: (outcome: Outcome) => Presented<Body>,
): Presented<unknown> {
  const presented = result.kind === 'outcome' ? present(result.outcome) : { status: result.code, body: result.body };
  return result.replay ? { status: presented.status, body: markReplay(presented.body) } : presented;
}

function markReplay(body: unknown): unknown {
  if (body !== null && typeof body === 'object' && 'billing' in body && body.billing !== null && typeof body.billing === 'object') {
    return { ...body, billing: { ...body.billing, replay: true } };
  }
  return body;
}

/**
 * A POST under an optional Idempotency-Key, presented: with a key, run once per key (idempotentCall) and
 * answer its outcome or replay (a stored outcome read back by `outcome`, the route's schema of it); without
 * one, run under a fresh call id.
 */
export async function presentedCall<Outcome, Body>(
  deps: CommandDeps,
  call: { key: string | undefined; userId: string; route: string; body: unknown; outcome: OutcomeSchema<Outcome> },
  run: (callId: string) => Promise<Outcome>,
  present: (outcome: Outcome) => Presented<Body>,
): Promise<Presented<unknown>> {
  const { key, outcome, ...input } = call;
  return key === undefined
    ? present(await run(deps.ids.newId()))
    : presentKeyed(await idempotentCall(deps, { ...input, key }, run, outcome), present);
}
