import type { ProviderCatalogEntry } from '../../domain/inspect/provider-selection.js';
import type { RiskProvider } from '../../domain/ports/risk-provider.port.js';
import { chainalysisSanctions } from './chainalysis-sanctions.provider.js';
import { goPlusAddressSecurity } from './goplus-address-security.provider.js';
import type { ProviderKind, ProviderSetting } from './provider-settings.js';

const ADAPTERS: Readonly<Record<ProviderKind, (setting: ProviderSetting) => RiskProvider>> = {
  goplus_address_security: goPlusAddressSecurity,
  chainalysis_sanctions: chainalysisSanctions,
};

/** The outside providers that may run: the enabled slots, each behind its alias. */
export const httpRiskProviders = (settings: readonly ProviderSetting[]): RiskProvider[] =>
  settings.filter((s) => s.enabled).map((s) => ADAPTERS[s.kind](s));

/** What the API knows of each slot to choose an inspect's providers (never the URL or the key). */
export const providerCatalog = (settings: readonly ProviderSetting[]): ProviderCatalogEntry[] =>
  settings.map(({ name, kind, enabled, networks }) => ({ name, kind, enabled, networks }));
