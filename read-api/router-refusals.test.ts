import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test/support/test-service.js';

/**
 * Requests the router refuses before any route runs still answer in the V2 error envelope with a status
 * the document declares: a path id longer than the router's bound (256: a monitor change's verdict id runs past
 * 100) is 404 (it names nothing), a malformed URL is 400.
 * Found by the contract test (ci/contract-test.sh): Fastify answered 414 `FST_ERR_MAX_PARAM_LENGTH` in its
 * own body shape, documented nowhere.
 */
describe('router refusals on the V2 app', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService();
    ({ apiKey: key } = await svc.account({ depositUsd: 1 }));
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each(['/v2/monitors/', '/v1/webhooks/', '/v2/alerts/', '/v2/check-address/'])(
    'an id past the router’s bound (257+ characters) under %s is 404 not_found',
    async (prefix) => {
      const url = `${prefix}${'0'.repeat(257)}${prefix === '/v2/check-address/' ? '/result' : ''}`;
      const response = await svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    },
  );

  it('a malformed percent-encoding in the path is 400 bad_request', async () => {
    const response = await svc.app.inject({ method: 'GET', url: '/v2/monitors/%zz', headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
  });

  it('a wrong method on a known path is 405 with Allow listing its methods; an unknown path is 404', async () => {
    const cases: [string, string, string][] = [
      ['GET', '/v2/screen', 'POST'],
      ['POST', '/v2/balance', 'GET, HEAD'],
      ['PUT', '/v2/alerts/5f0c0000-0000-4000-8000-000000000000', 'GET, HEAD, PATCH'],
      ['DELETE', '/alerts', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const response = await svc.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${key}` } });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.json()).toEqual({
        error: { code: 'method_not_allowed', message: `${method} is not allowed on ${url}; allowed: ${allow}` },
      });
    }
    const unknown = await svc.app.inject({ method: 'GET', url: '/v2/nowhere', headers: { authorization: `Bearer ${key}` } });
    expect(unknown.statusCode).toBe(404);
  });

  it('a page number out of range says its bound as a number: ctx {le} / {ge}, one detail per bound', async () => {
    const get = (query: string) =>
      svc.app.inject({ method: 'GET', url: `/v2/alerts?${query}`, headers: { authorization: `Bearer ${key}` } });
    const huge = await get('page=99999999999999999999');
    expect(huge.statusCode).toBe(422);
    expect(huge.json().detail).toEqual([
      { loc: ['query', 'page'], msg: expect.any(String), type: 'less_than_equal', input: '99999999999999999999', ctx: { le: 100_000 } },
    ]);
    const zero = await svc.app.inject({ method: 'GET', url: '/v2/me/usage?page_size=0', headers: { authorization: `Bearer ${key}` } });
    expect(zero.json().detail).toEqual([
      { loc: ['query', 'page_size'], msg: expect.any(String), type: 'greater_than_equal', input: '0', ctx: { ge: 1 } },
    ]);
  });
});
