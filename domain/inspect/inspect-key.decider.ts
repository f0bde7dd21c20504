import { z } from 'zod';
import { IDEMPOTENCY_WINDOW_MS } from '../idempotency/idempotency.decider.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `inspectkey-{userId}-{sha256(Idempotency-Key)}`: which inspect a client's key started. An
 * inspect outlives the request that started it (a 504, a 202, a dropped connection), so for 24 h the
 * key stays bound to its check: the same request again reaches the pipeline already started, another
 * request is an idempotency conflict. After 24 h the key may start a new inspect.
 */
export const inspectKeyStreams = streamFamily('inspectkey');
export const inspectKeyStream = (userId: string, keyHash: string): string => inspectKeyStreams.stream(`${userId}-${keyHash}`);

export const inspectKeyEventSchemas = {
  InspectKeyBound: z.object({ checkId: z.string(), requestHash: z.string(), at: z.string() }),
} as const;

export type InspectKeyEvent = { type: 'InspectKeyBound'; data: z.infer<typeof inspectKeyEventSchemas.InspectKeyBound> };

export interface InspectKeyCommand {
  readonly type: 'BindInspectKey';
  /** The check id to bind if the key is free; a bound key keeps its own. */
  readonly checkId: string;
  readonly requestHash: string;
  readonly at: string;
}

export interface InspectKeyState {
  binding: { checkId: string; requestHash: string; at: string } | null;
}

const expired = (boundAt: string, now: string) => Date.parse(now) - Date.parse(boundAt) >= IDEMPOTENCY_WINDOW_MS;

/** The check the key is bound to for `requestHash` at `at`, or null when it is free (or its binding expired). */
export function boundCheck(state: InspectKeyState, requestHash: string, at: string): string | null {
  const { binding } = state;
  if (!binding || expired(binding.at, at)) return null;
  if (binding.requestHash !== requestHash)
    throw fail('idempotency_conflict', 'this Idempotency-Key was used with a different request within 24 h');
  return binding.checkId;
}

export const inspectKeyDecider: Decider<InspectKeyCommand, InspectKeyEvent, InspectKeyState> = {
  decide(command, state) {
    if (boundCheck(state, command.requestHash, command.at) !== null) return [];
    return [{ type: 'InspectKeyBound', data: { checkId: command.checkId, requestHash: command.requestHash, at: command.at } }];
  },
  evolve: (_state, event) => ({ binding: event.data }),
  initialState: () => ({ binding: null }),
  parse: parserFor<InspectKeyEvent>(inspectKeyEventSchemas),
};
