import { sourceRowsOf } from '../../domain/replay/verdict-replay.js';
import { addressVerdict } from '../../domain/intel/address-verdict.js';
import { screenSummaryOf, type ScreenSummary } from '../../domain/intel/screen-summary.js';
import { ledgerStream } from '../../domain/ledger/ledger.events.js';
import { screenStatement, signedSources } from '../../domain/receipts/verdict-statements.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { fail } from '../../domain/shared/errors.js';
import { parseNetwork } from '../../domain/shared/network.js';
import { receiptStatement } from './receipt-statement.js';
import { clockAt, type ReplayPlan } from './replay-plan.js';

/** A light screen as the account's History keeps it: the summary and receipt its charge recorded. */
export interface StoredScreen {
  readonly verdictId: string;
  readonly userId: string;
  readonly network: string | null;
  readonly subject: string | null;
  readonly chargedAt: string | null;
  readonly summary: ScreenSummary | undefined;
  readonly receipt: string | undefined;
}

/** What a screen's replay compares: the fields its charge kept, and what its receipt signs of the outcome and data. */
/** A receipt signed before sources were in code-unit order is compared in that order too (the same set either way). */
const signedPart = (statement: VerdictStatement) => ({
  outcome: statement.outcome,
  data: { ...statement.data, sources: signedSources(statement.data.sources) },
});

/** Only what the verdict kept is compared: a screen kept before a summary field existed is not asked for it. */
function keptFields(kept: ScreenSummary, full: ScreenSummary): Partial<ScreenSummary> {
  return Object.fromEntries(Object.keys(kept).map((key) => [key, full[key as keyof ScreenSummary]]));
}

/**
 * A screen is recomputed from the index alone (tiers 0 and 1); the chain's answer on contract code is not
 * asked again, and the screen's summary does not keep it, so nothing compared depends on it.
 */
export function screenReplayPlan(stored: StoredScreen): ReplayPlan {
  const network = stored.network ? parseNetwork(stored.network) : null;
  const { summary, subject } = stored;
  if (!summary || !network || !subject)
    throw fail('invalid_state', 'this screen was charged before its verdict was kept: there is nothing to replay it against');
  const statement = stored.receipt ? receiptStatement(stored.receipt) : null;
  const madeAt = statement?.issuedAt ?? stored.chargedAt ?? '';
  const target = { address: subject, network };
  return {
    kind: 'screen',
    verdictId: stored.verdictId,
    madeAt,
    given: { summary, signed: statement ? signedPart(statement) : null },
    addresses: [subject],
    verdictEvent: {
      streamPrefix: ledgerStream(stored.userId),
      isVerdict: (event) => event.type === 'Charged' && (event.data as { chargeId?: unknown }).chargeId === stored.verdictId,
    },
    recorded: statement ? [] : ['this screen has no receipt: only the summary its charge kept is compared'],
    async recompute(intel, today) {
      const verdict = await addressVerdict({ intel, clock: today ?? clockAt(madeAt) }, target);
      const context = { verdictId: stored.verdictId, caller: { kind: 'api_key', id: '' } as const, input: target, issuedAt: madeAt };
      return {
        value: {
          summary: keptFields(summary, screenSummaryOf(verdict)),
          signed: statement ? signedPart(screenStatement(context, target, verdict)) : null,
        },
        sources: sourceRowsOf(verdict.coverage.dataVersions.sources),
        sanctions: verdict.verdict.sanctionsMatch ? [verdict.verdict.sanctionsMatch] : [],
      };
    },
  };
}
