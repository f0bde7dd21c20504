import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_EXPLORES, withoutStops, type StoredExplore } from '../support/stored-explores.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/**
 * A data directory written before explore reports were domain facts still opens and serves its explore
 * jobs: the events recorded then (ExploreCompleted at schema version 1, its `report` the response body;
 * test/fixtures/verdicts) are appended as they were, then read through the API. The result is the body
 * served then, byte for byte (explore reports carry no receipt).
 */

let service: TestService;
let h: X402Harness;
const byChannel = (served: string) => STORED_EXPLORES.explores.filter((explore) => explore.served === served);
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
type Owner = { userId: string; keyId: string };

beforeAll(async () => {
  service = await startTestService();
  h = await startX402Harness();
});
afterAll(async () => {
  await service?.close();
  await h?.close();
});

/** The job's events as recorded (or as `change` makes them), under a new id and requested by `owner` (this service's ids). */
async function appendAsRecorded(
  explore: StoredExplore,
  owner: Owner,
  into: TestService = service,
  change: (type: string, data: Record<string, unknown>) => Record<string, unknown> = (_type, data) => data,
): Promise<string> {
  const jobId = into.services.commands.ids.newId();
  const events = explore.events.map((event, i) => {
    const data = JSON.parse(
      JSON.stringify(change(event.type, event.data))
        .replaceAll(explore.jobId, jobId)
        .replaceAll(STORED_EXPLORES.ownerId, owner.userId)
        .replaceAll(STORED_EXPLORES.keyId, owner.keyId),
    );
    return { id: into.services.commands.ids.eventId(`stored-explore:${jobId}`, i), type: event.type, data, metadata: event.metadata };
  });
  await into.services.store.append(`explore-${jobId}`, events as never, { expected: 'no_stream' });
  return jobId;
}

const withJobId = (body: unknown, from: string, to: string) => JSON.parse(JSON.stringify(body).replaceAll(from, to));

describe('explore jobs stored before explore reports were domain facts', () => {
  it('are served the body they were served then, billing as a replay of the charge recorded then', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const v2 = byChannel('v2');
    expect(v2.length).toBeGreaterThan(0);
    for (const explore of v2) {
      const jobId = await appendAsRecorded(explore, owner);
      const response = await service.app.inject({ method: 'GET', url: `/v2/explore/${jobId}/result`, headers: auth(owner.apiKey) });
      expect(response.statusCode, explore.jobId).toBe(explore.status);
      const { billing, ...body } = response.json();
      expect(JSON.stringify(body)).toBe(JSON.stringify(withJobId(explore.body, explore.jobId, jobId)));
      expect(billing).toMatchObject({ charged_usd: 1, replay: true });
    }
    // Delivered then: a replay charges nothing now.
    const balance = await service.app.inject({ method: 'GET', url: '/v2/balance', headers: auth(owner.apiKey) });
    expect(balance.json().balance_usd).toBe(5);
  });

  it('paid on x402, are served the body they were served then on the free result route', async () => {
    const x402 = byChannel('x402');
    expect(x402.length).toBeGreaterThan(0);
    for (const explore of x402) {
      const jobId = await appendAsRecorded(explore, { userId: 'none', keyId: 'none' }, h.svc);
      const response = await fetch(`${h.url}/explore/${jobId}/result`);
      expect(response.status, explore.jobId).toBe(explore.status);
      expect(await response.text()).toBe(JSON.stringify(withJobId(explore.body, explore.jobId, jobId)));
    }
  });

  it('stored before the search reported its stops, are served stops: null, as then', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const [explore] = byChannel('v2') as [StoredExplore];
    const { stored, served } = withoutStops(explore.body);
    const jobId = await appendAsRecorded(explore, owner, service, (type, data) =>
      type === 'ExploreCompleted' ? { ...data, report: stored } : data,
    );
    const response = await service.app.inject({ method: 'GET', url: `/v2/explore/${jobId}/result`, headers: auth(owner.apiKey) });
    const { billing: _billing, ...body } = response.json();
    expect(JSON.stringify(body)).toBe(JSON.stringify(withJobId(served, explore.jobId, jobId)));
  });

  it('answer 404 to anyone but the owner, as any job', async () => {
    const [owner, stranger] = [await service.account({ depositUsd: 5 }), await service.account({ depositUsd: 5 })];
    const jobId = await appendAsRecorded(byChannel('v2')[0] as StoredExplore, owner);
    const response = await service.app.inject({ method: 'GET', url: `/v2/explore/${jobId}/result`, headers: auth(stranger.apiKey) });
    expect(response.statusCode).toBe(404);
  });
});
