import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../support/polling.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The full check on the real data of the sources directory (read at run time, skipped when absent):
 * the OFAC-listed Lazarus address, a wallet it paid directly, and a TRON address whose value rests on
 * the unnamed-token sample (estimated, and said so).
 */

const SOURCES = resolve(process.env.SVC_SOURCES_DIR ?? '../shared/data');
const present = existsSync(join(SOURCES, 'tx-sample-eth-lazarus')) && existsSync(join(SOURCES, 'ofac-sdn-official'));
const LAZARUS = '0x098b716b8aaf21512996dc57eb0615e2383e2f96';

let service: TestService;
let key: string;

async function check(address: string, network: string) {
  const headers = { authorization: `Bearer ${key}` };
  const { result_url } = (
    await service.app.inject({ method: 'POST', url: '/v2/check-address', headers, payload: { address, network } })
  ).json();
  const response = await pollUntil(async () => {
    const r = await service.app.inject({ method: 'GET', url: result_url, headers });
    return r.statusCode === 202 ? null : r;
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe.skipIf(!present)(`full check on the real data (${SOURCES}; skipped when absent)`, () => {
  beforeAll(async () => {
    service = await startTestService({ SVC_SOURCES_DIR: SOURCES });
    key = (await service.account({ depositUsd: 10 })).apiKey;
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  it('rejects the OFAC-listed Lazarus address at tier 0 and traces its transfers in both directions', async () => {
    const body = await check(LAZARUS, 'ETH');
    expect(body).toMatchObject({
      decision: 'reject',
      verdict: { risk_level: 'sanctioned', risk_score: 100, tier_hit: 0, tier3_applied: true, tier4_applied: true },
    });
    expect(body.verdict.sdn_match).toMatchObject({ list: 'US' });
    expect(body.coverage.transfer_data.map((d: { name: string }) => d.name)).toContain(
      'tx-sample-eth-lazarus/LazarusTabularTxs1322519.csv',
    );
    expect(body.activity.incoming_transfers).toBeGreaterThan(100);
  });

  it('flags a wallet the Lazarus address paid directly, with the path and the USD it received', async () => {
    // The heaviest recipient nobody has labelled (the Lazarus addresses also pay each other).
    const page = await service.services.fullCheck.transfers.flows(LAZARUS, 'ETH', 'out', 100);
    const recipients = Array.from({ length: page.size }, (_, row) => page.counterparty(row));
    const recipient = recipients.find((address) => service.services.intel.lookup(address, 'ETH').claims.length === 0)!;
    const body = await check(recipient, 'ETH');
    const sanctions = body.evidence.find((e: { slug: string; relation: string }) => e.slug === 'sanctions' && e.relation === 'direct');
    expect(sanctions).toMatchObject({ direction: 'incoming', hops: 1, sources: expect.arrayContaining([expect.any(String)]) });
    expect(sanctions.paths[0].addresses).toEqual([LAZARUS, recipient]);
    expect(sanctions.usd).toBeGreaterThan(0);
    expect(['high', 'medium']).toContain(body.verdict.exposure_risk_level);
    expect(body.decision).toBe('review');
  });

  it('says when USD values rest on the unnamed TRON token (assumed JST, unverified)', async () => {
    const rows = readFileSync(join(SOURCES, 'tx-sample-tron', 'Transfers_20230307.csv'), 'utf8')
      .split('\n')
      .slice(1, 50);
    const recipient = rows.map((line) => line.split(',')[4]!).find(Boolean)!;
    const body = await check(recipient, 'TRON');
    expect(body.exposure.direct_incoming).toMatchObject({ applied: true, usd_estimated: true });
    expect(body.coverage.transfer_data.find((d: { caveat: string | null }) => d.caveat?.includes('unverified'))).toBeDefined();
  });
});
