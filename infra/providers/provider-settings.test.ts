import { describe, expect, it } from 'vitest';
import { providerSettingsFromEnv } from './provider-settings.js';

describe('provider settings from the environment', () => {
  it('without settings: provider_a is GoPlus (no key needed), provider_b Chainalysis, disabled until it has a key', () => {
    expect(providerSettingsFromEnv({})).toEqual([
      {
        name: 'provider_a',
        kind: 'goplus_address_security',
        url: 'https://api.gopluslabs.io',
        key: null,
        enabled: true,
        networks: ['BSC', 'ETH', 'TRON'],
      },
      {
        name: 'provider_b',
        kind: 'chainalysis_sanctions',
        url: 'https://public.chainalysis.com',
        key: null,
        enabled: false,
        networks: ['BSC', 'ETH', 'TRON'],
      },
    ]);
    expect(providerSettingsFromEnv({ SVC_PROVIDER_B_KEY: 'k' })[1]).toMatchObject({ key: 'k', enabled: true });
  });

  it('reads URL, key, the global switch and networks per slot; more slots by letter', () => {
    const settings = providerSettingsFromEnv({
      SVC_PROVIDER_A_URL: 'http://127.0.0.1:9999/',
      SVC_PROVIDER_A_ENABLED: '0',
      SVC_PROVIDER_C_KIND: 'chainalysis_sanctions',
      SVC_PROVIDER_C_KEY: 'secret',
      SVC_PROVIDER_C_NETWORKS: 'eth, tron',
    });
    expect(settings.map((s) => [s.name, s.enabled])).toEqual([
      ['provider_a', false],
      ['provider_b', false],
      ['provider_c', true],
    ]);
    expect(settings[0]!.url).toBe('http://127.0.0.1:9999');
    expect(settings[2]!.networks).toEqual(['ETH', 'TRON']);
  });

  it('refuses what it does not understand, naming the variable', () => {
    expect(() => providerSettingsFromEnv({ SVC_PROVIDER_A_TIMEOUT: '5' })).toThrow(/SVC_PROVIDER_A_TIMEOUT: unknown setting/);
    expect(() => providerSettingsFromEnv({ SVC_PROVIDER_D_URL: 'https://example.test' })).toThrow(/SVC_PROVIDER_D_KIND is required/);
    expect(() => providerSettingsFromEnv({ SVC_PROVIDER_A_KIND: 'trm' })).toThrow(/SVC_PROVIDER_A_KIND/);
    expect(() => providerSettingsFromEnv({ SVC_PROVIDER_A_NETWORKS: 'ETH,BTC' })).toThrow(/SVC_PROVIDER_A_NETWORKS/);
    expect(() => providerSettingsFromEnv({ SVC_PROVIDER_A_URL: 'ftp://example.test' })).toThrow(/SVC_PROVIDER_A_URL/);
  });
});
