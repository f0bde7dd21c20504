import { expect } from 'vitest';
import { fold, type Decider, type DomainEvent } from '../../domain/shared/decider.js';
import { isServiceError, type ErrorCode, type ServiceError } from '../../domain/shared/errors.js';

/**
 * Given / When / Then for deciders, in the style of Emmett's DeciderSpecification:
 *
 *   deciderSpec(ledgerDecider).given([...events]).when(command).then([...expectedEvents]);
 *   deciderSpec(ledgerDecider).given([]).when(command).thenThrows('not_found');
 *   deciderSpec(ledgerDecider).given([...]).when(command).thenNothingHappened();
 *
 * The state is folded afresh from `given` for every assertion (some deciders evolve in place). Every
 * given and produced event must survive the decider's own `parse` unchanged, so fixtures and decisions
 * are valid stored events. `then` and `thenNothingHappened` return the state after the produced events,
 * for follow-up assertions.
 */
export interface DeciderSpec<Command, Event extends DomainEvent, State> {
  given(events?: readonly Event[]): {
    when(command: Command): Then<Event, State>;
  };
}

export interface Then<Event extends DomainEvent, State> {
  /** The command decides exactly these events. Returns the state after them. */
  then(expected: readonly Event[]): State;
  /** The command decides these events, checked by a predicate instead of equality. Returns the state after them. */
  thenMatches(check: (events: readonly Event[]) => void): State;
  /** The command is refused with a ServiceError of this code (and, if given, details containing these). */
  thenThrows(code: ErrorCode, details?: Readonly<Record<string, unknown>>): ServiceError;
  /** The command decides nothing (an idempotent no-op). Returns the unchanged state. */
  thenNothingHappened(): State;
}

export function deciderSpec<Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
): DeciderSpec<Command, Event, State> {
  const roundTrips = (event: Event, role: string) => {
    const parsed = decider.parse(event);
    expect(parsed, `${role} event ${event.type} is not a known event type`).not.toBeNull();
    expect(parsed, `${role} event ${event.type} does not survive parse unchanged`).toEqual(event);
  };
  return {
    given(events = []) {
      events.forEach((event) => roundTrips(event, 'given'));
      const stateFromGiven = () => fold(decider, decider.initialState(), events);
      return {
        when(command) {
          const decide = () => decider.decide(command, stateFromGiven());
          const decided = (): State => {
            const state = stateFromGiven();
            const produced = decider.decide(command, state);
            produced.forEach((event) => roundTrips(event, 'produced'));
            return fold(decider, state, produced);
          };
          return {
            then(expected) {
              const produced = decide();
              expect(produced).toEqual(expected);
              return decided();
            },
            thenMatches(check) {
              check(decide());
              return decided();
            },
            thenThrows(code, details) {
              let thrown: unknown;
              try {
                const produced = decide();
                expect.fail(`expected ${code}, but the command decided ${JSON.stringify(produced)}`);
              } catch (error) {
                thrown = error;
              }
              if (!isServiceError(thrown)) throw thrown;
              expect(thrown.code).toBe(code);
              if (details) expect(thrown.details).toMatchObject(details);
              return thrown;
            },
            thenNothingHappened() {
              expect(decide()).toEqual([]);
              return decided();
            },
          };
        },
      };
    },
  };
}
