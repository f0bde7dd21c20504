import type { Network } from '../shared/network.js';
import type { AddressIntel, DatasetVersion, SanctionList } from '../intel/intel.types.js';

/**
 * The address-intelligence index: every imported claim about an address, folded from the dataset
 * events. Lookups are synchronous and in memory because the light screen is the most called endpoint.
 */
export interface IntelIndex {
  /** Everything known about a normalized address on a network (empty claims when nothing is known). */
  lookup(address: string, network: Network): AddressIntel;
  /** The dataset versions the index currently holds, for verdicts to name the data they used. */
  datasets(): readonly DatasetVersion[];
  /** One id for the whole data state (a digest of every source's content hash), as verdicts name it. */
  snapshot(): string;
  /** Jurisdictions whose sanctions list the operator requires (SVC_REQUIRED_SANCTIONS): without one, screening fails closed. */
  readonly requiredSanctions?: readonly SanctionList[];
}
