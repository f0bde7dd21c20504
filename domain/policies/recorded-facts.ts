import { categoryOf, type Taxonomy } from '../intel/taxonomy.js';
import type { PolicyFact } from '../kyt/policy-engine.js';
import { RULE_TYPES, type RuleType } from '../kyt/policy.types.js';

/**
 * The facts of a check completed before they were recorded, read back from its body: each category's
 * direct and indirect share and USD, and each pattern. The anchor is the top-USD sender listed with the
 * category (the body lists senders most USD first), as the composite picks it. Shares and USD are the
 * body's, rounded as shown (hundredths of a percent, micro-USD), which is how the rules compare them.
 */
interface BodyCategory {
  slug: string;
  display_name: string;
  direct_share: number;
  direct_usd: number;
  indirect_share: number;
  indirect_usd: number;
}
interface BodySender {
  address: string;
  label: string | null;
  direct_categories: { slug: string }[];
  indirect_categories: { slug: string }[];
}

const asArray = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const micros = (usd: number): number => Math.round(usd * 1_000_000);

export function factsFromBody(result: Readonly<Record<string, unknown>>, taxonomy: Taxonomy): PolicyFact[] {
  const composite = (result.composite_result ?? {}) as Record<string, unknown>;
  const senders = asArray<BodySender>(composite.senders);
  const anchorOf = (slug: string, kind: 'direct_categories' | 'indirect_categories') => {
    const carrying = senders.filter((s) => asArray<{ slug: string }>(s[kind]).some((c) => c.slug === slug));
    const sender = carrying[0];
    return { address: sender?.address ?? '', label: sender?.label ?? null, senders: carrying.map((s) => s.address) };
  };
  const facts: PolicyFact[] = [];
  for (const category of asArray<BodyCategory>(composite.categories)) {
    const definition = categoryOf(taxonomy, category.slug);
    if (!definition) continue;
    const base = { slug: category.slug, displayName: category.display_name, level: definition.level };
    if (category.direct_share > 0 || category.direct_usd > 0) {
      const { senders: carrying, ...anchor } = anchorOf(category.slug, 'direct_categories');
      facts.push({
        ...base,
        ruleType: 'Direct exposure',
        share: category.direct_share / 100,
        usdMicros: micros(category.direct_usd),
        anchor,
        senders: carrying,
        entityName: anchor.label,
      });
    }
    if (category.indirect_share > 0 || category.indirect_usd > 0) {
      const { senders: carrying, ...anchor } = anchorOf(category.slug, 'indirect_categories');
      const entityName = `Sender ${anchor.label ?? anchor.address} (exposed to ${category.display_name})`;
      facts.push({
        ...base,
        ruleType: 'Origin of funds / Indirect',
        share: category.indirect_share / 100,
        usdMicros: micros(category.indirect_usd),
        anchor,
        senders: carrying,
        entityName,
      });
    }
  }
  for (const pattern of asArray<{ slug: string; address: string }>(composite.patterns)) {
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
