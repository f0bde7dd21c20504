import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTIES } from '../support/full-check-data.js';
import { pollUntil } from '../support/polling.js';
import type { TestService } from '../support/test-service.js';
import { startFullCheckService } from '../support/full-check-service.js';

/** Explore jobs on the V2 channel: 202, a report with categories by severity, charged once, bfs.completed raised. */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  service = await startFullCheckService();
});
afterAll(async () => {
  await service?.close();
});

describe('POST /v2/explore', () => {
  it('runs the search in the background, reports it once charged, and raises service.bfs.completed', async () => {
    const user = await service.account({ depositUsd: 3 });
    const submitted = await service.app.inject({
      method: 'POST',
      url: '/v2/explore',
      headers: auth(user.apiKey),
      payload: { address: PARTIES.d, network: 'ETH', direction: 'both', max_hops: 4 },
    });
    expect(submitted.statusCode).toBe(202);
    const { job_id, result_url } = submitted.json();
    const result = await pollUntil(async () => {
      const response = await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) });
      return response.statusCode === 202 ? null : response;
    });
    expect(result.statusCode).toBe(200);
    const report = result.json();
    expect(report).toMatchObject({
      job_id,
      status: 'completed',
      address: PARTIES.d,
      network: 'ETH',
      direction: 'both',
      complete: true,
      billing: { charged_usd: 1, balance_usd: 2 },
    });
    expect(report.categories.map((c: { slug: string; contribution_usd: number }) => [c.slug, c.contribution_usd])).toEqual([
      ['stolen_funds', 10_500],
      ['exchange', 17_500],
    ]);
    expect(report.incoming.search.hops).toBeLessThanOrEqual(4);
    const again = await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) });
    expect(again.json().billing).toMatchObject({ charged_usd: 1, balance_usd: 2, replay: true });

    const raised: unknown[] = [];
    for await (const event of service.services.store.read(`explore-${job_id}`))
      if (event.type === 'WebhookEventRaised') raised.push(event.data);
    expect(raised).toEqual([
      {
        event_type: 'service.bfs.completed',
        audience: { user_id: user.userId },
        occurred_at: expect.any(String),
        payload: {
          job_id,
          address: PARTIES.d,
          network: 'ETH',
          report_id: report.report_id,
          complete: true,
          categories: [
            { slug: 'stolen_funds', severity: 8, contribution: 10_500 },
            { slug: 'exchange', severity: 1, contribution: 17_500 },
          ],
        },
      },
    ]);
    const stranger = await service.account({ depositUsd: 3 });
    expect((await service.app.inject({ method: 'GET', url: result_url, headers: auth(stranger.apiKey) })).statusCode).toBe(404);
  });

  it('validates its body: direction, hop limits, the network rules of the address endpoints', async () => {
    const user = await service.account({ depositUsd: 3 });
    const post = (payload: object) => service.app.inject({ method: 'POST', url: '/v2/explore', headers: auth(user.apiKey), payload });
    expect((await post({ address: PARTIES.d, network: 'ETH', direction: 'sideways' })).statusCode).toBe(422);
    expect((await post({ address: PARTIES.d, network: 'ETH', max_hops: 0 })).statusCode).toBe(422);
    expect((await post({ address: PARTIES.d, network: 'MOON' })).statusCode).toBe(400);
  });
});
