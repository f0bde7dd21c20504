import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { parsePrometheusText, valueOf } from '../../test/support/prometheus-text.js';
import { createServiceMetrics } from './service-metrics.js';
import { timedEventStore } from './timed-event-store.js';

describe('timedEventStore', () => {
  it('times every append by outcome and passes results and errors through unchanged', async () => {
    const metrics = createServiceMetrics({ token: null, processMetrics: false });
    const outcomes = [
      async () => ({ nextExpectedRevision: 0n, position: { commit: 1n, prepare: 1n } }),
      async () => Promise.reject(fail('wrong_expected_version', 'moved', { actual: 3n })),
      async () => Promise.reject(new Error('disk full')),
    ];
    const inner = { append: () => outcomes.shift()!() } as unknown as EventStore;
    const store = timedEventStore(inner, metrics.registry);
    const append = () => store.append('s-1', [], { expected: 'any' });
    await expect(append()).resolves.toEqual({ nextExpectedRevision: 0n, position: { commit: 1n, prepare: 1n } });
    await expect(append()).rejects.toMatchObject({ code: 'wrong_expected_version' });
    await expect(append()).rejects.toThrow('disk full');
    const samples = parsePrometheusText((await metrics.render()).body);
    for (const outcome of ['ok', 'conflict', 'error']) {
      expect(valueOf(samples, 'svc_event_store_append_duration_seconds_count', { outcome })).toBe(1);
    }
  });
});
