// Typed-array walks whose indexes are bounded by construction (CSR offsets, columns grown before a write): a
// check per access would cost the hot loop, so `!` is allowed here and nowhere else outside tests.
/* eslint-disable @typescript-eslint/no-non-null-assertion */
import type { ChainScope, Claim, ClaimDating, ClaimKind, SanctionDetail } from '../domain/intel/intel.types.js';

/**
 * One source's claims stored column-wise: small integers and ids of interned strings in typed arrays,
 * about 30 bytes a claim instead of a ~150-byte object, so a million claims stay lean. Claims are
 * turned back into objects only when an address is looked up.
 */

/** Interns strings: each distinct value is kept once and named by an integer; 0 stands for null. */
export class StringPool {
  private readonly ids = new Map<string, number>();
  private readonly values: (string | null)[] = [null];

  intern(value: string | null): number {
    if (value === null) return 0;
    const known = this.ids.get(value);
    if (known !== undefined) return known;
    this.values.push(value);
    this.ids.set(value, this.values.length - 1);
    return this.values.length - 1;
  }

  /** The pooled instance of a string, so that many holders of equal strings share one. */
  canonical(value: string): string {
    return this.values[this.intern(value)]!;
  }

  get(id: number): string | null {
    return this.values[id] ?? null;
  }
}

const SCOPES: readonly ChainScope[] = ['evm', 'ETH', 'BSC', 'TRON'];
const KINDS: readonly ClaimKind[] = ['risk', 'identity', 'sanction'];
/** 0: not known (a claim imported before it was kept). */
const DATINGS: readonly (ClaimDating | undefined)[] = [undefined, 'record', 'list', 'retrieved'];
const INITIAL_CAPACITY = 1024;

function grown<T extends Uint8Array | Uint32Array>(array: T, capacity: number): T {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array.subarray(0, Math.min(array.length, capacity)));
  return next;
}

export class ClaimColumns {
  length = 0;
  /** Normalized address per row. */
  readonly addresses: string[] = [];
  private scope = new Uint8Array(INITIAL_CAPACITY);
  private kind = new Uint8Array(INITIAL_CAPACITY);
  private confidence = new Uint8Array(INITIAL_CAPACITY);
  private category = new Uint32Array(INITIAL_CAPACITY);
  private label = new Uint32Array(INITIAL_CAPACITY);
  private url = new Uint32Array(INITIAL_CAPACITY);
  private firstSeen = new Uint32Array(INITIAL_CAPACITY);
  private lastSeen = new Uint32Array(INITIAL_CAPACITY);
  private dated = new Uint8Array(INITIAL_CAPACITY);
  private readonly sanctions = new Map<number, SanctionDetail>();

  constructor(
    private readonly pool: StringPool,
    readonly source: string,
  ) {}

  push(claim: Claim, address: string): number {
    const row = this.length;
    if (row === this.scope.length) this.grow(row * 2);
    this.addresses.push(address);
    this.scope[row] = SCOPES.indexOf(claim.scope);
    this.kind[row] = KINDS.indexOf(claim.kind);
    this.confidence[row] = claim.confidence;
    this.category[row] = this.pool.intern(claim.category);
    this.label[row] = this.pool.intern(claim.label);
    this.url[row] = this.pool.intern(claim.sourceUrl);
    this.firstSeen[row] = this.pool.intern(claim.firstSeenAt);
    this.lastSeen[row] = this.pool.intern(claim.lastSeenAt);
    this.dated[row] = DATINGS.indexOf(claim.datedBy);
    if (claim.kind === 'sanction') this.sanctions.set(row, claim.sanction);
    this.length += 1;
    return row;
  }

  /** Drops the spare capacity once the import is complete. */
  trim(): void {
    if (this.scope.length !== this.length) this.grow(this.length);
  }

  scopeOf(row: number): ChainScope {
    return SCOPES[this.scope[row]!]!;
  }

  claimAt(row: number): Claim {
    const common = {
      address: this.addresses[row]!,
      scope: this.scopeOf(row),
      category: this.pool.get(this.category[row]!)!,
      confidence: this.confidence[row]!,
      sourceUrl: this.pool.get(this.url[row]!)!,
      firstSeenAt: this.pool.get(this.firstSeen[row]!)!,
      lastSeenAt: this.pool.get(this.lastSeen[row]!)!,
      ...(DATINGS[this.dated[row]!] ? { datedBy: DATINGS[this.dated[row]!] } : {}),
      source: this.source,
    };
    const label = this.pool.get(this.label[row]!);
    const kind = KINDS[this.kind[row]!]!;
    if (kind === 'identity') return { ...common, kind, label: label ?? common.category };
    if (kind === 'sanction') return { ...common, kind, label, sanction: this.sanctions.get(row)! };
    return { ...common, kind, label };
  }

  private grow(capacity: number): void {
    const size = Math.max(capacity, 1);
    this.scope = grown(this.scope, size);
    this.kind = grown(this.kind, size);
    this.confidence = grown(this.confidence, size);
    this.category = grown(this.category, size);
    this.label = grown(this.label, size);
    this.url = grown(this.url, size);
    this.firstSeen = grown(this.firstSeen, size);
    this.lastSeen = grown(this.lastSeen, size);
    this.dated = grown(this.dated, size);
  }
}
