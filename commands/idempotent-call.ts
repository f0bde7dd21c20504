import { claimOutcome, idempotencyDecider, type IdempotencyState } from '../domain/idempotency/idempotency.decider.js';
import { idempotencyStream, type IdempotencyEvent } from '../domain/idempotency/idempotency.events.js';
import { fail } from '../domain/shared/errors.js';
import { sha256Hex as digest } from '../domain/shared/hash.js';
import type { CommandDeps } from './command-deps.js';

export interface CallResponse {
  readonly status: number;
  readonly body: unknown;
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 64;
/** How long a request waits for a concurrent twin holding the same key before answering 409. */
const WAIT_FOR_TWIN_MS = 15_000;

/**
 * Runs `execute` at most once per (user, Idempotency-Key) within 24 h. The same key and body get the
 * stored response with `billing.replay: true` and no charge; another body gets 409 idempotency_conflict.
 * A concurrent twin (same key, same body, first still running) waits for the first to finish and
 * receives its stored response; it answers 409 only if the first is still running after 15 s.
 * Only 2xx responses are stored: an error releases the key, as nothing was charged.
 */
export async function idempotentCall(
  deps: CommandDeps,
  input: { userId: string; key: string; route: string; body: unknown },
  execute: (callId: string) => Promise<CallResponse>,
): Promise<CallResponse & { replay: boolean }> {
  const stream = idempotencyStream(input.userId, digest(input.key));
  const requestHash = digest(JSON.stringify(input.body ?? null));
  const started = Date.now();
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    const proposedCallId = deps.ids.newId();
    const outcome = await deps.executor.execute(
      stream,
      idempotencyDecider,
      { type: 'Claim', callId: proposedCallId, route: input.route, requestHash, bootId: deps.bootId, at: deps.clock.now().toISOString() },
      { commandId: `claim:${proposedCallId}` },
      (state: IdempotencyState, events: readonly IdempotencyEvent[]) => claimOutcome(events, state),
    );
    const claim = outcome.view;
    if (claim.kind === 'replay') return { status: claim.status, body: markReplay(claim.body), replay: true };
    if (claim.kind === 'execute') return { ...(await runClaimed(deps, stream, claim.callId, execute)), replay: false };
    if (Date.now() - started > WAIT_FOR_TWIN_MS) {
      throw fail('idempotency_conflict', 'a request with this Idempotency-Key is still in progress');
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function runClaimed(
  deps: CommandDeps,
  stream: string,
  callId: string,
  execute: (callId: string) => Promise<CallResponse>,
): Promise<CallResponse> {
  const context = { commandId: `settle:${callId}:${deps.ids.newId()}` };
  let response: CallResponse;
  try {
    response = await execute(callId);
  } catch (error) {
    await deps.executor.execute(stream, idempotencyDecider, { type: 'Release', callId, at: deps.clock.now().toISOString() }, context);
    throw error;
  }
  const command =
    response.status < 300
      ? ({ type: 'StoreResponse', callId, status: response.status, body: response.body, at: deps.clock.now().toISOString() } as const)
      : ({ type: 'Release', callId, at: deps.clock.now().toISOString() } as const);
  await deps.executor.execute(stream, idempotencyDecider, command, context);
  return response;
}

function markReplay(body: unknown): unknown {
  if (body && typeof body === 'object' && 'billing' in body) {
    const withBilling = body as { billing: Record<string, unknown> };
    return { ...withBilling, billing: { ...withBilling.billing, replay: true } };
  }
  return body;
}
