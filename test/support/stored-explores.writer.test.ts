import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFullCheckService } from './full-check-service.js';
import { PARTIES } from './full-check-data.js';
import { pollUntil } from './polling.js';
import type { TestService } from './test-service.js';
import { writeFullCheckSources } from './full-check-data.js';
import { startX402Harness } from './x402-harness.js';

/**
 * Writes test/fixtures/verdicts/explores-v1.json: explore jobs as the code of the day stores them (the
 * events of each `explore-{id}` stream) and serves them (the 200 body of the result route, without
 * `billing`). Run by hand, once, on the code whose storage the fixture freezes:
 * `WRITE_STORED_EXPLORES=1 npx vitest run test/support/stored-explores.writer.test.ts`.
 * Every party is made up: the full-check tests' laundering graph (test/support/full-check-data.ts).
 */

type Direction = 'in' | 'out' | 'both';
const JOBS: readonly { party: keyof typeof PARTIES; direction: Direction; maxHops?: number }[] = [
  { party: 'd', direction: 'both', maxHops: 4 },
  { party: 'b', direction: 'in' },
  { party: 't', direction: 'in' },
  { party: 'x', direction: 'out' },
  { party: 'lonely', direction: 'both' },
];

async function eventsOf(svc: TestService, jobId: string) {
  await svc.services.whenCaughtUp();
  const events = [];
  for await (const e of svc.services.store.read(`explore-${jobId}`)) events.push({ type: e.type, data: e.data, metadata: e.metadata });
  return events;
}

async function storedExplore(svc: TestService, apiKey: string, job: (typeof JOBS)[number]) {
  const headers = { authorization: `Bearer ${apiKey}` };
  const payload = {
    address: PARTIES[job.party],
    network: 'ETH',
    direction: job.direction,
    ...(job.maxHops ? { max_hops: job.maxHops } : {}),
  };
  const posted = await svc.app.inject({ method: 'POST', url: '/v2/explore', headers, payload });
  const { job_id: jobId, result_url: resultUrl } = posted.json();
  const served = await pollUntil(async () => {
    const response = await svc.app.inject({ method: 'GET', url: resultUrl, headers });
    return response.statusCode === 202 ? null : response;
  });
  const { billing: _billing, ...body } = served.json();
  return { jobId, served: 'v2', status: served.statusCode, events: await eventsOf(svc, jobId), body };
}

/** A job paid on x402, read back on the free result route. */
async function storedX402Explore() {
  const sources = await writeFullCheckSources();
  const h = await startX402Harness({ env: { SVC_SOURCES_DIR: sources } });
  try {
    const response = await h.payingFetch()('/explore', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: PARTIES.d, network: 'eth', direction: 'in', max_hops: 3 }),
    });
    const { job_id: jobId, result_url: resultUrl } = await response.json();
    const served = await pollUntil(async () => {
      const result = await fetch(`${h.url}${resultUrl}`);
      return result.status === 202 ? null : result;
    });
    const body = await served.json();
    return { jobId, served: 'x402', status: served.status, events: await eventsOf(h.svc, jobId), body };
  } finally {
    await h.close();
  }
}

describe.skipIf(!process.env.WRITE_STORED_EXPLORES)('stored explore jobs (fixture writer)', () => {
  it('writes the fixture', async () => {
    const svc = await startFullCheckService();
    try {
      const { userId, keyId, apiKey } = await svc.account({ depositUsd: 10 });
      const explores = [];
      for (const job of JOBS) explores.push(await storedExplore(svc, apiKey, job));
      explores.push(await storedX402Explore());
      const file = join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'explores-v1.json');
      await writeFile(file, `${JSON.stringify({ ownerId: userId, keyId, explores }, null, 2)}\n`);
      expect(explores.every((e) => e.status === 200)).toBe(true);
    } finally {
      await svc.close();
    }
  }, 120_000);
});
