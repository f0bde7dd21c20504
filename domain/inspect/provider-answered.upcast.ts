import { screenVerdictOfV1, type ScreenVerdictV1 } from '../intel/screen-verdict.v1.js';
import { OWN_ENGINE } from './provider-selection.js';

/**
 * ProviderAnswered version 1 → 2. An outside provider's `raw` is its answer, kept verbatim in both. The own
 * engine's was its light-screen verdict in the body's words (snake case) in version 1, and is the domain
 * verdict (../intel/screen-verdict.schema.ts) in version 2, read back exactly (../intel/screen-verdict.v1.ts);
 * read-api/presenters/inspect.presenter.ts serves it as the body it was.
 */
export function providerAnsweredV1toV2(data: unknown): unknown {
  const answered = data as { provider: string; raw: unknown };
  if (answered.provider !== OWN_ENGINE) return data;
  return { ...answered, raw: screenVerdictOfV1(answered.raw as ScreenVerdictV1) };
}
