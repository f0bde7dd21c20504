import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { entitledAccount, inspectClient, recordedProviderEnv } from '../support/inspect-harness.js';
import { startRecordedProviders, type RecordedProviders } from '../support/recorded-providers.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * An inspect that outlasts its request: a slow provider (held by the recorded server until released,
 * no sleeping) makes the POST answer 202 after its wait, or 504 once the wall-clock cap is passed; the
 * pipeline goes on, and the result is charged once when it is first delivered.
 */
let recorded: RecordedProviders;
let waits: TestService;
let caps: TestService;
let budgets: TestService;

beforeAll(async () => {
  recorded = await startRecordedProviders();
  [waits, caps, budgets] = await Promise.all([
    // the POST gives up waiting after 150 ms (202), long before its cap
    startTestService({ ...recordedProviderEnv(recorded), SVC_INSPECT_WAIT_MS: '150', SVC_INSPECT_WALL_CLOCK_CAP_MS: '60000' }),
    // the wall-clock cap (300 ms) comes before the wait: 504
    startTestService({ ...recordedProviderEnv(recorded), SVC_INSPECT_WAIT_MS: '60000', SVC_INSPECT_WALL_CLOCK_CAP_MS: '300' }),
    // each provider has 1 s (the others must answer within it on a loaded machine)
    startTestService({ ...recordedProviderEnv(recorded), SVC_INSPECT_PROVIDER_TIMEOUT_MS: '1000' }),
  ]);
});
afterAll(async () => {
  await recorded?.close();
  await Promise.all([waits?.close(), caps?.close(), budgets?.close()]);
});

const requestsFor = (address: string) =>
  recorded.requests
    .filter((r) => r.address === address)
    .map((r) => r.api)
    .sort();

describe('an inspect that takes longer than the request', () => {
  it('202 with check_id, retry_url and created_at; the poll answers 202, then 200 charged once', async () => {
    const address = madeUpEvmAddress('inspect-slow-202').toLowerCase();
    const { apiKey } = await entitledAccount(waits);
    const api = inspectClient(waits, apiKey);
    const gate = recorded.hold('goplus');
    const accepted = await api.inspect({ address, network: 'ETH' });
    expect(accepted.statusCode).toBe(202);
    const { check_id, retry_url, created_at } = accepted.json();
    expect(retry_url).toBe(`/v2/inspect/${check_id}/result`);
    expect(Date.parse(created_at)).not.toBeNaN();
    expect(accepted.headers['retry-after']).toBe('2');

    const running = await api.result(check_id);
    expect(running.statusCode).toBe(202);
    expect(running.json()).toEqual({ check_id, status: 'running', retry_url, created_at });
    expect((await api.balance()).balance_usd).toBe(10);

    gate.release();
    await waits.services.whenCaughtUp();
    const done = await api.result(check_id);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      check_id,
      audit: { decision: 'deal', providers_answered: 3 },
      billing: { charged_usd: 0.3, replay: false },
    });
    expect((await api.result(check_id)).json().billing).toMatchObject({ charged_usd: 0.3, replay: true });
    expect((await api.balance()).balance_usd).toBe(9.7);
  });

  it('504 past the wall-clock cap with nothing charged; the same Idempotency-Key then reaches the pipeline already started', async () => {
    const address = madeUpEvmAddress('inspect-slow-504').toLowerCase();
    const { apiKey } = await entitledAccount(caps);
    const api = inspectClient(caps, apiKey);
    const gate = recorded.hold('chainalysis');
    const timedOut = await api.inspect({ address, network: 'ETH' }, 'retry-me');
    expect(timedOut.statusCode).toBe(504);
    expect(timedOut.json()).toMatchObject({
      error: { code: 'gateway_timeout' },
      retry_url: `/v2/inspect/${timedOut.json().check_id}/result`,
    });
    // the ledger itself (not a read model): nothing taken
    expect((await api.balance()).balance_usd).toBe(10);

    gate.release();
    await caps.services.whenCaughtUp();
    const retried = await api.inspect({ address, network: 'ETH' }, 'retry-me');
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ check_id: timedOut.json().check_id, billing: { charged_usd: 0.3 } });
    // one pipeline: each outside provider was asked once
    expect(requestsFor(address)).toEqual(['chainalysis', 'goplus']);
    expect((await api.usage()).rows).toHaveLength(1);
    expect((await api.balance()).balance_usd).toBe(9.7);
  });

  it('a provider that does not answer within its time budget is {ok: false, error: "timeout"}; the others complete and are charged', async () => {
    const address = madeUpEvmAddress('inspect-provider-timeout').toLowerCase();
    const { apiKey } = await entitledAccount(budgets);
    const gate = recorded.hold('goplus');
    try {
      const body = (await inspectClient(budgets, apiKey).inspect({ address, network: 'BSC' })).json();
      expect(body.providers.provider_a).toEqual({ ok: false, error: 'timeout', elapsed_ms: expect.any(Number) });
      expect(body.providers.provider_a.elapsed_ms).toBeGreaterThanOrEqual(1000);
      expect(body.providers.service.ok && body.providers.provider_b.ok).toBe(true);
      expect(body.audit).toMatchObject({ providers_answered: 2, providers_failed: 1 });
      expect(body.billing.charged_usd).toBe(0.2);
    } finally {
      gate.release();
    }
  });
});
