import { categoryOf, type Taxonomy } from '../intel/taxonomy.js';
import type { PolicyFact } from '../kyt/policy-engine.js';
import { RULE_TYPES, type RuleType } from '../kyt/policy.types.js';
import type { TransferVerdict } from '../kyt/transfer-verdict.js';

/**
 * The facts of a check completed before they were recorded, read back from its verdict: each category's
 * direct and indirect share and USD, and each pattern. The anchor is the top-USD sender listed with the
 * category (the verdict lists senders most USD first), as the composite picks it. Such checks were stored as
 * bodies (version 1 of TransferCheckCompleted), so their shares and USD are the body's, rounded as shown
 * (hundredths of a percent, micro-USD), which is how the rules compare them.
 */
const carries = (share: { share: number; usdMicros: number } | null): share is { share: number; usdMicros: number } =>
  share !== null && (share.share > 0 || share.usdMicros > 0);

export function factsFromVerdict(verdict: TransferVerdict, taxonomy: Taxonomy): PolicyFact[] {
  const { senders } = verdict.composite;
  const anchorOf = (slug: string, kind: 'direct' | 'indirect') => {
    const carrying = senders.filter((s) => s[kind].some((c) => c.slug === slug));
    const sender = carrying[0];
    return { address: sender?.address ?? '', label: sender?.label ?? null, senders: carrying.map((s) => s.address) };
  };
  const facts: PolicyFact[] = [];
  for (const category of verdict.composite.categories) {
    const definition = categoryOf(taxonomy, category.slug);
    if (!definition) continue;
    const base = { slug: category.slug, displayName: category.displayName, level: definition.level };
    if (carries(category.direct)) {
      const { senders: carrying, ...anchor } = anchorOf(category.slug, 'direct');
      facts.push({
        ...base,
        ruleType: 'Direct exposure',
        share: category.direct.share,
        usdMicros: category.direct.usdMicros,
        anchor,
        senders: carrying,
        entityName: anchor.label,
      });
    }
    if (carries(category.indirect)) {
      const { senders: carrying, ...anchor } = anchorOf(category.slug, 'indirect');
      const entityName = `Sender ${anchor.label ?? anchor.address} (exposed to ${category.displayName})`;
      facts.push({
        ...base,
        ruleType: 'Origin of funds / Indirect',
        share: category.indirect.share,
        usdMicros: category.indirect.usdMicros,
        anchor,
        senders: carrying,
        entityName,
      });
    }
  }
  for (const pattern of verdict.composite.patterns) {
    const definition = categoryOf(taxonomy, pattern.slug);
    if (!definition) continue;
    const ruleType: RuleType = RULE_TYPES[2];
    facts.push({
      ruleType,
      slug: pattern.slug,
      displayName: definition.displayName,
      level: definition.level,
      share: 0,
      usdMicros: 0,
      anchor: { address: pattern.address, label: null },
      senders: [pattern.address],
      entityName: null,
    });
  }
  return facts;
}
