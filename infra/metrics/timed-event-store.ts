import { Histogram, type Registry } from 'prom-client';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { hasCode } from '../../domain/shared/errors.js';

const APPEND_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Any EventStore adapter with its appends timed (`svc_event_store_append_duration_seconds`): one append is
 * one fsync (group commit) in the embedded log, one round trip to EventStoreDB. Everything else delegates.
 */
export function timedEventStore(store: EventStore, registry: Registry): EventStore {
  const duration = new Histogram({
    name: 'svc_event_store_append_duration_seconds',
    help: 'Time of EventStore.append until durable, by outcome (ok, conflict: wrong expected revision, error)',
    labelNames: ['outcome'],
    buckets: APPEND_BUCKETS,
    registers: [registry],
  });
  return {
    async append(stream, events, options) {
      const stop = duration.startTimer();
      try {
        const result = await store.append(stream, events, options);
        stop({ outcome: 'ok' });
        return result;
      } catch (error) {
        stop({ outcome: hasCode(error, 'wrong_expected_version') ? 'conflict' : 'error' });
        throw error;
      }
    },
    read: (stream, options) => store.read(stream, options),
    streamRevision: (stream) => store.streamRevision(stream),
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    subscribeToAll: (options) => store.subscribeToAll(options),
    close: () => store.close(),
  };
}
