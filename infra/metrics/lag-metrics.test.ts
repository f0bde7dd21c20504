import { describe, expect, it } from 'vitest';
import type { Position } from '../../domain/ports/event-store.port.js';
import { parsePrometheusText, samplesOf, valueOf } from '../../test/support/prometheus-text.js';
import { registerBusLag, registerLogLag } from './lag-metrics.js';
import { createServiceMetrics } from './service-metrics.js';

/** Lag gauges against fake ports: values when behind, and a failing port leaves its series out, counted. */

const scrape = async (metrics: ReturnType<typeof createServiceMetrics>) => parsePrometheusText((await metrics.render()).body);
const at = (iso: string) => new Date(iso);

describe('projection lag', () => {
  it('is the commit-position gap and the age of the last processed event; zero when caught up', async () => {
    const metrics = createServiceMetrics({ token: null, processMetrics: false });
    let now = at('2026-11-22T10:00:00Z');
    const head: Position = { commit: 1000n, prepare: 1000n };
    registerLogLag(
      metrics,
      { headPosition: async () => head },
      () => [
        { name: 'projections', progress: () => ({ position: { commit: 400n, prepare: 400n }, recordedAt: at('2026-11-22T10:00:05Z') }) },
        { name: 'relay', progress: () => ({ position: head, recordedAt: at('2026-11-22T10:00:01Z') }) },
        { name: 'fresh', progress: () => ({ position: null, recordedAt: null }) },
      ],
      () => now,
    );
    now = at('2026-11-22T10:00:12Z');
    const samples = await scrape(metrics);
    expect(valueOf(samples, 'svc_projection_lag_commit_positions', { runner: 'projections' })).toBe(600);
    expect(valueOf(samples, 'svc_projection_lag_seconds', { runner: 'projections' })).toBe(7);
    expect(valueOf(samples, 'svc_projection_lag_commit_positions', { runner: 'relay' })).toBe(0);
    expect(valueOf(samples, 'svc_projection_lag_seconds', { runner: 'relay' })).toBe(0);
    // Nothing processed yet: the whole log is behind, for as long as the process has run.
    expect(valueOf(samples, 'svc_projection_lag_commit_positions', { runner: 'fresh' })).toBe(1000);
    expect(valueOf(samples, 'svc_projection_lag_seconds', { runner: 'fresh' })).toBe(12);
  });

  it('leaves its series out when the head cannot be read, and counts the failure', async () => {
    const metrics = createServiceMetrics({ token: null, processMetrics: false });
    registerLogLag(
      metrics,
      { headPosition: async () => Promise.reject(new Error('down')) },
      () => [{ name: 'projections', progress: () => ({ position: null, recordedAt: null }) }],
      () => new Date(),
    );
    const samples = await scrape(metrics);
    expect(samplesOf(samples, 'svc_projection_lag_seconds')).toEqual([]);
    expect(valueOf(samples, 'svc_metrics_collect_failures_total', { collector: 'projection_lag' })).toBe(1);
  });
});

describe('bus lag', () => {
  it('asks the bus for each running group and reports per group and topic', async () => {
    const metrics = createServiceMetrics({ token: null, processMetrics: false });
    const asked: string[] = [];
    registerBusLag(
      metrics,
      { lag: async (group, topics) => (asked.push(group), topics.map((topic, i) => ({ topic, messages: i + (group === 'b' ? 10 : 0) }))) },
      () => [
        { group: 'a', topics: ['t1', 't2'] },
        { group: 'b', topics: ['t1'] },
      ],
    );
    const samples = await scrape(metrics);
    expect(asked.sort()).toEqual(['a', 'b']);
    expect(samplesOf(samples, 'svc_bus_consumer_lag_messages').map((s) => [s.labels.group, s.labels.topic, s.value])).toEqual([
      ['a', 't1', 0],
      ['a', 't2', 1],
      ['b', 't1', 10],
    ]);
  });

  it('a bus that fails the lag query: no series that scrape, one failure counted, and the scrape still renders', async () => {
    const metrics = createServiceMetrics({ token: null, processMetrics: false });
    registerBusLag(metrics, { lag: async () => Promise.reject(new Error('broker gone')) }, () => [{ group: 'a', topics: ['t1'] }]);
    const samples = await scrape(metrics);
    expect(samplesOf(samples, 'svc_bus_consumer_lag_messages')).toEqual([]);
    expect(valueOf(samples, 'svc_metrics_collect_failures_total', { collector: 'bus_lag' })).toBe(1);
  });
});
