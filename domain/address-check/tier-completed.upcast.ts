import { sanctionsMatchOfV1, screenVerdictOfV1, type SanctionsMatchV1, type ScreenVerdictV1 } from '../intel/screen-verdict.v1.js';

/**
 * TierCompleted version 1 → 2. Version 1 (written until the light screen's verdict was a domain fact)
 * kept tier 0's sanctions match and tier 1's screen verdict in the screen body's words (snake case);
 * version 2 keeps the domain shapes (../intel/screen-verdict.schema.ts), read back exactly by
 * ../intel/screen-verdict.v1.ts, so that a check completed before is served the body it was
 * (test/e2e/stored-full-checks.e2e.test.ts). The other tiers' outcomes are unchanged.
 */
type OutcomeV1 =
  | { tier: 0; sdnMatch: SanctionsMatchV1 | null; [field: string]: unknown }
  | { tier: 1; screen: ScreenVerdictV1 }
  | { tier: 2 | 3 | 4; [field: string]: unknown };

function outcomeOfV1(outcome: OutcomeV1): unknown {
  if (outcome.tier === 0) return { ...outcome, sdnMatch: outcome.sdnMatch && sanctionsMatchOfV1(outcome.sdnMatch) };
  if (outcome.tier === 1) return { ...outcome, screen: screenVerdictOfV1(outcome.screen) };
  return outcome;
}

/** The registry's upcaster of TierCompleted from version 1 (pure: the stored data in, version 2's data out). */
export function tierCompletedV1toV2(data: unknown): unknown {
  const { outcome, ...rest } = data as { outcome: OutcomeV1 };
  return { ...rest, outcome: outcomeOfV1(outcome) };
}
