import type { ChainScope, Claim, TokenListing } from '../../domain/intel/intel.types.js';
import { isTronAddress } from '../../domain/shared/address.js';
import { fail, type ServiceError } from '../../domain/shared/errors.js';

/**
 * What a parser makes of one file: claims without their source's provenance (the loader adds the
 * source slug, the file's upstream URL and the dataset date), token listings, and counts of what was
 * left out. Parsers are pure functions of (file text, file name).
 */

type WithoutProvenance<T> = T extends Claim ? Omit<T, 'source' | 'sourceUrl' | 'firstSeenAt' | 'lastSeenAt' | 'datedBy'> : never;

export type ClaimDraft = WithoutProvenance<Claim> & {
  /** Where the source itself points for this record; null: the file's upstream URL. */
  readonly sourceUrl: string | null;
  /** The record's own date (YYYY-MM-DD); null: the dataset's date. */
  readonly seenAt: string | null;
};

export type TokenDraft = Omit<TokenListing, 'source'>;

export interface Rejection {
  readonly file: string;
  /** `line N` or `record N`. */
  readonly where: string;
  readonly reason: string;
}

export interface ParsedFile {
  readonly file: string;
  readonly records: number;
  readonly claims: readonly ClaimDraft[];
  readonly tokens: readonly TokenDraft[];
  /** Addresses of ledgers the service does not screen (BTC, XMR, SOL, ...): skipped, counted. */
  readonly otherLedgers: number;
  /** Records whose native tag is deliberately ignored or not mapped (native-tags.ts). */
  readonly untagged: number;
  /** Records with a malformed address, tolerated while they stay isolated (see finish()). */
  readonly rejected: readonly Rejection[];
  /** The data's own date when the file states one (YYYY-MM-DD). */
  readonly dataDate: string | null;
}

export type FileParser = (text: string, file: string) => ParsedFile;

/** A malformed input: the message names the file and the line or record. */
export function malformed(file: string, where: string, problem: string): ServiceError {
  return fail('data_import_failed', `${file}, ${where}: ${problem}`, { file, where });
}

/** 'YYYY-MM-DD' from the start of a date or timestamp, or null when it does not start with one. */
export function isoDay(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const day = value.trim().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(day)) ? day : null;
}

export const latestDay = (days: readonly (string | null)[]): string | null =>
  days.reduce<string | null>((latest, day) => (day !== null && (latest === null || day > latest) ? day : latest), null);

/** Upstream files carry occasional typos; a format change breaks many records at once. */
const MAX_REJECTED_SHARE = 0.01;

export interface LocatedAddress {
  readonly address: string;
  readonly family: 'evm' | 'tron';
}

export class ParsedFileBuilder {
  records = 0;
  otherLedgers = 0;
  untagged = 0;
  dataDate: string | null = null;
  readonly claims: ClaimDraft[] = [];
  readonly tokens: TokenDraft[] = [];
  private readonly rejected: Rejection[] = [];

  constructor(readonly file: string) {}

  /**
   * An address usable on ETH/BSC/TRON, normalized; null for other ledgers (counted) and for malformed
   * addresses (rejected): a 0x string that is not 20 bytes of hex, or a TRON-shaped string whose
   * checksum fails.
   */
  locate(raw: string, where: string): LocatedAddress | null {
    const candidate = raw.trim();
    if (/^0x[0-9a-fA-F]{40}$/.test(candidate)) return { address: candidate.toLowerCase(), family: 'evm' };
    if (isTronAddress(candidate)) return { address: candidate, family: 'tron' };
    if (/^0x/i.test(candidate) || /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(candidate)) {
      this.rejected.push({ file: this.file, where, reason: `invalid address '${candidate}'` });
    } else {
      this.otherLedgers += 1;
    }
    return null;
  }

  /** Scope of an address: TRON addresses hold on TRON, EVM ones on `evmScope` (all EVM networks by default). */
  static scopeOf(located: LocatedAddress, evmScope: ChainScope = 'evm'): ChainScope {
    return located.family === 'tron' ? 'TRON' : evmScope;
  }

  finish(): ParsedFile {
    const first = this.rejected[0];
    if (first && this.rejected.length > Math.max(1, this.records) * MAX_REJECTED_SHARE) {
      throw fail(
        'data_import_failed',
        `${first.file}, ${first.where}: ${first.reason} (${this.rejected.length} of ${this.records} records rejected)`,
        { file: first.file, where: first.where, rejected: this.rejected.length, records: this.records },
      );
    }
    return {
      file: this.file,
      records: this.records,
      claims: this.claims,
      tokens: this.tokens,
      otherLedgers: this.otherLedgers,
      untagged: this.untagged,
      rejected: this.rejected,
      dataDate: this.dataDate,
    };
  }
}
