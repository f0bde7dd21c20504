import type { Network } from '../shared/network.js';

/**
 * The vocabulary of address intelligence: who says what about an address, and how much we trust them.
 * Claims are the only facts; every number of a verdict is computed from them (see consensus.ts).
 */

export type SourceClass = 'sanctions_registry' | 'licensed_feed' | 'block_explorer' | 'community_feed' | 'curator';

export interface SourceDescriptor {
  readonly slug: string;
  readonly class: SourceClass;
  /** Our trust in the source as a whole, integer 0..100; it weights every claim of the source. */
  readonly trustWeight: number;
  readonly publicName: string;
  readonly url: string;
  /** Public alias (`provider_x`) under which a licensed feed appears in responses. */
  readonly alias?: string;
  /** A sanctions registry's jurisdiction: whose sanctions its list publishes (US: OFAC, UK: OFSI, EU: the FSF). */
  readonly jurisdiction?: SanctionList;
}

/**
 * Where a claim holds. A sanction or a risk annotation is about whoever holds the key, and one key
 * controls the same 0x address on every EVM network: 'evm'. A name (identity) holds where the source
 * observed it — names often belong to contracts or per-chain service wallets — and so do facts about a
 * ledger's state (contract code, token metadata, an issuer's freeze): that network. TRON addresses use
 * 'TRON' (there is one TRON network).
 */
export type ChainScope = 'evm' | Network;

/** The jurisdictions whose sanctions lists the service screens against (the spec's "US, UK, EU lists"). */
export const SANCTIONS_JURISDICTIONS = ['US', 'UK', 'EU'] as const;
export type SanctionList = (typeof SANCTIONS_JURISDICTIONS)[number];

export interface SanctionDetail {
  readonly list: SanctionList;
  readonly entity: string | null;
  readonly program: string | null;
  readonly listEntryId: string | null;
  /** Date the entry was created on the list (YYYY-MM-DD), when the publication says. */
  readonly listDate: string | null;
  /** The list's asset ticker for the address (ETH, USDT, TRX, ...). */
  readonly asset: string | null;
}

export const CLAIM_DATINGS = ['record', 'list', 'retrieved'] as const;
export type ClaimDating = (typeof CLAIM_DATINGS)[number];

interface ClaimBase {
  /** Normalized: EVM lowercased, base58 as published. */
  readonly address: string;
  readonly scope: ChainScope;
  /** A taxonomy slug (taxonomy.ts). */
  readonly category: string;
  /** What the source calls the address; for identities the name, never null. */
  readonly label: string | null;
  /** The source's own confidence in this claim, integer 0..100. */
  readonly confidence: number;
  readonly sourceUrl: string;
  /** ISO 8601 UTC timestamps; for snapshot lists both are the list's date. */
  readonly firstSeenAt: string;
  readonly lastSeenAt: string;
  /**
   * What those dates rest on: the record's own date, the list's date, or the day the files were retrieved
   * (the source gives no date). Absent on claims imported before it was kept.
   */
  readonly datedBy?: ClaimDating;
  readonly source: string;
}

/** A risk (or informational) annotation: the address is associated with a category. */
export interface RiskClaim extends ClaimBase {
  readonly kind: 'risk';
}

/** The address belongs to a named counterparty (an exchange, a token, a service). */
export interface IdentityClaim extends ClaimBase {
  readonly kind: 'identity';
  readonly label: string;
}

/** A sanctions registry lists the address. Category is always 'sanctions'. */
export interface SanctionClaim extends ClaimBase {
  readonly kind: 'sanction';
  readonly sanction: SanctionDetail;
}

export type Claim = RiskClaim | IdentityClaim | SanctionClaim;
export type ClaimKind = Claim['kind'];

/** What one token list says about a token contract on one network. */
export interface TokenInfo {
  readonly chain: Network;
  readonly symbol: string | null;
  readonly name: string | null;
  readonly decimals: number | null;
  readonly logoUrl: string | null;
  /** Token standard and lifecycle marks as the list gives them, lowercased: erc20, trc20, deprecated, spam. */
  readonly tags: readonly string[];
}

export interface TokenListing extends TokenInfo {
  readonly address: string;
  readonly source: string;
}

/** The token lists' merged view of one contract on one network. */
export interface TokenProfile extends TokenInfo {
  /** Slugs of the token lists that list it (at least one). */
  readonly listedBy: readonly string[];
}

export interface DatasetVersion {
  readonly source: string;
  /** The data's own date when it states one (YYYY-MM-DD), else the newest file date. */
  readonly version: string;
  readonly contentHash: string;
  readonly claimCount: number;
  readonly importedAt: string;
  /** The class of its source (the index fills it in): which versions are sanctions lists. */
  readonly sourceClass?: SourceClass;
  /** The source's public name (the index fills it in). */
  readonly name?: string;
  /** The public slug (`provider_x`) a licensed feed appears under (the index fills it in). */
  readonly alias?: string;
  /** A sanctions list's jurisdiction (the index fills it in, from the descriptor or else the list's own entries). */
  readonly jurisdiction?: SanctionList;
}

export interface AddressIntel {
  readonly claims: readonly Claim[];
  /** Descriptor of every source that has a claim in `claims`, by slug. */
  readonly sources: Readonly<Record<string, SourceDescriptor>>;
  readonly token: TokenProfile | null;
  /** The data versions of the sources behind `claims` (the index fills it in). */
  readonly datasets?: readonly DatasetVersion[];
  /** Id of the whole data state the lookup read: a digest of every source's content hash. */
  readonly snapshot?: string;
  /** What the chain says (eth_getCode) when a chain RPC is configured; undefined when not asked. */
  readonly onChain?: { readonly isContract: boolean };
}

/** The name under which a source appears in responses: licensed feeds by alias, all others by slug. */
export const publicSlug = (source: SourceDescriptor): string => source.alias ?? source.slug;
export const publicSourceName = (source: SourceDescriptor): string => source.alias ?? source.publicName;

/** Whether a claim of this scope holds on the network. */
export function scopeCovers(scope: ChainScope, network: Network): boolean {
  return scope === network || (scope === 'evm' && network !== 'TRON');
}
