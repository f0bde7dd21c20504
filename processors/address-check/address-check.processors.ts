import { loadAddressCheck, recordCheckStep } from '../../commands/address-check.commands.js';
import type { CommandDeps } from '../../commands/command-deps.js';
import { missingTiers } from '../../domain/address-check/address-check.decider.js';
import { eventRegistry } from '../../domain/events/registry.js';
import { checkStreams } from '../../domain/address-check/address-check.events.js';
import type { Tier } from '../../domain/address-check/tier-outcome.schema.js';
import { runTier, type TierDeps } from '../../domain/address-check/tier-runners.js';
import { asConsequenceOf, firstPerKey } from '../event-scope.js';
import type { BusEvent, Processor } from '../processor.js';
import { topicOfFamily } from '../topics.js';

/**
 * The full check's pipeline: four processors on `events.check`, each its own consumer group, so the
 * quick tiers never wait behind a graph search:
 * - `check-tiers-intel`: tiers 0 (sanctions) and 1 (consensus) from the intelligence index;
 * - `check-tier-one-hop`: tier 2, direct counterparties in both directions;
 * - `check-tiers-graph`: tiers 3 and 4, the breadth-first exposure searches;
 * - `check-verdict`: once every tier has an outcome, the verdict (CheckCompleted).
 * At-least-once safe: each step first reads the check's stream and skips what is recorded; an outcome is
 * recorded by a command the decider ignores when the tier is already done (or the check finished), so a
 * redelivered or re-run step never records a second outcome. A tier that throws records an attempt;
 * the recorded attempt is itself the retry trigger, and the last allowed attempt fails the check.
 */

const TOPIC = topicOfFamily('check');

const isAddressCheck = (event: BusEvent): boolean => checkStreams.owns(event.streamId);
const checkIdOf = (event: BusEvent): string | null => checkStreams.idOf(event.streamId);

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 500);

async function runTiers(context: CommandDeps, deps: TierDeps, checkId: string, tiers: readonly Tier[]): Promise<void> {
  const { state } = await loadAddressCheck(context, checkId);
  if (state.status !== 'running' || !state.request) return;
  const { address, network, budget } = state.request;
  for (const tier of tiers) {
    if (state.tiers[tier] !== undefined) continue;
    let outcome;
    try {
      outcome = await runTier(tier, deps, { address, network, budget });
    } catch (error) {
      const attempt = (state.attempts[tier] ?? 0) + 1;
      const at = context.clock.now().toISOString();
      await recordCheckStep(
        context,
        checkId,
        { type: 'RecordTierFailure', tier, error: errorText(error), at },
        `check-tier-failure:${checkId}:${tier}:${attempt}`,
      );
      continue;
    }
    await recordCheckStep(
      context,
      checkId,
      { type: 'RecordTier', outcome, at: context.clock.now().toISOString() },
      `check-tier:${checkId}:${tier}`,
    );
  }
}

function tierProcessor(name: string, tiers: readonly Tier[], deps: TierDeps): Processor<CommandDeps> {
  const isMine = (tier: number): boolean => tiers.some((mineTier) => mineTier === tier);
  const mine = (event: BusEvent): boolean =>
    event.type === 'AddressCheckRequested' ||
    (event.type === 'TierAttemptFailed' && isMine(eventRegistry.dataOf('TierAttemptFailed', event).tier));
  return {
    name,
    topics: [TOPIC],
    async handle(batch, context) {
      const checks = firstPerKey(
        batch.filter((e) => isAddressCheck(e) && mine(e)),
        checkIdOf,
      );
      await Promise.all([...checks].map(([checkId, event]) => asConsequenceOf(event, () => runTiers(context, deps, checkId, tiers))));
    },
  };
}

const verdictProcessor: Processor<CommandDeps> = {
  name: 'check-verdict',
  topics: [TOPIC],
  async handle(batch, context) {
    const checks = firstPerKey(
      batch.filter((e) => isAddressCheck(e) && e.type === 'TierCompleted'),
      checkIdOf,
    );
    await Promise.all(
      [...checks].map(([checkId, event]) =>
        asConsequenceOf(event, async () => {
          const { state } = await loadAddressCheck(context, checkId);
          if (state.status !== 'running' || missingTiers(state).length > 0) return;
          await recordCheckStep(context, checkId, { type: 'Complete', at: context.clock.now().toISOString() }, `check-complete:${checkId}`);
        }),
      ),
    );
  },
};

export function createAddressCheckProcessors(deps: TierDeps): Processor<CommandDeps>[] {
  return [
    tierProcessor('check-tiers-intel', [0, 1], deps),
    tierProcessor('check-tier-one-hop', [2], deps),
    tierProcessor('check-tiers-graph', [3, 4], deps),
    verdictProcessor,
  ];
}
