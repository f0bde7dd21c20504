import { CATEGORY_LEVELS, riskOfCategoryLevel, type CategoryLevel, type RiskLevel } from '../shared/verdict-vocabulary.js';
/**
 * The category taxonomy, versioned: a verdict's levels and severities are only comparable within one
 * version. Slugs, levels and severities follow docs/ARCHITECTURE.md#taxonomy (levels: severe 9–10,
 * high 7–8, medium 4–6, low 1–3, info 0). Three slugs are added for what the imported data says and
 * §2a has no home for: `extremism` (GraphSense concept of that name), `marketplace` (NFT and goods
 * marketplaces, Etherscan's "market" label cloud) and `named_entity` (a known name whose kind the
 * source does not give).
 */

export type { CategoryLevel, RiskLevel };

export interface CategoryDefinition {
  readonly displayName: string;
  readonly level: CategoryLevel;
  /** 0..10; 0 only for info. */
  readonly severity: number;
}

export interface Taxonomy {
  readonly version: string;
  readonly categories: Readonly<Record<string, CategoryDefinition>>;
}

const define = (displayName: string, level: CategoryLevel, severity: number): CategoryDefinition => ({
  displayName,
  level,
  severity,
});

export const TAXONOMY: Taxonomy = {
  version: '2026-11-1',
  categories: {
    sanctions: define('Sanctioned entity / address', 'severe', 10),
    sanctioned_jurisdiction: define('Sanctioned jurisdiction service', 'severe', 9),
    terrorist_financing: define('Terrorist financing', 'severe', 10),
    csam: define('Child sexual abuse material', 'severe', 10),
    human_trafficking: define('Human trafficking', 'severe', 9),
    ransomware: define('Ransomware', 'severe', 9),
    darknet_market: define('Darknet market', 'high', 8),
    stolen_funds: define('Hack / exploit / theft proceeds', 'high', 8),
    illicit_actor_org: define('Illicit actor organisation', 'high', 8),
    fraud_shop: define('Fraud shop / carding', 'high', 8),
    malware: define('Malware / drainer infrastructure', 'high', 7),
    scam: define('Scam (investment, pig-butchering, rug)', 'high', 7),
    phishing: define('Phishing / approval phishing', 'high', 7),
    extortion: define('Extortion / blackmail', 'high', 7),
    special_measures: define('Special measures (e.g. 311-type)', 'high', 7),
    issuer_blocked: define('Frozen by stablecoin issuer', 'high', 7),
    drugs_weapons: define('Illicit goods vendor', 'high', 7),
    money_laundering: define('Laundering service', 'high', 7),
    mixer: define('Mixer / tumbler (unsanctioned)', 'medium', 6),
    no_kyc_exchange: define('High-risk / no-KYC exchange', 'medium', 6),
    address_poisoning: define('Poisoning / dust attacker', 'medium', 5),
    gambling: define('Unlicensed gambling', 'medium', 5),
    extremism: define('Extremist actor', 'medium', 5),
    p2p_exchange: define('P2P exchange', 'medium', 4),
    privacy_protocol: define('Privacy protocol', 'medium', 4),
    seized_funds: define('Law-enforcement seized funds', 'medium', 4),
    atm: define('Crypto ATM', 'low', 3),
    unnamed_service: define('Unnamed service cluster', 'low', 3),
    bridge: define('Cross-chain bridge', 'low', 2),
    defi: define('DEX / lending / DeFi contract', 'low', 1),
    exchange: define('Regulated exchange', 'low', 1),
    hosted_wallet: define('Hosted wallet', 'low', 1),
    payment_processor: define('Payment processor', 'low', 1),
    mining_pool: define('Mining pool', 'low', 1),
    marketplace: define('Marketplace (NFT / goods)', 'low', 1),
    contract: define('Smart contract', 'info', 0),
    token: define('Token contract', 'info', 0),
    named_entity: define('Named entity (kind not given)', 'info', 0),
  },
};

/** A category's own level on the verdict scale (the verdict vocabulary): severe→critical, info→none. */
export const LEVEL_TO_RISK: Readonly<Record<CategoryLevel, RiskLevel>> = Object.fromEntries(
  CATEGORY_LEVELS.map((level) => [level, riskOfCategoryLevel(level)]),
) as Record<CategoryLevel, RiskLevel>;

export function categoryOf(taxonomy: Taxonomy, slug: string): CategoryDefinition | null {
  return Object.hasOwn(taxonomy.categories, slug) ? (taxonomy.categories[slug] ?? null) : null;
}

export const isKnownCategory = (taxonomy: Taxonomy, slug: string): boolean => categoryOf(taxonomy, slug) !== null;
