import { present } from '../shared/present.js';
import { classifyLabelWords, type NativeMapping } from './label-words.js';

/**
 * Every tag the imported data sets use, mapped onto the taxonomy (taxonomy.ts) or deliberately ignored
 * with a reason. native-tags.test.ts reads the real data and fails on any tag in neither list, so a new
 * upstream tag is a decision, never a silent drop. Parsers skip (and count) claims whose tag is unknown.
 */

export type { NativeMapping } from './label-words.js';
export type TagVerdict = NativeMapping | { readonly ignored: string } | { readonly unmapped: string };

const risk = (category: string): NativeMapping => ({ category, kind: 'risk' });
const identity = (category: string): NativeMapping => ({ category, kind: 'identity' });

// ── OFAC ──────────────────────────────────────────────────────────────────────────────────────────
/** Every sanctions registry entry maps to one category. */
export const SANCTIONS_CATEGORY = 'sanctions';

/**
 * OFAC's "Digital Currency Address - <asset>" tickers. The EVM and TRON ones may carry addresses usable
 * on ETH/BSC/TRON (USDT appears in TRON, EVM and Omni format; the address format decides); the others
 * are other ledgers, skipped and counted.
 */
export const OFAC_ASSETS_ON_SCREENED_NETWORKS = new Set(['ETH', 'USDT', 'USDC', 'TRX', 'BSC', 'ARB', 'ETC', 'BNB']);
export const OFAC_ASSETS_ON_OTHER_LEDGERS = new Set(['XBT', 'LTC', 'XMR', 'BCH', 'ZEC', 'DASH', 'BTG', 'BSV', 'XVG', 'XRP', 'SOL']);

// ── GraphSense TagPacks ───────────────────────────────────────────────────────────────────────────
/** GraphSense concepts (pack/tag `category`, `abuse`, `concepts`) onto the taxonomy. */
export const GRAPHSENSE_CONCEPTS: Readonly<Record<string, NativeMapping>> = {
  sanction: risk('sanctions'),
  terrorism: risk('terrorist_financing'),
  terrorism_financing: risk('terrorist_financing'),
  child_sexual_abuse: risk('csam'),
  human_trafficking: risk('human_trafficking'),
  ransomware: risk('ransomware'),
  dark_web: risk('darknet_market'),
  hacking: risk('stolen_funds'),
  service_hack: risk('stolen_funds'),
  exploit: risk('stolen_funds'),
  perpetrator: risk('illicit_actor_org'),
  payment_card_fraud: risk('fraud_shop'),
  malware: risk('malware'),
  scam: risk('scam'),
  investment_fraud: risk('scam'),
  ponzi_scheme: risk('scam'),
  pyramid_scheme: risk('scam'),
  phishing: risk('phishing'),
  extortion: risk('extortion'),
  sextortion: risk('extortion'),
  drugs: risk('drugs_weapons'),
  weapons: risk('drugs_weapons'),
  money_laundering: risk('money_laundering'),
  extremism: risk('extremism'),
  // GraphSense's black_list concept holds stablecoin issuer blacklists (read from the token contract).
  black_list: risk('issuer_blocked'),
  mixing_service: identity('mixer'),
  coinjoin: identity('mixer'),
  gambling: identity('gambling'),
  atm: identity('atm'),
  defi_bridge: identity('bridge'),
  defi: identity('defi'),
  defi_dex: identity('defi'),
  defi_lending: identity('defi'),
  exchange: identity('exchange'),
  wallet_service: identity('hosted_wallet'),
  payment_processor: identity('payment_processor'),
  mining_service: identity('mining_pool'),
  miner: identity('mining_pool'),
  market: identity('marketplace'),
};

/** Concepts that say nothing about risk or kind; the tag's abuse or label words decide instead. */
export const IGNORED_GRAPHSENSE_CONCEPTS: Readonly<Record<string, string>> = {
  user: 'a personal wallet: no category of its own',
  service: 'a generic service: the abuse field or the label decides',
};

/**
 * Whole packs left out. `ofac`: an INTERPOL scrape (2024-02) of the OFAC list we import first-hand;
 * 90 of its 156 entries are on no 2025–2026 OFAC publication (mostly Tornado Cash contracts, delisted
 * 2025-03-21), so echoing it would flag delisted addresses.
 */
export const IGNORED_GRAPHSENSE_PACKS: Readonly<Record<string, string>> = {
  ofac: 'stale echo of the OFAC SDN list, which is imported from OFAC itself',
};

/**
 * GraphSense's confidence scale (graphsense-tagpack-tool confidence.csv). Packs written before the
 * field existed have none: they get `unknown`, the scale's own value for unstated reliability.
 */
export const GRAPHSENSE_CONFIDENCE: Readonly<Record<string, number>> = {
  override: 100,
  ownership: 100,
  ledger_immanent: 100,
  manual_transaction: 90,
  service_api: 70,
  forensic_investigation: 70,
  authority_data: 60,
  trusted_provider: 50,
  service_data: 50,
  forensic: 50,
  untrusted_transaction: 40,
  web_crawl: 20,
  heuristic: 10,
  unknown: 5,
};

/** Actors named by tags without a category (Etherscan's label cloud); anything else is a named entity. */
export const GRAPHSENSE_ACTOR_CATEGORIES: Readonly<Record<string, string>> = {
  huobi: 'exchange',
  bitfinex: 'exchange',
  kucoin: 'exchange',
  tradeio: 'exchange',
  kryptono: 'exchange',
  bgogo: 'exchange',
  coinbene: 'exchange',
  zbcom: 'exchange',
  crex24: 'exchange',
  ataix: 'exchange',
  bibox: 'exchange',
  indoex: 'exchange',
  kuna: 'exchange',
  livecoin: 'exchange',
  remitano: 'p2p_exchange',
  compound: 'defi',
  curve: 'defi',
  tether: 'named_entity',
  ethereumfoundation: 'named_entity',
  nexus: 'named_entity',
};

export interface GraphsenseTagFields {
  readonly pack: string;
  readonly category?: string | undefined;
  readonly abuse?: string | undefined;
  readonly concepts?: readonly string[] | undefined;
  readonly label?: string | undefined;
  readonly actor?: string | undefined;
}

function concept(name: string): TagVerdict {
  if (Object.hasOwn(GRAPHSENSE_CONCEPTS, name)) return present(GRAPHSENSE_CONCEPTS[name], 'Object.hasOwn checked the name just before');
  if (Object.hasOwn(IGNORED_GRAPHSENSE_CONCEPTS, name))
    return { ignored: present(IGNORED_GRAPHSENSE_CONCEPTS[name], 'the name was found among the ignored concepts just before') };
  return { unmapped: `graphsense concept '${name}'` };
}

const isMapping = (verdict: TagVerdict): verdict is NativeMapping => 'category' in verdict;

/**
 * One tag (with its pack's fields already inherited): abuse first (what the address did), then the
 * category or concepts (what it is), then the words of its label.
 */
export function classifyGraphsenseTag(tag: GraphsenseTagFields): TagVerdict {
  if (Object.hasOwn(IGNORED_GRAPHSENSE_PACKS, tag.pack))
    return { ignored: present(IGNORED_GRAPHSENSE_PACKS[tag.pack], 'the pack was found among the ignored packs just before') };
  const verdicts = [tag.abuse, tag.category, ...(tag.concepts ?? [])].filter((name): name is string => name !== undefined).map(concept);
  const unmapped = verdicts.find((verdict) => 'unmapped' in verdict);
  if (unmapped) return unmapped;
  const mapped = verdicts.find(isMapping);
  if (mapped) return mapped;
  const fromWords = tag.label === undefined ? null : classifyLabelWords(tag.label);
  if (fromWords) return fromWords;
  if (tag.label === undefined) return { ignored: 'neither a category nor a label' };
  if (tag.actor === undefined) return identity('named_entity');
  return Object.hasOwn(GRAPHSENSE_ACTOR_CATEGORIES, tag.actor)
    ? identity(present(GRAPHSENSE_ACTOR_CATEGORIES[tag.actor], 'the actor was found in the table just before'))
    : { unmapped: `graphsense actor '${tag.actor}'` };
}

// ── Forta labelled datasets (Etherscan labels) ────────────────────────────────────────────────────
/** Etherscan's list names, as Forta's `data_source` and `*_etherscan_label(s)` columns give them. */
export const ETHERSCAN_LISTS: Readonly<Record<string, string>> = {
  'phish-hack': 'phishing',
  exploit: 'stolen_funds',
  heist: 'stolen_funds',
};
export const FORTA_DATA_SOURCES: Readonly<Record<string, string>> = {
  'etherscan-phish-hack-list': 'phish-hack',
  'etherscan-exploit-list': 'exploit',
  'etherscan-heist-list': 'heist',
};

/** Etherscan's phish-hack list mixes phishers and hackers; the address's own tag tells them apart. */
export function classifyEtherscanLabel(list: string, tag: string): TagVerdict {
  if (!Object.hasOwn(ETHERSCAN_LISTS, list)) return { unmapped: `etherscan list '${list}'` };
  const category = present(ETHERSCAN_LISTS[list], 'Object.hasOwn checked the list just before');
  const fromWords = classifyLabelWords(tag);
  return risk(category === 'phishing' && fromWords?.category === 'stolen_funds' ? 'stolen_funds' : category);
}

// ── MyEtherWallet lists ───────────────────────────────────────────────────────────────────────────
/** MEW's darklist: a comment that mentions fake sites or private keys is phishing; hacks are theft. */
const MEW_PHISHING =
  /phish|private key|clone|copycat|pretending|impersonat|giveaway|fake .*(site|support|admin|airdrop|telegram|ico|crowdsale|sale|wallet)/i;

export function classifyMewDarklistComment(comment: string): NativeMapping {
  if (MEW_PHISHING.test(comment)) return risk('phishing');
  if (/hack|exploit/i.test(comment)) return risk('stolen_funds');
  return risk('scam'); // darklist membership itself: "known scam address"
}

/** MEW's lightlist names verified project addresses ("district0x Address"). */
export const MEW_LIGHTLIST = identity('named_entity');

// ── Token lists ───────────────────────────────────────────────────────────────────────────────────
export const TOKEN_LISTING = identity('token');

/** Trust Wallet's `status` of a token. */
export const TRUSTWALLET_STATUSES: Readonly<Record<string, NativeMapping | { readonly tagOnly: string }>> = {
  active: TOKEN_LISTING,
  abandoned: { tagOnly: 'a dead project, not a risk: kept as a token tag' },
  spam: risk('scam'),
};

/** Trust Wallet token `type`s: TRC10 tokens have numeric ids, not addresses, and are skipped. */
export const TRUSTWALLET_ADDRESSED_TYPES = new Set(['ERC20', 'BEP20', 'TRC20']);
export const TRUSTWALLET_UNADDRESSED_TYPES = new Set(['TRC10', 'coin']);

/** ethereum-lists/tokens `red_flags[].type`. */
export const ETHEREUM_LISTS_RED_FLAGS: Readonly<Record<string, NativeMapping>> = {
  suspicious: risk('scam'),
};

/** ethereum-lists/tokens fields that are not tags, or are kept as token tags only. */
export const ETHEREUM_LISTS_IGNORED_FIELDS: Readonly<Record<string, string>> = {
  deprecation: 'a migration notice: kept as the token tag `deprecated`',
  invalid_erc20_symbol: 'a metadata quality note about the contract',
  invalid_erc20_decimals: 'a metadata quality note about the contract',
  comment: 'free text from the token team',
};
