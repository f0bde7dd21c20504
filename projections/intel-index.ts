import { DATASET_EVENT_TYPES, datasetEventSchemas } from '../domain/intel/dataset.events.js';
import type {
  AddressIntel,
  Claim,
  DatasetVersion,
  SourceDescriptor,
  TokenListing,
  TokenProfile,
} from '../domain/intel/intel.types.js';
import { scopeCovers } from '../domain/intel/intel.types.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import type { Network } from '../domain/shared/network.js';
import { ClaimColumns, StringPool } from './claim-columns.js';

/**
 * The address-intelligence index, folded from `dataset-*` events. A completed import of a source
 * replaces that source's previous claims whole; an import whose events fail validation is dropped and
 * the previous one stays. Lookups are one Map access plus the address's few claims.
 */

export interface IntelIndexProjection extends IntelIndex {
  readonly handles: readonly string[];
  apply(event: { readonly type: string; readonly data: unknown }): void;
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
}

const tokenKey = (address: string, chain: Network): string => `${address}|${chain}`;

class InMemoryIntelIndex implements IntelIndexProjection {
  readonly handles = DATASET_EVENT_TYPES;
  private readonly pool = new StringPool();
  private readonly byAddress = new Map<string, number | number[]>();
  private readonly slots = new Map<string, number>();
  private readonly segments: (Segment | undefined)[] = [];
  private readonly pending = new Map<string, PendingImport>();

  apply(event: { readonly type: string; readonly data: unknown }): void {
    switch (event.type) {
      case 'DatasetImportStarted': {
        const data = datasetEventSchemas.DatasetImportStarted.parse(event.data);
        const { source, version, contentHash, claimCount, importedAt, descriptor } = data;
        this.pending.set(source, {
          descriptor,
          version: { source, version, contentHash, claimCount, importedAt },
          claims: new ClaimColumns(this.pool, this.pool.canonical(source)),
          tokens: new Map(),
          broken: false,
        });
        return;
      }
      case 'ClaimBatchImported':
        return this.whilePending(event.data, (pending) => {
          for (const claim of datasetEventSchemas.ClaimBatchImported.parse(event.data).batch) {
            pending.claims.push(claim, normalizeAddress(claim.address));
          }
        });
      case 'TokensImported':
        return this.whilePending(event.data, (pending) => {
          for (const token of datasetEventSchemas.TokensImported.parse(event.data).tokens) {
            const address = normalizeAddress(token.address);
            pending.tokens.set(tokenKey(address, token.chain), { ...token, address });
          }
        });
      case 'DatasetImportCompleted': {
        const { source, contentHash } = datasetEventSchemas.DatasetImportCompleted.parse(event.data);
        const pending = this.pending.get(source);
        this.pending.delete(source);
        if (pending && !pending.broken && pending.version.contentHash === contentHash) this.install(pending);
        return;
      }
    }
  }

  lookup(address: string, network: Network): AddressIntel {
    const key = normalizeAddress(address);
    const refs = this.byAddress.get(key);
    const claims: Claim[] = [];
    const sources: Record<string, SourceDescriptor> = {};
    for (const ref of refs === undefined ? [] : typeof refs === 'number' ? [refs] : refs) {
      const segment = this.segments[Math.floor(ref / ROW_SPAN)]!;
      const row = ref % ROW_SPAN;
      if (!scopeCovers(segment.claims.scopeOf(row), network)) continue;
      claims.push(segment.claims.claimAt(row));
      sources[segment.descriptor.slug] = segment.descriptor;
    }
    return { claims, sources, token: this.tokenProfile(key, network) };
  }

  datasets(): readonly DatasetVersion[] {
    return this.segments.flatMap((segment) => (segment ? [segment.version] : []));
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
    this.segments[slot] = { descriptor: next.descriptor, version: next.version, claims: next.claims, tokens: next.tokens };
    next.claims.addresses.forEach((address, row) => this.link(address, slot * ROW_SPAN + row));
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
      else this.byAddress.set(address, kept.length === 1 ? kept[0]! : kept);
    }
  }

  /** The token lists' merged view: fields from the most trusted list that has them, tags united. */
  private tokenProfile(address: string, network: Network): TokenProfile | null {
    const listings = this.segments
      .flatMap((segment) => {
        const listing = segment?.tokens.get(tokenKey(address, network));
        return listing && segment ? [{ listing, trust: segment.descriptor.trustWeight }] : [];
      })
      .sort((a, b) => b.trust - a.trust || (a.listing.source < b.listing.source ? -1 : 1))
      .map(({ listing }) => listing);
    if (listings.length === 0) return null;
    const first = <T>(pick: (listing: TokenListing) => T | null): T | null =>
      listings.map(pick).find((value) => value !== null) ?? null;
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

export function createIntelIndex(): IntelIndexProjection {
  return new InMemoryIntelIndex();
}
