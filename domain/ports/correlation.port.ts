/**
 * The correlation of the work in progress: an HTTP request (its X-Request-Id), or a processor handling an
 * event (that event's correlationId, caused by the event itself). Commands executed meanwhile stamp it on
 * the metadata of the events they append, so one id follows request → event → processor → follow-up events.
 */
export interface Correlation {
  readonly correlationId: string;
  readonly causationId?: string;
}

export interface CorrelationScope {
  /** The correlation of the calling async flow, if any. */
  current(): Correlation | undefined;
  /** Runs `work` with `correlation` as the current one, for everything it does and awaits. */
  run<T>(correlation: Correlation, work: () => T): T;
}
