import type { ProviderCatalogEntry } from '../domain/inspect/provider-selection.js';
import type { InspectCompletions } from '../projections/inspect-completions.js';
import type { KeyProviderSelectionRepository } from '../projections/key-provider-selections.projection.js';

/** What the inspect routes need beyond the command deps, chosen by infra/topology and assembled by infra/wiring from the configuration. */
export interface InspectApi {
  /** The configured outside providers (aliases, enabled or not, networks covered). */
  readonly catalog: readonly ProviderCatalogEntry[];
  readonly completions: InspectCompletions;
  /** Each API key's saved active subset (before the account's). */
  readonly keySelections: KeyProviderSelectionRepository;
  /** How long POST /v2/inspect-address waits for the result before answering 202 (spec: about 115 s). */
  readonly waitMs: number;
  /** The request's wall-clock cap: past it the POST answers 504, nothing charged, the pipeline goes on. */
  readonly wallClockCapMs: number;
}
