import type { Network } from '../shared/network.js';

/** The own engine's public name: the same label the light screen reports as its `provider`. */
export const OWN_ENGINE = 'service';
export const OWN_ENGINE_KIND = 'own_engine';

/** One configured outside provider, as the operator set it up (infra/config.ts). */
export interface ProviderCatalogEntry {
  readonly name: string;
  readonly kind: string;
  /** Globally disabled providers are waived: not run, not charged. */
  readonly enabled: boolean;
  /** Networks the provider covers; on others it is skipped, free. */
  readonly networks: readonly Network[];
}

export interface ProviderRun {
  readonly name: string;
  readonly kind: string;
}

export interface ProviderSelection {
  /** The providers that run, the own engine first. */
  readonly run: readonly ProviderRun[];
  /** Asked for and entitled, but disabled (or not configured) on this service. */
  readonly waived: readonly string[];
  /** Asked for and entitled, but not covering the network. */
  readonly skipped: readonly string[];
}

/**
 * Which providers an inspect runs. The caller's list (default: the saved active subset, the key's or else
 * the account's, else the whole entitlement) is cut to the entitlement without a word about the rest; the own engine always
 * runs and cannot be asked away. Order follows the operator's catalog, so equal requests run alike.
 */
export function selectProviders(input: {
  requested: readonly string[] | undefined;
  entitled: readonly string[];
  saved: readonly string[] | null;
  catalog: readonly ProviderCatalogEntry[];
  network: Network;
}): ProviderSelection {
  const wanted = new Set((input.requested ?? input.saved ?? input.entitled).filter((name) => input.entitled.includes(name)));
  wanted.delete(OWN_ENGINE);
  const run: ProviderRun[] = [{ name: OWN_ENGINE, kind: OWN_ENGINE_KIND }];
  const waived: string[] = [];
  const skipped: string[] = [];
  for (const entry of input.catalog) {
    if (!wanted.delete(entry.name)) continue;
    if (!entry.enabled) waived.push(entry.name);
    else if (!entry.networks.includes(input.network)) skipped.push(entry.name);
    else run.push({ name: entry.name, kind: entry.kind });
  }
  // Entitled names the operator never configured cannot run either.
  waived.push(...[...wanted].sort());
  return { run, waived, skipped };
}
