/**
 * Wakes a command that waits for a stream to change: a check's outcome, a concurrent twin's stored
 * response. Fed by the projection runner of the process (projections/stream-changes.ts), which sees
 * every event appended by any process, so a waiter holds no polling loop.
 */
export interface StreamChanges {
  /**
   * `changed` resolves on the next event of `streamId` this process sees. Register BEFORE reading the
   * stream, so an event appended between the read and the wait is not missed; `cancel` frees the waiter.
   */
  next(streamId: string): { readonly changed: Promise<void>; cancel(): void };
}
