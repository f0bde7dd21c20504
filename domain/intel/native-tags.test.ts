import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyLabelWords, IGNORED_SUSPICIOUS_LABELS, LABEL_WORD_RULES, SUSPICIOUS_WORDS } from './label-words.js';
import {
  classifyEtherscanLabel,
  classifyGraphsenseTag,
  classifyMewDarklistComment,
  ETHEREUM_LISTS_IGNORED_FIELDS,
  ETHEREUM_LISTS_RED_FLAGS,
  ETHERSCAN_LISTS,
  FORTA_DATA_SOURCES,
  GRAPHSENSE_ACTOR_CATEGORIES,
  GRAPHSENSE_CONCEPTS,
  GRAPHSENSE_CONFIDENCE,
  OFAC_ASSETS_ON_OTHER_LEDGERS,
  OFAC_ASSETS_ON_SCREENED_NETWORKS,
  TRUSTWALLET_ADDRESSED_TYPES,
  TRUSTWALLET_STATUSES,
  TRUSTWALLET_UNADDRESSED_TYPES,
} from './native-tags.js';
import { isKnownCategory, TAXONOMY } from './taxonomy.js';

/**
 * Every native tag of the real data sets must be mapped onto the taxonomy or deliberately ignored.
 * Reads SVC_SOURCES_DIR (default ../shared/data from the repository root), the layout of SOURCES.md.
 */

const DATA_DIR = resolve(process.env.SVC_SOURCES_DIR ?? '../shared/data');
const ABSENT = existsSync(DATA_DIR) ? null : `${DATA_DIR} is absent (set SVC_SOURCES_DIR to a directory laid out like ../shared/data)`;
if (ABSENT) console.warn(`native-tags.test: skipped, ${ABSENT}`);

const readJson = (...path: string[]): unknown => JSON.parse(readFileSync(join(DATA_DIR, ...path), 'utf8'));
const filesIn = (...path: string[]): string[] => readdirSync(join(DATA_DIR, ...path)).sort();

/** Column values of a simple CSV with a header (quoted fields allowed, no newlines inside them). */
function csvColumn(path: string, column: string): string[] {
  const split = (line: string): string[] =>
    [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1);
  const [header, ...rows] = readFileSync(join(DATA_DIR, path), 'utf8')
    .split(/\r?\n/)
    .filter((line) => line !== '');
  const index = split(header!).indexOf(column);
  return index === -1 ? [] : rows.map((row) => split(row)[index] ?? '');
}

const unique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

describe('native tag tables', () => {
  it('map only onto categories of the taxonomy', () => {
    const targets = [
      ...Object.values(GRAPHSENSE_CONCEPTS).map((m) => m.category),
      ...Object.values(GRAPHSENSE_ACTOR_CATEGORIES),
      ...Object.values(ETHERSCAN_LISTS),
      ...Object.values(ETHEREUM_LISTS_RED_FLAGS).map((m) => m.category),
      ...Object.values(TRUSTWALLET_STATUSES).flatMap((m) => ('category' in m ? [m.category] : [])),
      ...LABEL_WORD_RULES.map((rule) => rule.category),
    ];
    expect(targets.filter((slug) => !isKnownCategory(TAXONOMY, slug))).toEqual([]);
  });

  it('read label words, specific before generic', () => {
    expect(classifyLabelWords('Fake_Phishing1772')?.category).toBe('phishing');
    expect(classifyLabelWords('Upbit Hacker 8.80')?.category).toBe('stolen_funds');
    expect(classifyLabelWords('Compromised: Honeypot 3')?.category).toBe('scam');
    expect(classifyLabelWords('Tornado.Cash: Mixer 1')).toEqual({ category: 'mixer', kind: 'identity' });
    expect(classifyLabelWords('ETHGlobal Hackathon')).toBeNull();
    expect(classifyLabelWords('BankHeist4D')).toBeNull(); // deliberately ignored
  });
});

describe.skipIf(ABSENT !== null)(`native tags of the data in ${DATA_DIR}`, () => {
  it('GraphSense: every pack category, abuse, concept, actor, confidence and risky label word is mapped or ignored', () => {
    const unmapped: string[] = [];
    const unnoticedLabels: string[] = [];
    for (const file of filesIn('graphsense-tagpacks').filter((f) => f.endsWith('.json'))) {
      const pack = readJson('graphsense-tagpacks', file) as Record<string, unknown> & { tags: Record<string, unknown>[] };
      for (const tag of pack.tags) {
        const field = (key: string): string | undefined => (tag[key] ?? pack[key]) as string | undefined;
        const confidence = field('confidence');
        if (confidence !== undefined && !Object.hasOwn(GRAPHSENSE_CONFIDENCE, confidence))
          unmapped.push(`${file}: confidence ${confidence}`);
        const verdict = classifyGraphsenseTag({
          pack: file.replace(/\.json$/, ''),
          category: field('category'),
          abuse: field('abuse'),
          concepts: (tag.concepts ?? pack.concepts) as string[] | undefined,
          label: field('label'),
          actor: field('actor'),
        });
        if ('unmapped' in verdict) unmapped.push(`${file}: ${verdict.unmapped}`);
        const label = field('label');
        const named = 'category' in verdict && verdict.category === 'named_entity';
        if (named && label && SUSPICIOUS_WORDS.test(label) && !Object.hasOwn(IGNORED_SUSPICIOUS_LABELS, label)) {
          unnoticedLabels.push(`${file}: ${label}`);
        }
      }
    }
    expect(unique(unmapped)).toEqual([]);
    // A suspicious word in a name is either read as a risk category or listed in IGNORED_SUSPICIOUS_LABELS.
    expect(unique(unnoticedLabels)).toEqual([]);
  });

  it('Forta: every Etherscan list name is mapped', () => {
    const lists = [
      ...csvColumn('forta-labelled-datasets/1/etherscan_malicious_labels.csv', 'data_source').map(
        (s) => FORTA_DATA_SOURCES[s] ?? `data_source ${s}`,
      ),
      ...csvColumn('forta-labelled-datasets/1/phishing_scams.csv', 'etherscan_labels').flatMap((s) => s.split(',')),
      ...filesIn('forta-labelled-datasets').flatMap((chain) =>
        csvColumn(`forta-labelled-datasets/${chain}/malicious_smart_contracts.csv`, 'contract_creator_etherscan_label').filter(
          (s) => s !== '',
        ),
      ),
    ];
    expect(unique(lists.filter((list) => 'unmapped' in classifyEtherscanLabel(list.trim(), '')))).toEqual([]);
  });

  it('OFAC: every digital currency asset is screened or deliberately another ledger', () => {
    const xml = readFileSync(join(DATA_DIR, 'ofac-sdn-official/sdn_advanced.digital-currency-subset.xml'), 'utf8');
    const csv = readFileSync(join(DATA_DIR, 'ofac-sdn-official/SDN.CSV'), 'latin1');
    const assets = unique([
      ...[...xml.matchAll(/>Digital Currency Address - ([A-Z0-9]+)</g)].map((m) => m[1]!),
      ...[...csv.matchAll(/Digital Currency Address - ([A-Z0-9]+) /g)].map((m) => m[1]!),
      ...filesIn('ofac-brave-intl-lists').flatMap((f) => /sanctioned_addresses_([A-Z0-9]+)\./.exec(f)?.[1] ?? []),
    ]);
    expect(assets.filter((a) => !OFAC_ASSETS_ON_SCREENED_NETWORKS.has(a) && !OFAC_ASSETS_ON_OTHER_LEDGERS.has(a))).toEqual([]);
  });

  it('MEW: every darklist comment lands on a taxonomy category', () => {
    const darklist = readJson('mew-ethereum-lists/addresses-darklist.json') as { comment?: string }[];
    const categories = unique(darklist.map((entry) => classifyMewDarklistComment(entry.comment ?? '').category));
    expect(categories.filter((slug) => !isKnownCategory(TAXONOMY, slug))).toEqual([]);
  });

  it('Trust Wallet: every token status and type is mapped', () => {
    const infos = filesIn('tokens-trustwallet-2021/tron/assets').map(
      (id) => readJson('tokens-trustwallet-2021/tron/assets', id, 'info.json') as { status?: string; type?: string },
    );
    const lists = ['ethereum', 'smartchain'].flatMap(
      (chain) => (readJson('tokens-trustwallet-2021', chain, 'tokenlist.json') as { tokens: { type?: string }[] }).tokens,
    );
    const statuses = unique(infos.map((info) => info.status ?? 'missing'));
    const types = unique([...infos, ...lists].map((token) => token.type ?? 'missing'));
    expect(statuses.filter((s) => !Object.hasOwn(TRUSTWALLET_STATUSES, s))).toEqual([]);
    expect(types.filter((t) => !TRUSTWALLET_ADDRESSED_TYPES.has(t) && !TRUSTWALLET_UNADDRESSED_TYPES.has(t))).toEqual([]);
  });

  it('ethereum-lists: every red flag type and extra field is mapped or ignored', () => {
    const tokenFields = new Set([
      'symbol',
      'name',
      'address',
      'decimals',
      'type',
      'ens_address',
      'website',
      'logo',
      'support',
      'social',
      'red_flags',
    ]);
    const extra: string[] = [];
    const flags: string[] = [];
    for (const chain of filesIn('tokens-ethereum-lists')) {
      for (const file of filesIn('tokens-ethereum-lists', chain)) {
        const token = readJson('tokens-ethereum-lists', chain, file) as Record<string, unknown>;
        extra.push(...Object.keys(token).filter((key) => !tokenFields.has(key) && !Object.hasOwn(ETHEREUM_LISTS_IGNORED_FIELDS, key)));
        for (const flag of (token.red_flags as { type?: string }[] | undefined) ?? []) flags.push(flag.type ?? 'missing');
      }
    }
    expect(unique(extra)).toEqual([]);
    expect(unique(flags).filter((type) => !Object.hasOwn(ETHEREUM_LISTS_RED_FLAGS, type))).toEqual([]);
  });
});
