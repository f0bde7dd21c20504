import { afterEach, describe, expect, it } from 'vitest';
import { givePassword, loginForm } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PASSWORD = 'a long enough password';
let svc: TestService | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
});

/** Every form fetched first, then all the POSTs fired at once from the given client address. */
async function concurrentLogins(app: TestService['app'], attempts: Array<{ email: string; password: string; ip: string }>) {
  const forms = await Promise.all(attempts.map(() => loginForm(app)));
  return Promise.all(
    attempts.map((attempt, i) =>
      app.inject({
        method: 'POST',
        url: '/login',
        remoteAddress: attempt.ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: forms[i]!.cookie },
        payload: new URLSearchParams({ csrf: forms[i]!.csrf, email: attempt.email, password: attempt.password }).toString(),
      }),
    ),
  );
}

describe('dashboard login under concurrent attempts', () => {
  it('counts attempts before the password check: 41 at once from one address, only 40 are checked', { timeout: 60_000 }, async () => {
    // scrypt N=2^14 takes long enough that every attempt arrives while the first ones are still hashing.
    svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '14', SVC_LOGIN_MAX_FAILURES: '10', SVC_LOGIN_MAX_QUEUED_CHECKS: '100' });
    const { userId } = await svc.account();
    const email = (await svc.services.repositories.accounts.get(userId))!.email;
    await givePassword(svc.services, userId, PASSWORD);
    const ip = '198.51.100.7';
    const guesses = Array.from({ length: 40 }, (_, i) => ({ email: `guess${i}@example.test`, password: `wrong ${i}`, ip }));
    const responses = await concurrentLogins(svc.app, [...guesses, { email, password: PASSWORD, ip }]);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(40);
    // The 41st is over the address's limit (4 × 10): refused before its password is looked at.
    expect(statuses[40]).toBe(429);
    expect(Number(responses[40]!.headers['retry-after'])).toBeGreaterThan(0);
    expect([responses[40]!.headers['set-cookie']].flat().some((c) => c?.startsWith('svc_session='))).toBe(false);
  });

  it(
    'bounds the password checks waiting: beyond the queue a login gets 429 at once, and is not counted as a failure',
    { timeout: 60_000 },
    async () => {
      svc = await startTestService({
        SVC_PASSWORD_SCRYPT_LOG_N: '14',
        SVC_LOGIN_MAX_FAILURES: '3',
        SVC_LOGIN_MAX_CONCURRENT_CHECKS: '1',
        SVC_LOGIN_MAX_QUEUED_CHECKS: '2',
      });
      const attempts = Array.from({ length: 10 }, (_, i) => ({
        email: `nobody${i}@example.test`,
        password: 'whatever',
        ip: `203.0.113.${i + 1}`,
      }));
      const responses = await concurrentLogins(svc.app, attempts);
      const checked = responses.filter((r) => r.statusCode === 401);
      const busy = responses.filter((r) => r.statusCode === 429);
      expect(checked).toHaveLength(3);
      expect(busy).toHaveLength(7);
      for (const response of busy) {
        expect(response.headers['retry-after']).toBe('1');
        expect(response.body).toContain('Too many logins at once');
      }
      // The refused ones were never checked, so they did not use up their email's or address's attempts.
      const [again] = await concurrentLogins(svc.app, [attempts[responses.indexOf(busy[0]!)]!]);
      expect(again!.statusCode).toBe(401);
    },
  );
});
