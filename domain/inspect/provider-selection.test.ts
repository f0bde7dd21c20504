import { describe, expect, it } from 'vitest';
import { OWN_ENGINE, selectProviders, type ProviderCatalogEntry } from './provider-selection.js';

const catalog: ProviderCatalogEntry[] = [
  { name: 'provider_a', kind: 'goplus_address_security', enabled: true, networks: ['ETH', 'BSC', 'TRON'] },
  { name: 'provider_b', kind: 'chainalysis_sanctions', enabled: true, networks: ['ETH', 'BSC', 'TRON'] },
  { name: 'provider_c', kind: 'goplus_address_security', enabled: false, networks: ['ETH'] },
  { name: 'provider_d', kind: 'chainalysis_sanctions', enabled: true, networks: ['ETH'] },
];
const engine = { name: OWN_ENGINE, kind: 'own_engine' };
const select = (over: Partial<Parameters<typeof selectProviders>[0]> = {}) =>
  selectProviders({ requested: undefined, entitled: ['provider_a', 'provider_b'], saved: null, catalog, network: 'ETH', ...over });

describe('provider selection', () => {
  it('defaults to the saved active subset, else to the whole entitlement; the own engine always runs first', () => {
    expect(select().run).toEqual([
      engine,
      { name: 'provider_a', kind: 'goplus_address_security' },
      { name: 'provider_b', kind: 'chainalysis_sanctions' },
    ]);
    expect(select({ saved: ['provider_b'] }).run.map((p) => p.name)).toEqual([OWN_ENGINE, 'provider_b']);
    expect(select({ saved: [] }).run.map((p) => p.name)).toEqual([OWN_ENGINE]);
  });

  it('keeps the requested subset of the entitlement and silently drops the rest (the engine cannot be asked away)', () => {
    const chosen = select({ requested: ['provider_b', 'provider_z', 'provider_d', OWN_ENGINE, 'provider_b'] });
    expect(chosen).toEqual({ run: [engine, { name: 'provider_b', kind: 'chainalysis_sanctions' }], waived: [], skipped: [] });
    expect(select({ requested: [] }).run).toEqual([engine]);
  });

  it('waives entitled providers that are disabled or not configured, and skips those not covering the network', () => {
    const entitled = ['provider_a', 'provider_c', 'provider_d', 'provider_q'];
    expect(select({ entitled, network: 'BSC' })).toEqual({
      run: [engine, { name: 'provider_a', kind: 'goplus_address_security' }],
      waived: ['provider_c', 'provider_q'],
      skipped: ['provider_d'],
    });
  });
});
