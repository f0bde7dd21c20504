import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpTronAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';

const EVM = '0x' + 'ab'.repeat(20);
const TRON_INVALID_CHECKSUM = 'T' + '1'.repeat(33);

let svc: TestService;
let key: string;
let userId: string;

beforeAll(async () => {
  svc = await startTestService();
  ({ apiKey: key, userId } = await svc.account({ depositUsd: 5 }));
});
afterAll(() => svc.close());

const screen = (payload: string | object | undefined, headers: Record<string, string> = {}) =>
  svc.app.inject({
    method: 'POST',
    url: '/v2/screen',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });

describe('POST /v2/screen refuses every bad input with the spec status and code, and charges nothing', () => {
  const cases: [string, string | object | undefined, number, string, Record<string, string>?][] = [
    ['empty address', { address: '', network: 'ETH' }, 400, 'bad_request'],
    ['blank address', { address: '   ', network: 'ETH' }, 400, 'bad_request'],
    ['address over 120 characters', { address: 'a'.repeat(121), network: 'ETH' }, 422, 'validation_error'],
    ['address of the wrong type', { address: 42, network: 'ETH' }, 422, 'validation_error'],
    ['missing address', { network: 'ETH' }, 422, 'validation_error'],
    ['missing network', { address: EVM }, 422, 'validation_error'],
    ['network over 20 characters', { address: EVM, network: 'E'.repeat(21) }, 422, 'validation_error'],
    ['empty network', { address: EVM, network: '' }, 400, 'bad_request'],
    ['unknown network', { address: EVM, network: 'FOO' }, 400, 'bad_request'],
    ['chain outside the screening footprint', { address: EVM, network: 'POLYGON' }, 400, 'unsupported_network'],
    ['bitcoin', { address: EVM, network: 'btc' }, 400, 'unsupported_network'],
    ['EVM address malformed', { address: '0x1234', network: 'ETH' }, 422, 'validation_error'],
    ['TRON address with a bad checksum', { address: TRON_INVALID_CHECKSUM, network: 'TRON' }, 422, 'validation_error'],
    ['EVM address on TRON', { address: EVM, network: 'TRON' }, 422, 'validation_error'],
    ['unexpected field', { address: EVM, network: 'ETH', provider: 'x' }, 422, 'validation_error'],
    ['body is an array', [EVM], 422, 'validation_error'],
    ['non-JSON body', '{"address": ', 422, 'validation_error'],
    ['no body', undefined, 422, 'validation_error'],
    ['oversized body', { address: EVM, network: 'ETH', pad: 'x'.repeat(20_000) }, 413, 'payload_too_large'],
    [
      'Idempotency-Key over 64 characters',
      { address: EVM, network: 'ETH' },
      422,
      'validation_error',
      { 'idempotency-key': 'k'.repeat(65) },
    ],
  ];

  it.each(cases)('%s', async (_name, payload, status, code, headers) => {
    const response = await screen(payload, headers);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
  });

  it('wrong case: EVM hex in any case is accepted and echoed lowercased; network case does not matter', async () => {
    const mixed = '0xAbCdEf' + 'aB'.repeat(17);
    const response = await screen({ address: mixed, network: 'eTh' });
    expect(response.statusCode).toBe(200);
    expect(response.json().address).toBe(mixed.toLowerCase());
    expect(response.json().network).toBe('ETH');
  });

  it('wrong case in a TRON address breaks its checksum: 422, not another address', async () => {
    const valid = madeUpTronAddress('case-test');
    expect((await screen({ address: valid, network: 'TRON' })).json().address).toBe(valid);
    const swapped = valid.slice(0, 5) + valid.slice(5).toLowerCase();
    expect((await screen({ address: swapped, network: 'TRON' })).statusCode).toBe(422);
  });

  it('wrong content type is 415', async () => {
    const response = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      payload: 'address=x',
    });
    expect(response.statusCode).toBe(415);
  });

  it('422 bodies carry detail[] with loc, msg and type', async () => {
    const body = (await screen({ address: 'a'.repeat(121), network: 'ETH' })).json();
    expect(body.detail[0]).toMatchObject({ loc: ['body', 'address'], type: 'string_too_long', ctx: { max_length: 120 } });
    expect(typeof body.detail[0].msg).toBe('string');
    const missing = (await screen({ network: 'ETH' })).json();
    expect(missing.detail[0]).toMatchObject({ loc: ['body', 'address'], type: 'missing' });
  });

  it('unsupported_network lists the supported networks', async () => {
    const body = (await screen({ address: EVM, network: 'BASE' })).json();
    expect(body.supported_networks).toEqual(['BSC', 'ETH', 'TRON']);
  });

  it('charged nothing for any refused input (the two accepted case tests are the only charges)', async () => {
    await svc.services.whenCaughtUp();
    const usage = await svc.app.inject({ method: 'GET', url: '/v2/me/usage', headers: { authorization: `Bearer ${key}` } });
    expect(usage.json().rows).toHaveLength(2);
    const balance = await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${key}` } });
    expect(balance.json().balance_usd).toBe(4.8);
    expect(userId).toBeTruthy();
  });
});

describe('authentication', () => {
  it('no Authorization header is 401 missing_api_key', async () => {
    const response = await svc.app.inject({ method: 'POST', url: '/v2/screen', payload: { address: EVM, network: 'ETH' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('missing_api_key');
  });

  it.each([
    ['malformed key', 'Bearer nonsense'],
    ['well-formed unknown key', `Bearer svc_${'A'.repeat(44)}`],
  ])('%s is 401 invalid_api_key', async (_name, header) => {
    const response = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: header },
      payload: { address: EVM, network: 'ETH' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('invalid_api_key');
  });

  it('a revoked key is refused at once, the other key of the user keeps working', async () => {
    const { revokeApiKey, issueApiKey } = await import('../../commands/api-keys.commands.js');
    const account = await svc.account({ depositUsd: 1 });
    const second = await issueApiKey(svc.services.commands, account.userId);
    await svc.services.projections.whenProcessed(second.position);
    const position = await revokeApiKey(svc.services.commands, account.userId, account.keyId);
    await svc.services.projections.whenProcessed(position);
    const refused = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${account.apiKey}` },
      payload: { address: EVM, network: 'ETH' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('invalid_api_key');
    const ok = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${second.apiKey}` },
      payload: { address: EVM, network: 'ETH' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('health, networks and the OpenAPI document need no key', async () => {
    for (const url of ['/v2/health', '/v2/networks', '/v2/openapi.json']) {
      expect((await svc.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    const openapi = (await svc.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/v2/screen', '/v2/me/usage', '/v2/balance']));
  });

  it.each([
    ['GET', '/v2/sanctioned/lookup'],
    ['POST', '/v2/checkAddressConsensus'],
  ])('retired path %s %s is 404', async (method, url) => {
    const response = await svc.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(404);
  });
});
