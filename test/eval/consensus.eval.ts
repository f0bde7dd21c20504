import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { datasetDecider } from '../../domain/intel/dataset.decider.js';
import type { SourceDescriptor } from '../../domain/intel/intel.types.js';
import { buildScreenVerdict } from '../../domain/intel/screen-verdict.js';
import type { Network } from '../../domain/shared/network.js';
import { loadSourcesFromDir, type LoadedSource } from '../../infra/sources/load-sources.js';
import { createIntelIndex, type IntelIndexProjection } from '../../projections/intel-index.js';
import { updateReadme } from '../support/readme-figures.js';
import { checkedIntelOf } from '../support/intel-fixtures.js';

/**
 * `npm run eval`: how right the light screen is on the real public data (SVC_SOURCES_DIR, default
 * ../shared/data), by screening known addresses with every source, and again with the source that
 * knows them held out (only the others). Three questions, each with its ground truth:
 *
 * - sanctioned: the ETH/BSC/TRON addresses OFAC's SDN_ADVANCED.XML names (source `ofac_sdn`);
 *   right = risk_level `sanctioned` and the entity OFAC names in sdn_match or label.
 * - exchanges: the addresses of GraphSense's `exchange-wallets-*` packs (curated exchange wallets);
 *   right = the label names the exchange and risk_level is `none` or `low`.
 * - phishing / hacks: Etherscan's phish-hack, exploit and heist labels (source `etherscan_forta`);
 *   right = risk_level `high`, `critical` or `sanctioned`.
 *
 * Weight variants re-run the same screens with other trust weights, to see what the weights change.
 * Prints the table; with --write-readme, also writes it into docs/data-sources.md between <!-- eval:start --> and <!-- eval:end -->.
 */

const DATA_DIR = resolve(process.env.SVC_SOURCES_DIR ?? '../shared/data');
type Weights = (source: SourceDescriptor) => number;

interface Case {
  readonly address: string;
  readonly network: Network;
  readonly expect: string;
}

function buildIndex(sources: readonly LoadedSource[], weights: Weights): IntelIndexProjection {
  const index = createIntelIndex();
  for (const source of sources) {
    const descriptor = { ...source.descriptor, trustWeight: weights(source.descriptor) };
    const command = {
      type: 'ImportDataset' as const,
      source: source.source,
      version: source.version,
      contentHash: source.contentHash,
      claims: source.claims,
      tokens: source.tokens,
      importedAt: '2026-01-01T00:00:00Z',
      descriptor,
    };
    for (const event of datasetDecider.decide(command, datasetDecider.initialState())) index.apply(event);
  }
  return index;
}

const CURRENCY: Readonly<Record<string, Network>> = { ETH: 'ETH', USDT: 'ETH', USDC: 'ETH', BEP20: 'BSC', BSC: 'BSC', TRX: 'TRON' };

function exchangeCases(): Case[] {
  const dir = join(DATA_DIR, 'graphsense-tagpacks');
  return readdirSync(dir)
    .filter((f) => /^exchange-wallets-.*\.json$/.test(f))
    .flatMap((file) => {
      type Tag = { address: string; actor?: string; currency?: string; label?: string };
      const pack = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<Tag, 'address'> & { tags: Tag[] };
      return pack.tags.flatMap((tag) => {
        const network = CURRENCY[tag.currency ?? pack.currency ?? ''];
        const actor = tag.actor ?? pack.actor;
        // The exchange's name as the actor id gives it, or as the pack's own label spells it ("okex" / "okx").
        const names = [actor?.replace(/com$/, ''), (tag.label ?? pack.label)?.split(/\s/)[0]].filter((n): n is string => Boolean(n));
        return network && names.length > 0
          ? [{ address: tag.address.startsWith('0x') ? tag.address.toLowerCase() : tag.address, network, expect: names.join('|') }]
          : [];
      });
    });
}

function sanctionCases(sources: readonly LoadedSource[]): Case[] {
  return (sources.find((s) => s.source === 'ofac_sdn')?.claims ?? []).flatMap((claim): Case[] =>
    claim.kind === 'sanction' && claim.sanction.entity
      ? claim.scope === 'TRON'
        ? [{ address: claim.address, network: 'TRON' as const, expect: claim.sanction.entity }]
        : (['ETH', 'BSC'] as const).map((network) => ({ address: claim.address, network, expect: claim.sanction.entity! }))
      : [],
  );
}

function phishingCases(sources: readonly LoadedSource[]): Case[] {
  const claims = sources.find((s) => s.source === 'etherscan_forta')?.claims ?? [];
  const seen = new Set<string>();
  return claims.flatMap((claim) => {
    if (!['phishing', 'stolen_funds'].includes(claim.category) || seen.has(claim.address)) return [];
    seen.add(claim.address);
    return [{ address: claim.address, network: 'ETH' as const, expect: claim.category }];
  });
}

type Judge = (verdict: ReturnType<typeof buildScreenVerdict>['verdict'], expected: string) => boolean;
const same = (a: string | null | undefined, b: string): boolean => (a ?? '').toLowerCase() === b.toLowerCase();
const JUDGES: Readonly<Record<string, Judge>> = {
  sanctioned: (v, entity) => v.addressLevel === 'sanctioned' && (same(v.sanctionsMatch?.entity, entity) || same(v.label, entity)),
  exchange: (v, names) =>
    names.split('|').some((name) => (v.label ?? '').toLowerCase().includes(name.toLowerCase())) &&
    (v.addressLevel === 'none' || v.addressLevel === 'low'),
  exchangeNotAboveLow: (v) => v.addressLevel === 'none' || v.addressLevel === 'low',
  phishing: (v) => v.addressLevel === 'high' || v.addressLevel === 'critical' || v.addressLevel === 'sanctioned',
};

/** What the weights move: the score within a level's band (noisy-OR of trust × confidence). */
function meanScore(index: IntelIndexProjection, cases: readonly Case[]): string {
  const scores = cases.map((c) => buildScreenVerdict(checkedIntelOf(index.lookup(c.address, c.network))).verdict.riskScore ?? 0);
  return (scores.reduce((sum, score) => sum + score, 0) / Math.max(scores.length, 1)).toFixed(1);
}

function share(index: IntelIndexProjection, cases: readonly Case[], judge: Judge): string {
  const right = cases.filter((c) => judge(buildScreenVerdict(checkedIntelOf(index.lookup(c.address, c.network))).verdict, c.expect)).length;
  return `${((100 * right) / Math.max(cases.length, 1)).toFixed(1)} % (${right}/${cases.length})`;
}

async function main(): Promise<void> {
  if (!existsSync(DATA_DIR)) {
    console.error(`eval: ${DATA_DIR} is absent (set SVC_SOURCES_DIR to a directory laid out like ../shared/data)`);
    process.exit(2);
  }
  const sources = await loadSourcesFromDir(DATA_DIR);
  const without = (...slugs: string[]) => sources.filter((s) => !slugs.includes(s.source));
  const catalogWeights: Weights = (d) => d.trustWeight;
  const variants: [string, Weights][] = [
    ['catalog trust weights', catalogWeights],
    ['every source trusted 100', () => 100],
    ['community feeds trusted 90', (d) => (d.class === 'community_feed' ? 90 : d.trustWeight)],
  ];
  const cases = { sanctioned: sanctionCases(sources), exchange: exchangeCases(), phishing: phishingCases(sources) };

  const rows: string[] = [];
  for (const [name, weights] of variants) {
    const all = buildIndex(sources, weights);
    rows.push(
      `| ${name} | all sources | ${share(all, cases.sanctioned, JUDGES.sanctioned!)} | ${share(all, cases.exchange, JUDGES.exchange!)} | ${share(all, cases.exchange, JUDGES.exchangeNotAboveLow!)} | ${share(all, cases.phishing, JUDGES.phishing!)} | ${meanScore(all, cases.phishing)} |`,
    );
  }
  const heldOut = (slugs: string[], judge: keyof typeof JUDGES, group: Case[]) =>
    share(buildIndex(without(...slugs), catalogWeights), group, JUDGES[judge]!);
  rows.push(
    `| catalog trust weights | truth source held out | ${heldOut(['ofac_sdn'], 'sanctioned', cases.sanctioned)} | ${heldOut(['graphsense'], 'exchange', cases.exchange)} | ${heldOut(['graphsense'], 'exchangeNotAboveLow', cases.exchange)} | ${heldOut(['etherscan_forta'], 'phishing', cases.phishing)} | ${meanScore(buildIndex(without('etherscan_forta'), catalogWeights), cases.phishing)} |`,
  );
  const table = [
    `Produced by \`npm run eval\` (${new Date().toISOString().slice(0, 10)}) on the data in \`${process.env.SVC_SOURCES_DIR ?? '../shared/data'}\`; "truth source held out" screens with every source but the one the truth comes from (\`ofac_sdn\`, \`graphsense\`, \`etherscan_forta\`).`,
    '',
    '| weights | screened with | sanctioned → `sanctioned` + right entity | exchanges → named, ≤ `low` | exchanges → ≤ `low` | phishing / hacks → ≥ `high` | phishing / hacks: mean risk_score |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(table);
  await updateReadme('eval', table);
}

await main();
