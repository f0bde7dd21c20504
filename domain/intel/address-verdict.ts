import { sanctionsCoverage } from '../coverage/sanctions-coverage.js';
import type { Clock } from '../ports/clock.port.js';
import type { ContractCodeReader } from '../ports/contract-code.port.js';
import type { IntelIndex } from '../ports/intel-index.port.js';
import type { Network } from '../shared/network.js';
import { buildScreenVerdict, type CheckedIntel, type ScreenVerdict } from './screen-verdict.js';

/** Where a verdict's facts come from: the intelligence index, and the chain's code when a reader is configured. */
export interface VerdictSources {
  readonly intel: IntelIndex;
  /** The verdict's time: the sanctions lists' ages are counted to it. */
  readonly clock: Clock;
  readonly contracts?: ContractCodeReader | undefined;
}

/**
 * The one path from an address to its screen verdict (`coverage` and `verdict`), for every product that
 * shows one: the light screen (V2, x402, CLI), the full check's tiers 0 and 1, and the inspect's own
 * engine, so `smart_contract.is_contract` and every other field agree whichever product asked. The
 * chain's own answer on contract code (eth_getCode) wins over the lists when the reader has one; the
 * reader never throws and answers null when it cannot tell.
 */
export async function addressVerdict(
  sources: VerdictSources,
  subject: { readonly address: string; readonly network: Network },
): Promise<ScreenVerdict> {
  const found = checkedIntel(sources, subject);
  const isContract = sources.contracts ? await sources.contracts.isContract(subject.address, subject.network) : null;
  return buildScreenVerdict(isContract === null ? found : { ...found, onChain: { isContract } });
}

/** The index's answer on one address, with the sanctions lists it was checked against now. */
export function checkedIntel(
  sources: Pick<VerdictSources, 'intel' | 'clock'>,
  subject: { readonly address: string; readonly network: Network },
): CheckedIntel {
  return {
    ...sources.intel.lookup(subject.address, subject.network),
    sanctions: sanctionsCoverage(sources.intel.datasets(), sources.clock.now()),
  };
}
