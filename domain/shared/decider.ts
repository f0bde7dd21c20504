/**
 * A decider is three pure functions: no I/O, no clock, no randomness inside. Time and outside facts
 * travel in the command. `decide` throws a ServiceError to refuse; `evolve` never throws and ignores
 * events it does not know (forward compatibility on replay).
 */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

export interface Decider<Command, Event extends DomainEvent, State> {
  decide(command: Command, state: State): readonly Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  /** Validates a stored event on load; unknown types return null and are skipped by `evolve`. */
  parse(event: DomainEvent): Event | null;
  /**
   * A copy that `evolve` may change without touching `state` (the executor decides a batch on a copy).
   * Default: structuredClone. A decider whose evolve mutates only some parts can copy just those.
   */
  clone?(state: State): State;
}

/** `parse` for a family of zod schemas keyed by event type. */
export function parserFor<Event extends DomainEvent>(
  schemas: Readonly<Record<string, { parse(data: unknown): unknown }>>,
): (event: DomainEvent) => Event | null {
  return (event) => {
    const schema = schemas[event.type];
    return schema ? ({ type: event.type, data: schema.parse(event.data) } as Event) : null;
  };
}

export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve'>,
  state: State,
  events: readonly Event[],
): State {
  return events.reduce((s, e) => decider.evolve(s, e), state);
}
