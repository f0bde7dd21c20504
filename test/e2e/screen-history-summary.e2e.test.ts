import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenAddress } from '../../commands/screen-address.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import { isServiceError } from '../../domain/shared/errors.js';
import type { ChargeDetails } from '../../domain/ledger/ledger.events.js';
import { detachedScreenReceiptOf } from '../../domain/receipts/charged-screen-receipt.js';
import { compactReceiptOf } from '../../domain/receipts/detached-receipt.js';
import { MINIMAL_SANCTIONS_ADDRESS } from '../helpers/source-fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A light screen's charge carries its verdict's summary, which the account's History reads; a verdict that
 * cannot be produced answers 502 with nothing charged (the charge is taken after the verdict).
 */
let svc: TestService;
let userId: string;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  ({ userId, apiKey: key } = await svc.account({ depositUsd: 1 }));
}, 60_000);
afterAll(async () => {
  await svc?.close();
});

async function ledger() {
  const events = [];
  for await (const e of svc.services.store.read(`ledger-${userId}`)) events.push(e);
  return events;
}

describe('light screens in History', () => {
  it("the charge keeps the verdict's level, score, sanctions match and categories; History shows them", async () => {
    const response = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${key}` },
      payload: { address: MINIMAL_SANCTIONS_ADDRESS, network: 'ETH' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      verdict_id: string;
      receipt: string;
      verdict: { risk_level: string; risk_score: number; sdn_match: { list: string } };
    }>();
    const charge = (await ledger()).find((e) => e.type === 'Charged');
    expect(charge?.data).toMatchObject({
      product: 'screen',
      details: {
        screen: {
          addressLevel: body.verdict.risk_level,
          riskScore: body.verdict.risk_score,
          sanctionsMatch: { list: body.verdict.sdn_match.list },
          dataAvailable: true,
        },
        // Of the receipt, what the charge does not state: it gives back the very receipt answered.
        receipt: { kid: expect.any(String), signature: body.receipt.split('.')[2], issuedAt: expect.any(String) },
      },
    });
    const details = (charge!.data as { chargeId: string; details: ChargeDetails }).details;
    const rebuilt = detachedScreenReceiptOf({ chargeId: body.verdict_id, details }, details.receipt!);
    expect(rebuilt?.statement).toMatchObject({ kind: 'screen', outcome: { riskLevel: body.verdict.risk_level, sanctioned: true } });
    expect(compactReceiptOf(rebuilt!)).toBe(body.receipt);
    await svc.services.whenCaughtUp();
    const { rows } = await svc.services.app.alerts.history.page(userId, { kind: 'screen' }, { page: 1, pageSize: 10 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ risk_level: 'sanctioned', summary: { sanctionsMatch: { list: body.verdict.sdn_match.list } } });
  });

  it('a verdict that cannot be produced: 502 backend_unavailable, nothing charged, no charge in the ledger', async () => {
    const before = (await ledger()).filter((e) => e.type === 'Charged').length;
    const intel = svc.services.app.commands.intel;
    const failing: IntelIndex = Object.create(intel) as IntelIndex;
    failing.lookup = () => {
      throw new Error('index unreadable');
    };
    const error: unknown = await screenAddress(
      { ...svc.services.app.commands, intel: failing },
      { userId, keyId: 'k', callId: 'failing-call', address: MINIMAL_SANCTIONS_ADDRESS, network: 'ETH' },
    ).catch((e: unknown) => e);
    expect(isServiceError(error) && error.code).toBe('backend_unavailable');
    expect((await ledger()).filter((e) => e.type === 'Charged')).toHaveLength(before);
    const balance = await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${key}` } });
    expect(balance.json<{ balance_usd: number }>().balance_usd).toBe(0.9);
  });
});
