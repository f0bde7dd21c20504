import { assessScreenVerdict } from '../../domain/inspect/engine-assessment.js';
import { OWN_ENGINE, OWN_ENGINE_KIND } from '../../domain/inspect/provider-selection.js';
import { addressVerdict, type VerdictSources } from '../../domain/intel/address-verdict.js';
import type { RiskProvider } from '../../domain/ports/risk-provider.port.js';

/**
 * The service's own engine as an inspect provider: the light screen's verdict (the one verdict path,
 * domain/intel/address-verdict.ts), passed through as its raw verdict. It costs one provider run inside
 * the inspect, never a separate light-screen charge.
 */
export function ownEngineProvider(sources: VerdictSources): RiskProvider {
  return {
    name: OWN_ENGINE,
    kind: OWN_ENGINE_KIND,
    async inspect(address, network) {
      try {
        const verdict = await addressVerdict(sources, { address, network });
        return { ok: true, raw: verdict, assessment: assessScreenVerdict(verdict) };
      } catch {
        return { ok: false, error: 'backend_unavailable' };
      }
    },
  };
}
