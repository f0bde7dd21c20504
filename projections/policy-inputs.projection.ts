import type { PolicyFact } from '../domain/kyt/policy-engine.js';
import { TAXONOMY } from '../domain/intel/taxonomy.js';
import type { RaisedAlert } from '../domain/policies/backtest.js';
import type { RecordedChecks } from '../domain/ports/recorded-checks.port.js';
import { factsFromVerdict } from '../domain/policies/recorded-facts.js';
import type { TransferVerdict } from '../domain/kyt/transfer-verdict.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';

/**
 * What a backtest reads: one document per completed V2 transfer check of a subgroup, with the facts its
 * policy was applied to, the alerts it raised and the policy version (checks completed before the facts
 * were recorded get them from their body). Indexed by (subgroup, checked_at), so a backtest walks one
 * subgroup's range in order, a page at a time. x402 checks belong to no subgroup and are left out; a
 * failed check is removed.
 */
export interface PolicyInputsDoc extends Record<string, unknown> {
  id: string;
  subgroup_id: string;
  /** null while the check runs. */
  checked_at: string | null;
  policy: { id: string; version: string } | null;
  facts: PolicyFact[];
  raised: RaisedAlert[];
}

/** The alerts a verdict lists, with the rule and category behind each (its `explanations`, index-aligned). */
function raisedOf(policy: TransferVerdict['policy']): RaisedAlert[] {
  return policy.alerts.flatMap((alert, i): RaisedAlert[] => {
    const why = policy.explanations[i];
    if (!why) return [];
    return [{ ruleId: why.ruleId, slug: why.categorySlug, ruleType: alert.ruleType, level: alert.riskLevel }];
  });
}

export const policyInputsProjection = defineProjection({
  name: 'policy-inputs',
  collection: 'policy_inputs',
  indexes: [['subgroup_id', 'checked_at']],
  handles: ['TransferCheckRequested', 'TransferCheckCompleted', 'TransferCheckFailed', 'TransferCheckTimedOut'],
  idOf: (event) => event.data.checkId,
  evolve: (doc: PolicyInputsDoc | null, event): PolicyInputsDoc | null => {
    switch (event.type) {
      case 'TransferCheckRequested': {
        const requester = event.data.requester;
        if (doc || requester.channel !== 'v2') return doc;
        return { id: event.data.checkId, subgroup_id: requester.subgroupId, checked_at: null, policy: null, facts: [], raised: [] };
      }
      case 'TransferCheckCompleted': {
        if (!doc) return null;
        const d = event.data;
        const { policy } = d.verdict;
        return {
          ...doc,
          checked_at: d.verdict.checkedAt,
          policy: d.policy ?? { id: policy.id ?? 'standard', version: policy.version },
          facts: d.facts ? [...d.facts] : factsFromVerdict(d.verdict, TAXONOMY),
          raised: raisedOf(policy),
        };
      }
      case 'TransferCheckFailed':
      case 'TransferCheckTimedOut':
        return null;
    }
  },
});

/** A page of checks a backtest reads at once: its memory, whatever the range holds. */
export const BACKTEST_PAGE = 500;

export function policyInputsRepository(store: ReadStore): Omit<RecordedChecks, 'outcomesOf'> {
  const docs = store.collection<PolicyInputsDoc>(policyInputsProjection.collection, policyInputsProjection.indexes);
  return {
    async *walk(subgroupId, { from, to }) {
      let since = from;
      // Ties on checked_at come in id order: skip what the previous page ended with.
      let seen = new Set<string>();
      for (;;) {
        const page = await docs.find({
          where: { subgroup_id: subgroupId },
          since: { field: 'checked_at', value: since },
          orderBy: { field: 'checked_at', direction: 'asc' },
          limit: BACKTEST_PAGE + seen.size,
        });
        const fresh = page.filter((doc) => !seen.has(doc.id));
        for (const doc of fresh) {
          if ((doc.checked_at ?? '') >= to) return;
          yield { checkId: doc.id, checkedAt: doc.checked_at ?? '', facts: doc.facts, raised: doc.raised };
        }
        if (page.length < BACKTEST_PAGE + seen.size) return;
        const last = page.at(-1)?.checked_at ?? to;
        seen = new Set(page.filter((doc) => doc.checked_at === last).map((doc) => doc.id));
        since = last;
      }
    },
    async countSince(subgroupId, from) {
      return docs.count({ where: { subgroup_id: subgroupId }, since: { field: 'checked_at', value: from } });
    },
  };
}
