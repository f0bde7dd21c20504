import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test/support/test-service.js';

/**
 * Requests the router refuses before any route runs still answer in the V2 error envelope with a status
 * the document declares: a path id longer than any id is 404 (it names nothing), a malformed URL is 400.
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
    'an id of 101+ characters under %s is 404 not_found',
    async (prefix) => {
      const url = `${prefix}${'0'.repeat(101)}${prefix === '/v2/check-address/' ? '/result' : ''}`;
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
});
