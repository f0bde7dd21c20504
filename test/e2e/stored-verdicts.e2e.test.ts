import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeCall } from '../../commands/billing.commands.js';
import { verifyReceipt } from '../../infra/receipts/verify-receipt.js';
import { NO_SCREEN_RECEIPT } from '../../read-api/presenters/stored-verdict.presenter.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { PARTIES } from '../support/full-check-data.js';
import { startFullCheckService } from '../support/full-check-service.js';
import { pollUntil } from '../support/polling.js';
import type { TestService } from '../support/test-service.js';

/**
 * GET /v2/verdicts/{id}: a verdict the account was given, read back free with its receipt; anyone else's
 * is a 404; a screen charged before receipts were kept is served, saying it has no receipt.
 */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const jwks = async () => (await service.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
const getVerdict = (key: string, id: string) =>
  service.app.inject({ method: 'GET', url: `/v2/verdicts/${encodeURIComponent(id)}`, headers: auth(key) });
/** The History indexes a charge as soon as its projection sees it: read until it does. */
const readBack = (key: string, id: string) =>
  pollUntil(async () => {
    const response = await getVerdict(key, id);
    return response.statusCode === 404 ? null : response;
  });
const balanceOf = async (key: string) =>
  (await service.app.inject({ method: 'GET', url: '/v2/balance', headers: auth(key) })).json().balance_usd as number;

beforeAll(async () => {
  service = await startFullCheckService();
});
afterAll(async () => {
  await service?.close();
});

describe('GET /v2/verdicts/{id}', () => {
  it('reads a light screen back free: its kept verdict and the very receipt it answered with, to its owner only', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const stranger = await service.account({ depositUsd: 5 });
    const address = madeUpEvmAddress('stored-screen');
    const screened = await service.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: auth(owner.apiKey),
      payload: { address, network: 'ETH' },
    });
    expect(screened.statusCode).toBe(200);
    const screen = screened.json();
    const verdictId = screen.verdict_id as string;
    const before = await balanceOf(owner.apiKey);

    const response = await readBack(owner.apiKey, verdictId);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      verdict_id: verdictId,
      kind: 'screen',
      network: 'ETH',
      subject: screen.address,
      receipt: screen.receipt,
      receipt_note: null,
      verdict: {
        risk_level: screen.verdict.risk_level,
        risk_score: screen.verdict.risk_score,
        data_available: screen.coverage.data_available,
      },
    });
    const check = await verifyReceipt(body.receipt, await jwks());
    expect(check).toMatchObject({ valid: true, statement: { verdictId, kind: 'screen', subject: { address: screen.address } } });
    expect(await balanceOf(owner.apiKey)).toBe(before);

    // Someone else's verdict, and no verdict at all, are the same 404.
    expect((await getVerdict(stranger.apiKey, verdictId)).json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await getVerdict(stranger.apiKey, verdictId)).statusCode).toBe(404);
    expect((await getVerdict(owner.apiKey, 'no-such-verdict')).statusCode).toBe(404);
    expect((await getVerdict(owner.apiKey, 'x'.repeat(65))).statusCode).toBe(404);
  });

  it('reads a full check back with its result and receipt, charged once', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const submitted = (
      await service.app.inject({
        method: 'POST',
        url: '/v2/check-address',
        headers: auth(owner.apiKey),
        payload: { address: PARTIES.d, network: 'ETH' },
      })
    ).json();
    const delivered = (
      await pollUntil(async () => {
        const response = await service.app.inject({ method: 'GET', url: submitted.result_url, headers: auth(owner.apiKey) });
        return response.statusCode === 200 ? response : null;
      })
    ).json();
    const before = await balanceOf(owner.apiKey);
    const body = (await readBack(owner.apiKey, submitted.check_id)).json();
    expect(body).toMatchObject({ verdict_id: submitted.check_id, kind: 'check_address', receipt: delivered.receipt, receipt_note: null });
    expect(body.verdict).toMatchObject({ decision: delivered.decision, verdict: delivered.verdict, completed_at: delivered.completed_at });
    expect(body.verdict).not.toHaveProperty('billing');
    expect(body.verdict).not.toHaveProperty('receipt');
    expect(await balanceOf(owner.apiKey)).toBe(before);
  });

  it('serves a screen charged before receipts were kept, saying plainly that it has none', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const chargeId = service.services.commands.ids.newId();
    // A charge as the service wrote it before receipts were kept: the summary, no receipt.
    await chargeCall(service.services.commands, {
      userId: owner.userId,
      chargeId,
      product: 'screen',
      details: {
        endpoint: 'POST /v2/screen',
        keyId: owner.keyId,
        network: 'ETH',
        subject: madeUpEvmAddress('old-screen'),
        screen: {
          version: 1,
          addressLevel: null,
          riskScore: null,
          confidence: null,
          sourceCount: 0,
          label: null,
          dataAvailable: false,
          sanctionsMatch: null,
          categories: [],
        },
      },
    });
    const body = (await readBack(owner.apiKey, chargeId)).json();
    expect(body).toMatchObject({ verdict_id: chargeId, kind: 'screen', receipt: null, receipt_note: NO_SCREEN_RECEIPT });
    expect(body.verdict).toMatchObject({ data_available: false, risk_level: null });
  });
});
