import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenVerdictPartsSchema } from '../../read-api/schemas/screen-verdict.body.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * POST /v2/screen on the real public data (SVC_SOURCES_DIR, ../shared/data by default). The listed
 * addresses are read from the data files at run time; none is written into the repository.
 */
const sourcesDir = resolve(process.env.SVC_SOURCES_DIR || '../shared/data');
const available = existsSync(join(sourcesDir, 'ofac-ultrasoundmoney-eth', 'data.csv'));

function firstOfacEth(): { address: string; name: string } {
  const [, line] = readFileSync(join(sourcesDir, 'ofac-ultrasoundmoney-eth', 'data.csv'), 'utf8').split(/\r?\n/);
  const [address, name] = line!.split(',');
  return { address: address!, name: name!.replace(/"/g, '') };
}

/** The TRX list derived from the SDN_ADVANCED.XML of the same data set, whose parties carry names. */
function firstOfacTron(): string {
  const text = readFileSync(join(sourcesDir, 'ofac-brave-intl-lists', 'sanctioned_addresses_TRX.txt'), 'utf8');
  return text
    .split(/\r?\n/)
    .find((l) => l.startsWith('T'))!
    .trim();
}

let svc: TestService;
let key: string;

describe.skipIf(!available)(`POST /v2/screen on the real data in ${sourcesDir}`, () => {
  beforeAll(async () => {
    svc = await startTestService({ SVC_SOURCES_DIR: sourcesDir });
    ({ apiKey: key } = await svc.account({ depositUsd: 1 }));
  }, 120_000);
  afterAll(() => svc?.close());

  const screen = async (address: string, network: string) => {
    const response = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${key}` },
      payload: { address, network },
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('an OFAC-listed ETH address is sanctioned, with an sdn_match naming the entity', async () => {
    const { address, name } = firstOfacEth();
    const body = await screen(address, 'ETH');
    expect(body.address).toBe(address.toLowerCase());
    expect(body.verdict.risk_level).toBe('sanctioned');
    expect(body.verdict.sdn_match).not.toBeNull();
    expect(JSON.stringify(body.verdict.sdn_match).toLowerCase()).toContain(name.toLowerCase());
    expect(body.coverage.data_available).toBe(true);
    expect(() => screenVerdictPartsSchema.parse({ coverage: body.coverage, verdict: body.verdict })).not.toThrow();
  });

  it('an OFAC-listed TRON address is sanctioned and keeps its case end to end', async () => {
    const address = firstOfacTron();
    const body = await screen(address, 'tron');
    expect(body.address).toBe(address);
    expect(body.network).toBe('TRON');
    expect(body.verdict.risk_level).toBe('sanctioned');
    expect(body.verdict.sdn_match).toMatchObject({ list: 'US', entity: expect.stringMatching(/\S/) });
  });

  it('an address nobody knows: data_available false, risk none (unknown, not clean)', async () => {
    const body = await screen('0x' + 'f0'.repeat(20), 'BSC');
    expect(body.coverage.data_available).toBe(false);
    expect(body.verdict.risk_level).toBe('none');
    expect(body.verdict.labels).toEqual([]);
    expect(body.billing.charged_usd).toBe(0.1);
  });

  it('health names the data versions the verdicts use', async () => {
    const health = (await svc.app.inject({ method: 'GET', url: '/v2/health' })).json();
    expect(health.datasets.length).toBeGreaterThanOrEqual(8);
    expect(health.datasets.every((d: { content_hash: string }) => d.content_hash.startsWith('sha256:'))).toBe(true);
  });

  it('importing the same sources again changes nothing', async () => {
    const before = await svc.services.store.headPosition();
    const { importConfiguredSources } = await import('../../infra/startup/import-sources.js');
    await importConfiguredSources(svc.services, () => undefined);
    expect(await svc.services.store.headPosition()).toEqual(before);
  });
});
