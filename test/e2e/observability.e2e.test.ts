import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../commands/accounts.commands.js';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import type { LogFields, Logger } from '../../domain/ports/logger.port.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { createServices, type Services } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { buildApp } from '../../read-api/app.js';
import { importFromDirectory } from '../../infra/sources/import-sources.js';
import { adapterEnv } from '../external/adapter-env.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { pollUntil } from '../support/polling.js';
import { parsePrometheusText, samplesOf, valueOf } from '../support/prometheus-text.js';

/**
 * Operations end to end: a request's X-Request-Id is the correlationId of the events it appends AND of the
 * follow-up events the full-check processors append (with the triggering event as causation), processors
 * log what they handle under it, and GET /metrics reports requests, bus lag, projection lag and append
 * latency of the very same service.
 */

interface Line {
  readonly level: string;
  readonly fields: LogFields;
  readonly message: string;
}
const lines: Line[] = [];
const at = (level: string) => (fields: LogFields, message: string) => void lines.push({ level, fields, message });
const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };

let dir: string;
let services: Services;
let app: FastifyInstance;
let apiKey: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-observability-'));
  services = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...adapterEnv() }), () => undefined, { logger });
  await services.start();
  // Screening fails closed without a sanctions list: the minimal made-up OFAC list, imported as `data sync` would.
  await importFromDirectory(services.commands, MINIMAL_SANCTIONS_DIR);
  app = await buildApp(services.app);
  const opened = await openAccount(services.commands, {
    email: `ops-${randomUUID()}@example.test`,
    plan: { kind: 'ledger' },
    depositMicros: 5_000_000,
    organization: { name: 'Org', subgroup: 'Team' },
  });
  apiKey = (await issueApiKey(services.commands, opened.userId)).apiKey;
  await services.projections.whenCaughtUp();
});
afterAll(async () => {
  await app?.close();
  await services?.close();
  await rm(dir, { recursive: true, force: true });
});

async function streamEvents(stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of services.store.read(stream)) events.push(event);
  return events;
}

async function scrape() {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return parsePrometheusText(response.body);
}

describe('correlation: request → event → processor → follow-up events', () => {
  it('carries the X-Request-Id through the full check into every event of the check', async () => {
    const requestId = `ops-e2e-${randomUUID()}`;
    const submitted = await app.inject({
      method: 'POST',
      url: '/v2/check-address',
      headers: { authorization: `Bearer ${apiKey}`, 'x-request-id': requestId },
      payload: { address: '0x1111111111111111111111111111111111111111', network: 'ETH' },
    });
    expect(submitted.statusCode).toBe(202);
    expect(submitted.headers['x-request-id']).toBe(requestId);
    const { check_id } = submitted.json();

    // The processors finish the check (tiers, then the verdict) as follow-up commands.
    const events = await pollUntil(async () => {
      const recorded = await streamEvents(`check-${check_id}`);
      return recorded.some((e) => e.type === 'CheckCompleted') ? recorded : null;
    });
    const requested = events.find((e) => e.type === 'AddressCheckRequested')!;
    expect(requested.metadata.correlationId).toBe(requestId);
    const followUps = events.filter((e) => e.type === 'TierCompleted' || e.type === 'CheckCompleted');
    expect(followUps.length).toBeGreaterThanOrEqual(6); // tiers 0–4 and the verdict
    for (const event of followUps) {
      expect(event.metadata.correlationId).toBe(requestId);
      // Caused by the event the processor was handling, which is one of this check's.
      expect(events.map((e) => e.id)).toContain(event.metadata.causationId);
    }

    // Processors logged what they handled, under the same correlation id.
    await services.whenCaughtUp();
    const handled = lines.filter((l) => l.message === 'processor handled event' && l.fields.correlationId === requestId);
    expect([...new Set(handled.map((l) => l.fields.processor))]).toEqual(
      expect.arrayContaining(['check-tiers-intel', 'check-tier-one-hop', 'check-tiers-graph', 'check-verdict']),
    );
    expect(handled.every((l) => l.fields.streamId === `check-${check_id}` && typeof l.fields.ms === 'number')).toBe(true);
  });

  it('replaces an unsafe X-Request-Id by a fresh id, echoed and used the same way', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v2/balance',
      headers: { authorization: `Bearer ${apiKey}`, 'x-request-id': 'not safe; <b>' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await app.inject({ method: 'GET', url: '/v2/health' });
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers['x-request-id']).not.toBe(response.headers['x-request-id']);
  });
});

describe('GET /metrics', () => {
  it('reports HTTP requests by route pattern, bus lag per group, projection lag per runner and append latency', async () => {
    await services.whenCaughtUp();
    const before = await scrape();
    const health = { method: 'GET', route: '/v2/health', status_code: '200' };
    const healthBefore = valueOf(before, 'svc_http_requests_total', health) ?? 0;
    await app.inject({ method: 'GET', url: '/v2/health' });
    await app.inject({ method: 'GET', url: '/v2/health' });
    await app.inject({ method: 'GET', url: `/no/such/${randomUUID()}` });
    const after = await scrape();

    expect(valueOf(after, 'svc_http_requests_total', health)).toBe(healthBefore + 2);
    expect(valueOf(after, 'svc_http_request_duration_seconds_count', health)).toBe(healthBefore + 2);
    expect(valueOf(after, 'svc_http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(healthBefore + 2);
    expect(
      valueOf(after, 'svc_http_requests_total', { method: 'POST', route: '/v2/check-address', status_code: '202' }),
    ).toBeGreaterThanOrEqual(1);
    // Route patterns, never raw URLs: the 404 is one series whatever was asked.
    expect(valueOf(after, 'svc_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => (s.labels.route ?? '').includes('/no/such'))).toBe(false);
    expect(samplesOf(after, 'svc_http_requests_total').every((s) => !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(s.labels.route ?? ''))).toBe(true);

    // Every consumer group this process runs, per topic; caught up, so nothing behind.
    const lag = samplesOf(after, 'svc_bus_consumer_lag_messages');
    expect([...new Set(lag.map((s) => s.labels.group))]).toEqual(
      expect.arrayContaining([
        'webhook-fanout',
        'webhook-delivery',
        'inspect',
        'transfer-check',
        'check-tiers-intel',
        'check-tier-one-hop',
        'check-tiers-graph',
        'check-verdict',
        'explore-search',
      ]),
    );
    expect(valueOf(after, 'svc_bus_consumer_lag_messages', { group: 'check-verdict', topic: 'events.check' })).toBe(0);

    expect(valueOf(after, 'svc_projection_lag_commit_positions', { runner: 'projections' })).toBe(0);
    expect(valueOf(after, 'svc_projection_lag_seconds', { runner: 'projections' })).toBe(0);
    // The embedded bus reads the log itself: no relay runs, so none reports; with Kafka the relay does.
    const runners = services.relay ? ['projections', 'relay'] : ['projections'];
    expect(samplesOf(after, 'svc_projection_lag_commit_positions').map((s) => s.labels.runner)).toEqual(runners);
    expect(valueOf(after, 'svc_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(valueOf(after, 'svc_metrics_collect_failures_total', { collector: 'bus_lag' })).toBe(0);
    expect(samplesOf(after, 'process_cpu_user_seconds_total')).toHaveLength(1);
  });

  it('is left out of the OpenAPI document and needs no API key', async () => {
    const openapi = (await app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
    expect(Object.keys(openapi.paths)).toContain('/v2/health');
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer svc_not_a_key' } })).statusCode).toBe(200);
  });
});
