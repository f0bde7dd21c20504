import { present } from '../domain/shared/present.js';
import { eventRegistry } from '../domain/events/registry.js';
import { CURATION_EVENT_TYPES, CURATOR_SOURCE, curationStreams, type CuratorEntry } from '../domain/intel/curation.events.js';
import { DATASET_EVENT_TYPES, datasetStreams } from '../domain/intel/dataset.events.js';
import type {
  AddressIntel,
  Claim,
  DatasetVersion,
  SanctionList,
  SourceDescriptor,
  TokenListing,
  TokenProfile,
} from '../domain/intel/intel.types.js';
import { scopeCovers } from '../domain/intel/intel.types.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import type { StoredEvent } from '../domain/shared/event-registry.js';
import { sha256Hex } from '../domain/shared/hash.js';
import { SCREEN_NETWORKS, type Network } from '../domain/shared/network.js';
import { ClaimColumns, StringPool } from './claim-columns.js';

/**
 * The address-intelligence index, folded from `dataset-*` and `curation-*` events. A completed import
 * of a source replaces that source's previous claims whole (with its own string pool, so the strings
 * of a replaced import are freed with it); an import whose events fail validation is dropped and the
 * previous one stays. Curated entries are claims of the `curator` source, live until retracted.
 * Lookups are one Map access plus the address's few claims.
 */

export interface IntelIndexProjection extends IntelIndex {
  readonly handles: readonly string[];
  /** Rebuilt at start from the dataset and curation streams only (no other stream changes it). */
  readonly history: { readonly streamPrefixes: readonly string[] };
  apply(event: StoredEvent): void;
  /**
   * The wanted addresses' claims and token listings of a source's held import, when that import's
   * content hash is `contentHash` (null otherwise): what an as-of index takes instead of re-reading it.
   */
  rowsOf(source: string, contentHash: string, addresses: ReadonlySet<string>): SourceRows | null;
  /** Every curated entry id ever folded, retracted ones included (their streams are `curation-{id}`). */
  curationEntries(): readonly string[];
}

export interface SourceRows {
  readonly claims: readonly Claim[];
  readonly tokens: readonly TokenListing[];
}

/** A reference to a claim: segment slot × ROW_SPAN + row. */
const ROW_SPAN = 2 ** 24;

interface Segment {
  readonly descriptor: SourceDescriptor;
  readonly version: DatasetVersion;
  readonly claims: ClaimColumns;
  /** Token listings by `${address}|${chain}`. */
  readonly tokens: Map<string, TokenListing>;
}

interface PendingImport extends Segment {
  broken: boolean;
  /** The jurisdiction its sanction entries name: for imports recorded before descriptors carried one. */
  listed?: SanctionList;
}

const tokenKey = (address: string, chain: Network): string => `${address}|${chain}`;

class InMemoryIntelIndex implements IntelIndexProjection {
  readonly handles = [...DATASET_EVENT_TYPES, ...CURATION_EVENT_TYPES];
  readonly history = { streamPrefixes: [datasetStreams.prefix, curationStreams.prefix] };
  private readonly curated = new Map<string, Claim>();
  private readonly curatedByAddress = new Map<string, string[]>();
  private curatedVersion: DatasetVersion | null = null;
  private snapshotId: string | null = null;
  private datasetList: readonly DatasetVersion[] | null = null;
  private readonly byAddress = new Map<string, number | number[]>();
  private readonly slots = new Map<string, number>();
  private readonly segments: (Segment | undefined)[] = [];
  private readonly pending = new Map<string, PendingImport>();
  private readonly everCurated = new Set<string>();

  /** `slotOrder`: sources given their slot up front, so an index folded out of order lists them as the log did. */
  constructor(
    readonly requiredSanctions: readonly SanctionList[],
    slotOrder: readonly string[] = [],
  ) {
    for (const source of slotOrder) {
      this.slots.set(source, this.segments.length);
      this.segments.push(undefined);
    }
  }

  rowsOf(source: string, contentHash: string, addresses: ReadonlySet<string>): SourceRows | null {
    const slot = this.slots.get(source);
    const segment = slot === undefined ? undefined : this.segments[slot];
    if (slot === undefined || !segment || segment.version.contentHash !== contentHash) return null;
    const claims: Claim[] = [];
    const tokens: TokenListing[] = [];
    for (const address of addresses) {
      const refs = this.byAddress.get(address);
      for (const ref of refs === undefined ? [] : typeof refs === 'number' ? [refs] : refs)
        if (Math.floor(ref / ROW_SPAN) === slot) claims.push(segment.claims.claimAt(ref % ROW_SPAN));
      for (const chain of SCREEN_NETWORKS) {
        const listing = segment.tokens.get(tokenKey(address, chain));
        if (listing) tokens.push(listing);
      }
    }
    return { claims, tokens };
  }

  curationEntries(): readonly string[] {
    return [...this.everCurated];
  }

  apply(event: StoredEvent): void {
    switch (event.type) {
      case 'DatasetImportStarted': {
        const data = eventRegistry.dataOf('DatasetImportStarted', event);
        const { source, version, contentHash, claimCount, importedAt, descriptor } = data;
        this.pending.set(source, {
          descriptor,
          version: {
            source,
            version,
            contentHash,
            claimCount,
            importedAt,
            sourceClass: descriptor.class,
            name: descriptor.publicName,
            ...(descriptor.alias ? { alias: descriptor.alias } : {}),
            ...(descriptor.jurisdiction ? { jurisdiction: descriptor.jurisdiction } : {}),
          },
          claims: new ClaimColumns(new StringPool(), source),
          tokens: new Map(),
          broken: false,
        });
        return;
      }
      case 'ClaimBatchImported':
        return this.whilePending(event.data, (pending) => {
          for (const claim of eventRegistry.dataOf('ClaimBatchImported', event).batch) {
            pending.claims.push(claim, normalizeAddress(claim.address));
            if (claim.kind === 'sanction') pending.listed ??= claim.sanction.list;
          }
        });
      case 'TokensImported':
        return this.whilePending(event.data, (pending) => {
          for (const token of eventRegistry.dataOf('TokensImported', event).tokens) {
            const address = normalizeAddress(token.address);
            pending.tokens.set(tokenKey(address, token.chain), { ...token, address });
          }
        });
      case 'DatasetImportCompleted': {
        const { source, contentHash } = eventRegistry.dataOf('DatasetImportCompleted', event);
        const pending = this.pending.get(source);
        this.pending.delete(source);
        if (pending && !pending.broken && pending.version.contentHash === contentHash) this.install(pending);
        return;
      }
      case 'CuratorEntryAdded':
        return this.curate(eventRegistry.dataOf('CuratorEntryAdded', event));
      case 'CuratorEntryRetracted': {
        const { entryId, retractedAt } = eventRegistry.dataOf('CuratorEntryRetracted', event);
        const claim = this.curated.get(entryId);
        if (!claim) return;
        this.curated.delete(entryId);
        const rest = (this.curatedByAddress.get(claim.address) ?? []).filter((id) => id !== entryId);
        if (rest.length > 0) this.curatedByAddress.set(claim.address, rest);
        else this.curatedByAddress.delete(claim.address);
        return this.curationChanged(retractedAt);
      }
    }
  }

  lookup(address: string, network: Network): AddressIntel {
    const key = normalizeAddress(address);
    const refs = this.byAddress.get(key);
    const curatedIds = this.curatedByAddress.get(key);
    // Most addresses an exposure search reaches are known to no source: nothing to gather for them.
    if (refs === undefined && curatedIds === undefined) {
      return { claims: [], sources: {}, token: this.tokenProfile(key, network), datasets: [], snapshot: this.snapshot() };
    }
    const claims: Claim[] = [];
    const sources: Record<string, SourceDescriptor> = {};
    for (const ref of refs === undefined ? [] : typeof refs === 'number' ? [refs] : refs) {
      const segment = present(this.segments[Math.floor(ref / ROW_SPAN)], 'a reference is indexed only while its segment is held');
      const row = ref % ROW_SPAN;
      if (!scopeCovers(segment.claims.scopeOf(row), network)) continue;
      claims.push(segment.claims.claimAt(row));
      sources[segment.descriptor.slug] = segment.descriptor;
    }
    for (const entryId of curatedIds ?? []) {
      const claim = present(this.curated.get(entryId), 'the entry id was found among the curated ones just before');
      if (!scopeCovers(claim.scope, network)) continue;
      claims.push(claim);
      sources[CURATOR_SOURCE.slug] = CURATOR_SOURCE;
    }
    const used = this.datasets().filter((version) => Object.hasOwn(sources, version.source));
    return { claims, sources, token: this.tokenProfile(key, network), datasets: used, snapshot: this.snapshot() };
  }

  datasets(): readonly DatasetVersion[] {
    // Asked on every screen; rebuilt only after an import or a curation (both reset it with the snapshot).
    this.datasetList ??= this.segments.flatMap((segment) => (segment ? [segment.version] : [])).concat(this.curatedVersion ?? []);
    return this.datasetList;
  }

  /** One id for everything the index holds: changes whenever any source's content does. */
  snapshot(): string {
    this.snapshotId ??= `sha256:${sha256Hex(
      this.datasets()
        .map((d) => `${d.source}\0${d.contentHash}`)
        .sort()
        .join('\n'),
    )}`;
    return this.snapshotId;
  }

  private curate(entry: CuratorEntry): void {
    this.everCurated.add(entry.entryId);
    if (this.curated.has(entry.entryId)) return;
    const scope = entry.network === 'TRON' ? 'TRON' : entry.kind === 'identity' ? entry.network : 'evm';
    const base = {
      address: normalizeAddress(entry.address),
      scope,
      category: entry.category,
      confidence: entry.confidence,
      sourceUrl: entry.evidenceUrl,
      firstSeenAt: entry.addedAt,
      lastSeenAt: entry.addedAt,
      datedBy: 'record',
      source: CURATOR_SOURCE.slug,
    } as const;
    const claim: Claim =
      entry.kind === 'identity'
        ? { ...base, kind: 'identity', label: entry.label ?? entry.category }
        : { ...base, kind: 'risk', label: entry.label };
    this.curated.set(entry.entryId, claim);
    this.curatedByAddress.set(claim.address, [...(this.curatedByAddress.get(claim.address) ?? []), entry.entryId]);
    this.curationChanged(entry.addedAt);
  }

  /** The curated entries as a data version: dated by the last change, hashed over the live entry ids. */
  private curationChanged(at: string): void {
    const ids = [...this.curated.keys()].sort();
    this.curatedVersion =
      ids.length === 0
        ? null
        : {
            source: CURATOR_SOURCE.slug,
            version: at.slice(0, 10),
            contentHash: `sha256:${sha256Hex(ids.join('\n'))}`,
            claimCount: ids.length,
            importedAt: at,
            sourceClass: 'curator',
            name: CURATOR_SOURCE.publicName,
          };
    this.snapshotId = null;
    this.datasetList = null;
  }

  /** Runs `update` on the source's import in progress; a failure marks that import broken. */
  private whilePending(data: unknown, update: (pending: PendingImport) => void): void {
    const source = (data as { source?: unknown } | null)?.source;
    const pending = typeof source === 'string' ? this.pending.get(source) : undefined;
    if (!pending || pending.broken) return;
    try {
      update(pending);
    } catch (error) {
      pending.broken = true;
      throw error;
    }
  }

  private install(next: PendingImport): void {
    const source = next.descriptor.slug;
    let slot = this.slots.get(source);
    if (slot === undefined) {
      slot = this.segments.length;
      this.slots.set(source, slot);
      this.segments.push(undefined);
    }
    const previous = this.segments[slot];
    if (previous) this.unlink(previous.claims, slot);
    next.claims.trim();
    const jurisdiction = next.version.jurisdiction ?? next.listed;
    const version = jurisdiction && next.version.sourceClass === 'sanctions_registry' ? { ...next.version, jurisdiction } : next.version;
    this.segments[slot] = { descriptor: next.descriptor, version, claims: next.claims, tokens: next.tokens };
    next.claims.addresses.forEach((address, row) => this.link(address, slot * ROW_SPAN + row));
    this.snapshotId = null;
    this.datasetList = null;
  }

  private link(address: string, ref: number): void {
    const refs = this.byAddress.get(address);
    if (refs === undefined) this.byAddress.set(address, ref);
    else if (typeof refs === 'number') this.byAddress.set(address, [refs, ref]);
    else refs.push(ref);
  }

  private unlink(claims: ClaimColumns, slot: number): void {
    const inSlot = (ref: number): boolean => Math.floor(ref / ROW_SPAN) === slot;
    for (const address of new Set(claims.addresses)) {
      const refs = this.byAddress.get(address);
      if (refs === undefined) continue;
      const kept = typeof refs === 'number' ? [refs].filter((r) => !inSlot(r)) : refs.filter((r) => !inSlot(r));
      if (kept.length === 0) this.byAddress.delete(address);
      else this.byAddress.set(address, kept.length === 1 ? present(kept[0], 'kept holds exactly one reference in this branch') : kept);
    }
  }

  /** The token lists' merged view: fields from the most trusted list that has them, tags united. */
  private tokenProfile(address: string, network: Network): TokenProfile | null {
    // Asked for every address an exposure search reaches (ten thousand a search): nothing allocated on a miss.
    const key = tokenKey(address, network);
    let found: { listing: TokenListing; trust: number }[] | null = null;
    for (const segment of this.segments) {
      const listing = segment?.tokens.get(key);
      if (listing && segment) (found ??= []).push({ listing, trust: segment.descriptor.trustWeight });
    }
    if (found === null) return null;
    const listings = found
      .sort((a, b) => b.trust - a.trust || (a.listing.source < b.listing.source ? -1 : 1))
      .map(({ listing }) => listing);
    if (listings.length === 0) return null;
    const first = <T>(pick: (listing: TokenListing) => T | null): T | null => listings.map(pick).find((value) => value !== null) ?? null;
    return {
      chain: network,
      symbol: first((l) => l.symbol),
      name: first((l) => l.name),
      decimals: first((l) => l.decimals),
      logoUrl: first((l) => l.logoUrl),
      tags: [...new Set(listings.flatMap((l) => l.tags))].sort(),
      listedBy: listings.map((l) => l.source),
    };
  }
}

export function createIntelIndex(
  options: { requiredSanctions?: readonly SanctionList[]; slotOrder?: readonly string[] } = {},
): IntelIndexProjection {
  return new InMemoryIntelIndex(options.requiredSanctions ?? [], options.slotOrder);
}
