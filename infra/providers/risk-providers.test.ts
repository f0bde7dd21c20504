import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RiskProvider } from '../../domain/ports/risk-provider.port.js';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { fixture, startRecordedProviders, type RecordedProviders } from '../../test/support/recorded-providers.js';
import { chainalysisSanctions } from './chainalysis-sanctions.provider.js';
import { goPlusAddressSecurity } from './goplus-address-security.provider.js';

/** The real HTTP adapters against recorded responses in the vendors' documented formats, on 127.0.0.1. */
let recorded: RecordedProviders;
let goplus: RiskProvider;
let chainalysis: RiskProvider;
const inspect = (provider: RiskProvider, address: string, network: 'ETH' | 'BSC' | 'TRON' = 'ETH', signal = new AbortController().signal) =>
  provider.inspect(address, network, signal);

beforeAll(async () => {
  recorded = await startRecordedProviders();
  goplus = goPlusAddressSecurity({ name: 'provider_a', url: recorded.url, key: 'gp-token' });
  chainalysis = chainalysisSanctions({ name: 'provider_b', url: recorded.url, key: 'ca-key' });
});
afterAll(() => recorded.close());

describe('GoPlus address security adapter', () => {
  it('reads the boolean flags: sanctioned and money laundering, raw answer passed through unchanged', async () => {
    const address = madeUpEvmAddress('goplus-flagged');
    recorded.answer('goplus', { fixture: 'goplus/address-security.flagged.json' }, address);
    const outcome = await inspect(goplus, address.toLowerCase(), 'BSC');
    expect(outcome).toEqual({
      ok: true,
      raw: fixture('goplus/address-security.flagged.json'),
      assessment: {
        risk_level: 'sanctioned',
        sanctioned: true,
        risk_categories: ['money_laundering', 'sanctions'],
        signals: ['sanctioned', 'money_laundering'],
        summary: 'flags sanctioned, money_laundering (data source: Made-up feed for tests)',
      },
    });
    const request = recorded.requests.at(-1)!;
    expect(request.url).toBe(`/api/v1/address_security/${address.toLowerCase()}?chain_id=56`);
    expect(request.headers.authorization).toBe('Bearer gp-token');
  });

  it('all flags "0" is no risk signal; contract_address alone is not a risk', async () => {
    const outcome = await inspect(goplus, madeUpEvmAddress('goplus-clean').toLowerCase());
    expect(outcome.ok && outcome.assessment).toMatchObject({
      risk_level: 'none',
      sanctioned: false,
      risk_categories: [],
      summary: 'no risk flag set',
    });
  });

  it('mixer and malicious contracts map onto the taxonomy; low-level flags count but do not dominate', async () => {
    const address = madeUpEvmAddress('goplus-mixer');
    recorded.answer('goplus', { fixture: 'goplus/address-security.mixer.json' }, address);
    const outcome = await inspect(goplus, address.toLowerCase());
    expect(outcome.ok && outcome.assessment).toMatchObject({
      risk_level: 'high',
      sanctioned: false,
      risk_categories: ['malware', 'mixer'],
      signals: ['mixer', 'gas_abuse', 'number_of_malicious_contracts_created=2'],
    });
  });

  it('asks about TRON with chain_id=tron, keeping the base58 case', async () => {
    const address = madeUpTronAddress('goplus-tron');
    await inspect(goplus, address, 'TRON');
    expect(recorded.requests.at(-1)!.url).toBe(`/api/v1/address_security/${address}?chain_id=tron`);
  });

  it('a non-success code, a 502/503 and an unreadable body are failures, never verdicts', async () => {
    const [coded, unavailable, badGateway, garbage] = ['coded', 'unavailable', 'bad-gateway', 'garbage'].map((s) =>
      madeUpEvmAddress(`goplus-${s}`),
    );
    recorded.answer('goplus', { fixture: 'goplus/address-security.error-code.json' }, coded);
    recorded.answer('goplus', { status: 503, text: 'Service Unavailable' }, unavailable);
    recorded.answer('goplus', { status: 502, text: 'Bad Gateway' }, badGateway);
    recorded.answer('goplus', { status: 200, text: '<html>maintenance</html>' }, garbage);
    expect(await inspect(goplus, coded!.toLowerCase())).toEqual({ ok: false, error: 'provider_code_4029' });
    expect(await inspect(goplus, unavailable!.toLowerCase())).toEqual({ ok: false, error: 'http_503' });
    expect(await inspect(goplus, badGateway!.toLowerCase())).toEqual({ ok: false, error: 'http_502' });
    expect(await inspect(goplus, garbage!.toLowerCase())).toEqual({ ok: false, error: 'invalid_response' });
  });

  it('an aborted call (the inspect’s time budget spent) is a timeout', async () => {
    const gate = recorded.hold('goplus');
    const abort = new AbortController();
    const pending = inspect(goplus, madeUpEvmAddress('goplus-slow').toLowerCase(), 'ETH', abort.signal);
    await expect
      .poll(() => recorded.requests.some((r) => r.address === madeUpEvmAddress('goplus-slow').toLowerCase()), { timeout: 5000 })
      .toBe(true);
    abort.abort();
    expect(await pending).toEqual({ ok: false, error: 'timeout' });
    gate.release();
  });

  it('a provider nobody listens for is unreachable', async () => {
    const gone = goPlusAddressSecurity({ name: 'provider_a', url: 'http://127.0.0.1:1', key: null });
    expect(await inspect(gone, madeUpEvmAddress('nobody').toLowerCase())).toEqual({ ok: false, error: 'unreachable' });
  });
});

describe('Chainalysis sanctions screening adapter', () => {
  it('a sanctions identification is a sanctions hit naming the designation; raw passed through', async () => {
    const address = madeUpEvmAddress('chainalysis-sanctioned');
    recorded.answer('chainalysis', { fixture: 'chainalysis/address.sanctioned.json' }, address);
    const outcome = await inspect(chainalysis, address.toLowerCase());
    expect(outcome).toEqual({
      ok: true,
      raw: fixture('chainalysis/address.sanctioned.json'),
      assessment: {
        risk_level: 'sanctioned',
        sanctioned: true,
        risk_categories: ['sanctions'],
        signals: ['sanctions: SANCTIONS: OFAC SDN Made-up Test Entity 2020-01-01'],
        summary: 'SANCTIONS: OFAC SDN Made-up Test Entity 2020-01-01',
      },
    });
    expect(recorded.requests.at(-1)!.headers['x-api-key']).toBe('ca-key');
    expect(recorded.requests.at(-1)!.url).toBe(`/api/v1/address/${address.toLowerCase()}`);
  });

  it('an empty identifications list is no risk signal', async () => {
    const outcome = await inspect(chainalysis, madeUpEvmAddress('chainalysis-clear').toLowerCase());
    expect(outcome.ok && outcome.assessment).toMatchObject({
      risk_level: 'none',
      sanctioned: false,
      summary: 'not on the sanctions lists screened',
    });
  });

  it('a refused key (401) and a body without identifications are failures', async () => {
    const [refused, odd] = [madeUpEvmAddress('chainalysis-401'), madeUpEvmAddress('chainalysis-odd')];
    recorded.answer('chainalysis', { fixture: 'chainalysis/invalid-key.json', status: 401 }, refused);
    recorded.answer('chainalysis', { fixture: 'chainalysis/invalid-key.json' }, odd);
    expect(await inspect(chainalysis, refused.toLowerCase())).toEqual({ ok: false, error: 'http_401' });
    expect(await inspect(chainalysis, odd.toLowerCase())).toEqual({ ok: false, error: 'invalid_response' });
  });
});
