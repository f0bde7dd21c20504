/** Identifiers are a port: new ids are random (uuid v7, time-ordered), event ids are derived (uuid v5). */
export interface Ids {
  /** A fresh random UUID (v7). */
  newId(): string;
  /**
   * The id of the `index`-th event produced by the command `commandId`: the same inputs always give the
   * same UUID (v5), so a retried append is recognised by the event store as already written.
   */
  eventId(commandId: string, index: number): string;
}
