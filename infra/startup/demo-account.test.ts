import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.js';
import { DEMO_EMAIL, demoAccountWanted, ensureDemoAccount } from './demo-account.js';
import { ensureDemoPassword } from './demo-password.js';

let svc: TestService | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
});

describe('demo account', () => {
  it('is looked after only with SVC_DEMO_ACCOUNT=1 and by a role serving the API', () => {
    expect(demoAccountWanted({ SVC_DEMO_ACCOUNT: '1', ROLE: 'all' })).toBe(true);
    expect(demoAccountWanted({ SVC_DEMO_ACCOUNT: '1', ROLE: 'api' })).toBe(true);
    expect(demoAccountWanted({ SVC_DEMO_ACCOUNT: '1', ROLE: 'processors' })).toBe(false);
    expect(demoAccountWanted({ SVC_DEMO_ACCOUNT: '1', ROLE: 'projections' })).toBe(false);
    expect(demoAccountWanted({ SVC_DEMO_ACCOUNT: '0', ROLE: 'all' })).toBe(false);
  });

  it('SVC_DEMO_ACCOUNT=0 creates no account, key, deposit or password', async () => {
    svc = await startTestService({ SVC_DEMO_ACCOUNT: '0', SVC_DEMO_API_KEY: `svc_${'9'.repeat(44)}`, SVC_PASSWORD_SCRYPT_LOG_N: '10' });
    expect(await ensureDemoAccount(svc.services)).toEqual({ created: false, apiKey: null });
    expect(await ensureDemoPassword(svc.services)).toEqual({ generated: null });
    await svc.services.projections.whenCaughtUp();
    expect(await svc.services.repositories.accounts.byEmail(DEMO_EMAIL)).toBeNull();
    expect(await svc.services.repositories.accounts.count()).toBe(0);
  });
});
