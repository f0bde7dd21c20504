import { parserFor, type Decider } from '../shared/decider.js';
import { paidSubjectEventSchemas, type PaidSubjectEvent } from './paid-subject.events.js';

/**
 * free ─Claim→ claimed(pending) ─Confirm→ claimed(paid)
 *                 └──Release→ free
 * Claiming a subject someone holds decides nothing: the caller reads the state and serves without
 * settling. Confirm and Release belong to the holder and are idempotent.
 */
export type PaidSubjectCommand =
  | { type: 'Claim'; callId: string; product: string; subject: string; at: string }
  | { type: 'Confirm'; callId: string; transaction: string; at: string }
  | { type: 'Release'; callId: string; at: string };

export interface PaidSubjectState {
  readonly holder: string | null;
  readonly transaction: string | null;
}

export const initialPaidSubjectState = (): PaidSubjectState => ({ holder: null, transaction: null });

export function decidePaidSubject(command: PaidSubjectCommand, state: PaidSubjectState): PaidSubjectEvent[] {
  switch (command.type) {
    case 'Claim': {
      if (state.holder) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'PaidSubjectClaimed', data }];
    }
    case 'Confirm':
      if (state.holder !== command.callId || state.transaction) return [];
      return [{ type: 'PaidSubjectConfirmed', data: { callId: command.callId, transaction: command.transaction, at: command.at } }];
    case 'Release':
      if (state.holder !== command.callId || state.transaction) return [];
      return [{ type: 'PaidSubjectReleased', data: { callId: command.callId, at: command.at } }];
  }
}

export function evolvePaidSubject(state: PaidSubjectState, event: PaidSubjectEvent): PaidSubjectState {
  switch (event.type) {
    case 'PaidSubjectClaimed':
      return { holder: event.data.callId, transaction: null };
    case 'PaidSubjectConfirmed':
      return { ...state, transaction: event.data.transaction };
    case 'PaidSubjectReleased':
      return initialPaidSubjectState();
  }
}

export const paidSubjectDecider: Decider<PaidSubjectCommand, PaidSubjectEvent, PaidSubjectState> = {
  decide: decidePaidSubject,
  evolve: evolvePaidSubject,
  initialState: initialPaidSubjectState,
  parse: parserFor<PaidSubjectEvent>(paidSubjectEventSchemas),
};
