import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../infra/receipts/verify-receipt.js';
import { STORED_FULL_CHECKS, type StoredFullCheck } from '../support/stored-full-checks.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A data directory written before verdicts were domain facts still opens and serves its full checks: the
 * events today's code wrote then (CheckCompleted at schema version 1, its `result` the response body;
 * test/fixtures/verdicts) are appended as they were recorded, then read through the API. The result is the
 * body it was served then, with a receipt over the very statement that body gave.
 */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

/** The check's events as recorded, under a new id and owned by `owner` (the owner's ids are this service's). */
async function appendAsRecorded(check: StoredFullCheck, owner: { userId: string; keyId: string }): Promise<string> {
  const checkId = service.services.commands.ids.newId();
  const events = check.events.map((event, i) => {
    const data = JSON.parse(
      JSON.stringify(event.data).replaceAll(check.checkId, checkId).replaceAll(STORED_FULL_CHECKS.ownerId, owner.userId),
    );
    if (event.type === 'AddressCheckRequested') data.owner = { ...data.owner, keyId: owner.keyId };
    return { id: service.services.commands.ids.eventId(`stored-check:${checkId}`, i), type: event.type, data, metadata: event.metadata };
  });
  await service.services.store.append(`check-${checkId}`, events as never, { expected: 'no_stream' });
  return checkId;
}

/** The statement a version-1 body's receipt signed: its subject, outcome and data, by the body's fields. */
function statementOfBody(body: Record<string, any>) {
  const sources = body.coverage.data_versions.sources as { source: string; version: string; content_hash: string }[];
  return {
    kind: 'full_check',
    subject: { network: body.network, address: body.address, txHash: null },
    issuedAt: body.completed_at,
    outcome: {
      riskLevel: body.verdict.risk_level,
      riskScore: body.verdict.risk_score,
      decision: body.decision,
      categories: [...new Set(body.verdict.risk_categories as string[])].sort(),
      sanctioned: body.verdict.sdn_match !== null,
    },
    data: {
      taxonomy: body.coverage.data_versions.taxonomy,
      snapshot: body.coverage.data_versions.snapshot,
      sources: sources.map((s) => ({ source: s.source, version: s.version, contentHash: s.content_hash })),
    },
  };
}

describe('full checks stored before verdicts were domain facts', () => {
  it('are served the body they were served then, with a receipt over what that body stated', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const jwks = (await service.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    for (const check of STORED_FULL_CHECKS.checks) {
      const checkId = await appendAsRecorded(check, owner);
      const response = await service.app.inject({ method: 'GET', url: `/v2/check-address/${checkId}/result`, headers: auth(owner.apiKey) });
      expect(response.statusCode, check.checkId).toBe(200);
      const { receipt, billing, ...body } = response.json();
      const expected = JSON.parse(JSON.stringify(check.body).replaceAll(check.checkId, checkId));
      expect(JSON.stringify(body)).toBe(JSON.stringify(expected));
      // Delivered then: the first delivery's billing again, byte for byte (a replay), no second charge. The
      // delivery event stored the response's billing object (version 1); it is read back as the charge.
      const delivered = check.events.find((event) => event.type === 'CheckResultDelivered');
      expect(delivered, check.checkId).toBeDefined();
      const storedBilling = (delivered?.data as { billing: Record<string, unknown> }).billing;
      expect(JSON.stringify(billing)).toBe(JSON.stringify({ ...storedBilling, replay: true }));
      const verified = await verifyReceipt(receipt, jwks);
      expect(verified).toMatchObject({ valid: true, statement: { verdictId: checkId, ...statementOfBody(expected) } });
    }
    const balance = (await service.app.inject({ method: 'GET', url: '/v2/balance', headers: auth(owner.apiKey) })).json();
    expect(balance, JSON.stringify(balance)).toMatchObject({ balance_usd: 5 });
  });

  it('answers 404 to anyone but the owner, as any check', async () => {
    const [owner, stranger] = [await service.account({ depositUsd: 5 }), await service.account({ depositUsd: 5 })];
    const checkId = await appendAsRecorded(STORED_FULL_CHECKS.checks[0] as StoredFullCheck, owner);
    const response = await service.app.inject({
      method: 'GET',
      url: `/v2/check-address/${checkId}/result`,
      headers: auth(stranger.apiKey),
    });
    expect(response.statusCode).toBe(404);
  });
});
