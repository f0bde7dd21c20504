import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyStream } from '../../domain/idempotency/idempotency.events.js';
import { sha256Hex } from '../../domain/shared/hash.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const meta = (at: string) => ({ correlationId: randomUUID(), occurredAt: at, schemaVersion: 1 });

/**
 * A data directory written before outcomes were stored holds, per Idempotency-Key, the HTTP answer of the
 * first call (`IdempotentResponseStored {status, body}`). After the upgrade its replay must still be that answer.
 */
describe('Idempotency-Key across the upgrade to stored outcomes', () => {
  it('a key stored in the old shape replays its recorded answer byte for byte (billing.replay true), executes and charges nothing', async () => {
    const { apiKey, userId } = await svc.account({ depositUsd: 1 });
    const request = { address: '0x' + '7'.padStart(40, '0'), network: 'ETH' };
    const at = new Date().toISOString();
    // An answer as an older version recorded it: a real screen body of this address (so it meets the document's
    // schema) with the billing of that first call, which this account never paid.
    const other = await svc.account({ depositUsd: 1 });
    const fresh = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${other.apiKey}` },
      payload: request,
    });
    const { elapsed_ms: _elapsed, ...screened } = fresh.json<Record<string, unknown>>();
    const recorded = {
      ...screened,
      billing: {
        model: 'ledger',
        currency: 'USD',
        charged_usd: 0.1,
        balance_usd: 0.9,
        monthly_spent_usd: 0.1,
        monthly_cap_usd: null,
        replay: false,
      },
    };
    await svc.services.store.append(
      idempotencyStream(userId, sha256Hex('old-key')),
      [
        {
          id: randomUUID(),
          type: 'IdempotencyKeyClaimed',
          data: { callId: 'old-call', route: 'POST /v2/screen', requestHash: sha256Hex(JSON.stringify(request)), bootId: 'old-boot', at },
          metadata: meta(at),
        },
        {
          id: randomUUID(),
          type: 'IdempotentResponseStored',
          data: { callId: 'old-call', status: 200, body: recorded, at },
          metadata: meta(at),
        },
      ],
      { expected: 'no_stream' },
    );

    const replay = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': 'old-key' },
      payload: request,
    });

    expect(replay.statusCode).toBe(200);
    const { elapsed_ms: elapsed, ...body } = replay.json<Record<string, unknown>>();
    expect(typeof elapsed).toBe('number');
    expect(JSON.stringify(body)).toBe(JSON.stringify({ ...recorded, billing: { ...recorded.billing, replay: true } }));
    // nothing ran: the balance is the deposit
    const balance = (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${apiKey}` } })).json<{
      balance_usd: number;
    }>();
    expect(balance.balance_usd).toBe(1);
  });
});
