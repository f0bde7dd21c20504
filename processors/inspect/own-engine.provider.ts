import { assessScreenVerdict } from '../../domain/inspect/engine-assessment.js';
import { OWN_ENGINE, OWN_ENGINE_KIND } from '../../domain/inspect/provider-selection.js';
import { buildScreenVerdict } from '../../domain/intel/screen-verdict.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { RiskProvider } from '../../domain/ports/risk-provider.port.js';

/**
 * The service's own engine as an inspect provider: the light screen's verdict (sanctions and consensus
 * from the intelligence index), passed through as its raw verdict. It costs one provider run inside
 * the inspect, never a separate light-screen charge.
 */
export function ownEngineProvider(intel: IntelIndex): RiskProvider {
  return {
    name: OWN_ENGINE,
    kind: OWN_ENGINE_KIND,
    async inspect(address, network) {
      try {
        const verdict = buildScreenVerdict(intel.lookup(address, network));
        return { ok: true, raw: verdict, assessment: assessScreenVerdict(verdict) };
      } catch {
        return { ok: false, error: 'backend_unavailable' };
      }
    },
  };
}
