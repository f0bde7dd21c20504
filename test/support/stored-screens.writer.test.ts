import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { PARTIES } from './full-check-data.js';
import { startFullCheckService } from './full-check-service.js';
import { pollUntil } from './polling.js';
import type { TestService } from './test-service.js';

/**
 * Writes test/fixtures/verdicts/screens-v{N}.json: light screens as the code of the day stores them (the
 * Charged event of each, at its schema version N: version 1's details carried the wire summary and the
 * compact JWS, version 2's the domain summary and the detached receipt) and serves them (the 200 body of
 * GET /v2/verdicts/{id}, as the bytes sent). Run by hand, once, on the code whose storage the fixture freezes:
 * `WRITE_STORED_SCREENS=N npx vitest run test/support/stored-screens.writer.test.ts`. Every address is
 * made up (test/support/full-check-data.ts): a sanctioned one, a labelled exploiter, an exchange, and one
 * no source knows.
 */
const SUBJECTS = [PARTIES.s, PARTIES.r, PARTIES.x, madeUpEvmAddress('stored-screen:unknown').toLowerCase()];

async function storedScreen(svc: TestService, account: { userId: string; apiKey: string }, address: string) {
  const auth = { authorization: `Bearer ${account.apiKey}` };
  const screened = await svc.app.inject({ method: 'POST', url: '/v2/screen', headers: auth, payload: { address, network: 'ETH' } });
  const verdictId = screened.json().verdict_id as string;
  const served = await pollUntil(async () => {
    const response = await svc.app.inject({ method: 'GET', url: `/v2/verdicts/${verdictId}`, headers: auth });
    return response.statusCode === 404 ? null : response;
  });
  let charged = null;
  for await (const e of svc.services.store.read(`ledger-${account.userId}`))
    if (e.type === 'Charged' && (e.data as { chargeId: string }).chargeId === verdictId)
      charged = { type: e.type, data: e.data, metadata: e.metadata };
  return { verdictId, address, status: served.statusCode, event: charged, body: served.body };
}

describe.skipIf(!process.env.WRITE_STORED_SCREENS)('stored light screens (fixture writer)', () => {
  it('writes the fixture', async () => {
    const svc = await startFullCheckService();
    try {
      const account = await svc.account({ depositUsd: 10 });
      const screens = [];
      for (const address of SUBJECTS) screens.push(await storedScreen(svc, account, address));
      const file = join(import.meta.dirname, '..', 'fixtures', 'verdicts', `screens-v${process.env.WRITE_STORED_SCREENS}.json`);
      await writeFile(file, `${JSON.stringify({ ownerId: account.userId, keyId: account.keyId, screens }, null, 2)}\n`);
      expect(screens.every((s) => s.status === 200 && s.event !== null)).toBe(true);
    } finally {
      await svc.close();
    }
  }, 120_000);
});
