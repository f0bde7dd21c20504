import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { HttpMetrics } from '../../read-api/observability/http-metrics.js';

/**
 * The metrics of one service instance, on its own prom-client registry (tests run several instances in one
 * process): HTTP requests here, the other families registered beside them (timed-event-store.ts,
 * lag-metrics.ts), Node's process metrics (`process_*`, `nodejs_*`).
 */
export interface ServiceMetrics extends HttpMetrics {
  readonly registry: Registry;
  /**
   * Adds a collector run before each rendering (all of them side by side), so the values it sets and a
   * failure it counts are in that very scrape. Bounded in time; a failure or timeout is counted, never thrown.
   */
  onScrape(collector: string, work: () => Promise<void>): void;
}

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** A scrape waits at most this long for a collector that asks a server (Kafka's lag). */
const COLLECT_TIMEOUT_MS = 2000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createServiceMetrics(options: { token: string | null; processMetrics?: boolean }): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (first byte in to last byte out), by method, route pattern and status code',
    labelNames,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const collectFailures = new Counter({
    name: 'svc_metrics_collect_failures_total',
    help: 'Scrape-time collectors that failed or timed out (their metrics are left out of that scrape)',
    labelNames: ['collector'],
    registers: [registry],
  });
  const collectors: (() => Promise<void>)[] = [];
  let rendering: Promise<unknown> = Promise.resolve();

  return {
    registry,
    token: options.token,
    observe({ method, route, statusCode, seconds }) {
      const labels = { method, route, status_code: String(statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    render() {
      // One scrape at a time: collectors reset and refill their gauges, a concurrent rendering would see gaps.
      const rendered = rendering.then(async () => {
        await Promise.all(collectors.map((collect) => collect()));
        return { contentType: registry.contentType, body: await registry.metrics() };
      });
      rendering = rendered.catch(() => undefined);
      return rendered;
    },
    onScrape(collector, work) {
      collectFailures.inc({ collector }, 0);
      collectors.push(async () => {
        try {
          await within(work(), COLLECT_TIMEOUT_MS);
        } catch {
          collectFailures.inc({ collector });
        }
      });
    },
  };
}
