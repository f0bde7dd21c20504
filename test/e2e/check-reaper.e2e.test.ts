import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../domain/ports/clock.port.js';
import { createPipelineReaper } from '../../processors/pipeline-reaper.js';
import { PARTIES } from '../support/full-check-data.js';
import type { TestService } from '../support/test-service.js';
import { startFullCheckService } from '../support/full-check-service.js';

/**
 * The stuck-check reaper with a controllable clock: the pipeline is down (its processors stopped), a
 * check and an explore job stay running; 14 minutes later nothing happens, at 15 minutes the check is
 * `failed_timeout` (502, never charged) and the explore job fails with service.bfs.failed. When the
 * pipeline comes back, it leaves the reaped jobs alone.
 */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const MINUTE = 60_000;

beforeAll(async () => {
  service = await startFullCheckService();
});
afterAll(async () => {
  await service?.close();
});

describe('the reaper', () => {
  it('fails a check and an explore job still running after 15 minutes, and only then', async () => {
    const { fullCheck } = service.services;
    const user = await service.account({ depositUsd: 5 });
    await fullCheck.processors.stop();

    const check = await service.app.inject({
      method: 'POST',
      url: '/v2/check-address',
      headers: auth(user.apiKey),
      payload: { address: PARTIES.d, network: 'ETH' },
    });
    const explore = await service.app.inject({
      method: 'POST',
      url: '/v2/explore',
      headers: auth(user.apiKey),
      payload: { address: PARTIES.d, network: 'ETH' },
    });
    const { check_id, result_url } = check.json();
    const { job_id } = explore.json();
    await service.services.whenCaughtUp();
    expect((await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) })).statusCode).toBe(202);

    let now = new Date(Date.now() + 14 * MINUTE);
    const clock: Clock = { now: () => now };
    const reaper = createPipelineReaper({
      commands: { ...service.services.commands, clock },
      running: () => fullCheck.runningJobs.running(),
      intervalMs: MINUTE,
    });
    expect(await reaper.sweep()).toBe(0);
    expect((await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) })).statusCode).toBe(202);

    now = new Date(Date.now() + 15 * MINUTE + 1000);
    expect(await reaper.sweep()).toBe(2);
    const reaped = await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) });
    expect(reaped.statusCode).toBe(502);
    expect(reaped.json()).toMatchObject({ error: { code: 'check_failed' }, check_id, status: 'failed_timeout' });
    const exploreResult = await service.app.inject({ method: 'GET', url: `/v2/explore/${job_id}/result`, headers: auth(user.apiKey) });
    expect(exploreResult.json()).toMatchObject({ error: { code: 'check_failed' }, job_id, status: 'failed' });

    // A second reaper (or a sweep on a lagging index) changes nothing more.
    await reaper.sweep();
    await fullCheck.processors.start();
    await service.services.whenCaughtUp();
    const types: string[] = [];
    for await (const event of service.services.store.read(`check-${check_id}`)) types.push(event.type);
    expect(types).toEqual(['AddressCheckRequested', 'CheckTimedOut']);
    const exploreEvents: { type: string; data: unknown }[] = [];
    for await (const event of service.services.store.read(`explore-${job_id}`)) exploreEvents.push(event);
    expect(exploreEvents.map((e) => e.type)).toEqual(['ExploreRequested', 'ExploreFailed', 'WebhookEventRaised']);
    expect(exploreEvents[2]!.data).toMatchObject({
      event_type: 'service.bfs.failed',
      audience: { user_id: user.userId },
      payload: { job_id, address: PARTIES.d, network: 'ETH' },
    });

    const balance = (await service.app.inject({ method: 'GET', url: '/v2/balance', headers: auth(user.apiKey) })).json();
    expect(balance.balance_usd).toBe(5);
  });
});
