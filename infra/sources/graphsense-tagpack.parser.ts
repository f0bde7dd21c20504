import { present } from '../../domain/shared/present.js';
import type { Network } from '../../domain/shared/network.js';
import { classifyGraphsenseTag, GRAPHSENSE_CONFIDENCE } from '../../domain/intel/native-tags.js';
import { parseDocument } from 'yaml';
import { isRecord, parseJsonFile, stringField } from './json-file.js';
import { isoDay, latestDay, malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';

/**
 * A GraphSense TagPack, in YAML as upstream publishes it or in the JSON conversion of ../shared/data
 * (one file per pack): header fields are inherited by
 * every tag unless the tag sets its own. A tag's confidence is GraphSense's own scale; the category
 * comes from its abuse, category, concepts or label words (native-tags.ts). Names hold on the network
 * of the tag's currency, abuse on every EVM network (intel.types.ts, ChainScope).
 */

const INHERITED = ['label', 'category', 'abuse', 'actor', 'confidence', 'currency', 'source', 'lastmod'] as const;
type Inherited = Partial<Record<(typeof INHERITED)[number], string>>;

/** Facts about a ledger's state (an issuer's freeze) hold on the ledger they were read from only. */
const LEDGER_STATE_CATEGORIES = new Set(['issuer_blocked']);
/** Tag currencies of 0x addresses; USDT and USDC tags in these packs are the Ethereum tokens. */
const CURRENCY_NETWORK: Readonly<Record<string, Network>> = { ETH: 'ETH', USDT: 'ETH', USDC: 'ETH', BSC: 'BSC', BEP20: 'BSC' };
const EXPLORER_TX: Readonly<Record<Network, string>> = {
  ETH: 'https://etherscan.io/tx/',
  BSC: 'https://bscscan.com/tx/',
  TRON: 'https://tronscan.org/#/transaction/',
};

/** A tag's `context` (a JSON string) may name the transaction that proves it, e.g. an issuer's freeze. */
function evidenceUrl(context: unknown, network: Network | undefined): string | null {
  if (typeof context !== 'string' || network === undefined) return null;
  try {
    const transaction: unknown = (JSON.parse(context) as Record<string, unknown>).transaction;
    return typeof transaction === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(transaction) ? `${EXPLORER_TX[network]}${transaction}` : null;
  } catch {
    return null;
  }
}

const conceptsOf = (record: Record<string, unknown>): string[] | undefined =>
  Array.isArray(record.concepts) ? record.concepts.filter((c): c is string => typeof c === 'string') : undefined;

const urlOf = (value: string | undefined): string | null => (value && /^https?:\/\//.test(value) ? value : null);

/** YAML 1.2 (a superset of JSON); an error names the line of the first problem. */
function parseYamlFile(text: string, file: string): unknown {
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const [error] = document.errors;
  if (error) {
    const line = text.slice(0, error.pos[0]).split('\n').length;
    throw malformed(file, `line ${line}`, `invalid YAML: ${error.message.split('\n')[0]}`);
  }
  return document.toJS({ maxAliasCount: 100 });
}

export function parseGraphsenseTagpack(text: string, file: string): ParsedFile {
  const pack = /\.ya?ml$/i.test(file) ? parseYamlFile(text, file) : parseJsonFile(text, file);
  if (!isRecord(pack) || !Array.isArray(pack.tags)) throw malformed(file, 'record 1', 'expected a TagPack with a tags array');
  const packName = (file.split('/').at(-1) ?? file).replace(/\.(json|ya?ml)$/i, '');
  const header: Inherited = Object.fromEntries(INHERITED.flatMap((key) => (stringField(pack, key) ? [[key, stringField(pack, key)]] : [])));
  const out = new ParsedFileBuilder(file);
  const days: (string | null)[] = [isoDay(header.lastmod)];

  pack.tags.forEach((tag: unknown, i) => {
    const where = `record ${i + 1}`;
    if (!isRecord(tag) || typeof tag.address !== 'string') throw malformed(file, where, 'expected a tag with an address');
    out.records += 1;
    const located = out.locate(tag.address, where);
    if (!located) return;
    const field = (key: (typeof INHERITED)[number]): string | undefined => stringField(tag, key) ?? header[key];
    const label = field('label');
    const actor = field('actor');
    const verdict = classifyGraphsenseTag({
      pack: packName,
      category: field('category'),
      abuse: field('abuse'),
      concepts: conceptsOf(tag) ?? conceptsOf(pack),
      label,
      actor,
    });
    if (!('category' in verdict)) {
      out.untagged += 1;
      return;
    }
    const confidenceName = field('confidence') ?? 'unknown';
    const seenAt = isoDay(field('lastmod'));
    days.push(seenAt);
    const name = label ?? actor;
    const identity = verdict.kind === 'identity' && name !== undefined;
    const network = located.family === 'tron' ? 'TRON' : CURRENCY_NETWORK[field('currency') ?? ''];
    const perNetwork = identity || LEDGER_STATE_CATEGORIES.has(verdict.category);
    const common = {
      address: located.address,
      scope: ParsedFileBuilder.scopeOf(located, perNetwork ? (network ?? 'evm') : 'evm'),
      category: verdict.category,
      confidence: GRAPHSENSE_CONFIDENCE[confidenceName] ?? present(GRAPHSENSE_CONFIDENCE.unknown, 'the table defines unknown'),
      sourceUrl: evidenceUrl(tag.context, network) ?? urlOf(field('source')),
      seenAt,
    };
    out.claims.push(identity ? { ...common, kind: 'identity', label: name } : { ...common, kind: 'risk', label: label ?? null });
  });
  out.dataDate = latestDay(days);
  return out.finish();
}
