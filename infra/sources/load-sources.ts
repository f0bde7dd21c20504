import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Claim, ClaimDating, SourceDescriptor, TokenListing } from '../../domain/intel/intel.types.js';
import { latestDay, type ClaimDraft, type ParsedFile, type Rejection } from './parsed-file.js';
import { SOURCE_CATALOG, type CatalogEntry } from './source-catalog.js';
import { supersede } from './supersede.js';

/**
 * Reads every file of every catalogued source present under a directory laid out like
 * ../shared/data, and returns per source what an ImportDataset command needs. Nothing is cached: the
 * files are the truth, and their content hash makes re-importing unchanged data a no-op.
 */

export interface SourceLoadStats {
  readonly files: number;
  readonly records: number;
  /** Addresses of ledgers the service does not screen (BTC, XMR, ...) or not addressable (TRC10). */
  readonly otherLedgers: number;
  /** Records whose native tag is deliberately ignored or not (yet) mapped. */
  readonly untagged: number;
  /** Same address, scope, kind and category twice in the source: kept once. */
  readonly duplicates: number;
  /** Designations dropped because the superseding publication no longer lists the address. */
  readonly superseded: number;
  readonly rejected: readonly Rejection[];
  /** Files in the folder that the source does not read. */
  readonly ignoredFiles: readonly string[];
}

export interface LoadedSource {
  readonly source: string;
  /**
   * The data's own date when its files state one (YYYY-MM-DD); else, for files just downloaded, the
   * upstream revision they were taken at (a commit); else `retrieved-<newest file date>`.
   */
  readonly version: string;
  /** `sha256:` of the files' paths and bytes (and of the superseding source's hash, if any). */
  readonly contentHash: string;
  readonly claims: readonly Claim[];
  readonly tokens: readonly TokenListing[];
  readonly descriptor: SourceDescriptor;
  readonly stats: SourceLoadStats;
}

export interface LoadProgress {
  readonly source: string;
  /** The file just read (path under the directory), or null when the source's folder is absent. */
  readonly file: string | null;
  readonly filesDone: number;
  readonly filesTotal: number;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

const timestampOf = (day: string): string => `${day}T00:00:00Z`;

const claimKey = (claim: Claim): string => `${claim.address}|${claim.scope}|${claim.kind}|${claim.category}`;

/** Of two claims saying the same thing, the more confident, then the more detailed one. */
function better(a: Claim, b: Claim): Claim {
  const detail = (claim: Claim): number => (claim.kind === 'sanction' ? Object.values(claim.sanction).filter((v) => v !== null).length : 0);
  return b.confidence > a.confidence || (b.confidence === a.confidence && detail(b) > detail(a)) ? b : a;
}

/** One listing per (address, chain): the first file that lists a token names it. */
function firstListings(listed: readonly Omit<TokenListing, 'source'>[], source: string): TokenListing[] {
  const tokens = new Map<string, TokenListing>();
  for (const token of listed) {
    const key = `${token.address}|${token.chain}`;
    if (!tokens.has(key)) tokens.set(key, { ...token, source });
  }
  return [...tokens.values()];
}

async function loadSource(
  dir: string,
  entry: CatalogEntry,
  folderReaders: readonly CatalogEntry[],
  fromUpstream: boolean,
  onProgress?: (progress: LoadProgress) => void,
) {
  const folder = join(dir, entry.folder);
  const paths = await filesUnder(folder);
  const read = paths.flatMap((path) => {
    const spec = entry.files.find((candidate) => candidate.match.test(path));
    return spec ? [{ path, spec }] : [];
  });
  const hash = createHash('sha256');
  const parsed: { file: ParsedFile; url: string }[] = [];
  let newestFileDay: string | null = null;
  for (const [index, { path, spec }] of read.entries()) {
    const location = join(folder, path);
    const [bytes, info] = await Promise.all([readFile(location), stat(location)]);
    hash.update(`${path}\0`).update(bytes).update('\0');
    parsed.push({ file: spec.parse(bytes.toString(spec.encoding ?? 'utf8'), `${entry.folder}/${path}`), url: entry.upstreamUrl(path) });
    newestFileDay = latestDay([newestFileDay, info.mtime.toISOString().slice(0, 10)]);
    onProgress?.({ source: entry.descriptor.slug, file: `${entry.folder}/${path}`, filesDone: index + 1, filesTotal: read.length });
  }

  const dataDate = latestDay(parsed.map(({ file }) => file.dataDate));
  const retrieved = newestFileDay ?? '1970-01-01';
  const revision = fromUpstream ? entry.upstream.revision : undefined;
  const version = dataDate ?? revision ?? `retrieved-${retrieved}`;
  const claims = new Map<string, Claim>();
  let drafts = 0;
  for (const { file, url } of parsed) {
    for (const draft of file.claims) {
      drafts += 1;
      // An undated record of an undated list was last seen when the list was retrieved.
      const claim = withProvenance(
        draft,
        entry.descriptor.slug,
        url,
        dataDate ? { day: dataDate, by: 'list' } : { day: retrieved, by: 'retrieved' },
      );
      const key = claimKey(claim);
      const known = claims.get(key);
      claims.set(key, known ? better(known, claim) : claim);
    }
  }
  const sum = (pick: (file: ParsedFile) => number): number => parsed.reduce((total, { file }) => total + pick(file), 0);
  return {
    source: entry.descriptor.slug,
    version,
    contentHash: `sha256:${hash.digest('hex')}`,
    claims: [...claims.values()],
    tokens: firstListings(
      parsed.flatMap(({ file }) => file.tokens),
      entry.descriptor.slug,
    ),
    descriptor: entry.descriptor,
    stats: {
      files: read.length,
      records: sum((f) => f.records),
      otherLedgers: sum((f) => f.otherLedgers),
      untagged: sum((f) => f.untagged),
      duplicates: drafts - claims.size,
      superseded: 0,
      rejected: parsed.flatMap(({ file }) => file.rejected),
      ignoredFiles: paths
        .filter((path) => !folderReaders.some((reader) => reader.files.some((spec) => spec.match.test(path))))
        .map((path) => `${entry.folder}/${path}`),
    },
  } satisfies LoadedSource;
}

/** `listDay`: the list's own date, else the day its files were retrieved (the source gives none). */
function withProvenance(
  draft: ClaimDraft,
  source: string,
  fileUrl: string,
  listDay: { day: string; by: Exclude<ClaimDating, 'record'> },
): Claim {
  const seen = timestampOf(draft.seenAt ?? listDay.day);
  // Built field by field: a rest-spread copy of every draft was the loader's hot spot.
  const base = {
    address: draft.address,
    scope: draft.scope,
    category: draft.category,
    confidence: draft.confidence,
    sourceUrl: draft.sourceUrl ?? fileUrl,
    firstSeenAt: seen,
    lastSeenAt: seen,
    datedBy: draft.seenAt ? ('record' as const) : listDay.by,
    source,
  };
  if (draft.kind === 'sanction') return { ...base, kind: 'sanction', label: draft.label, sanction: draft.sanction };
  if (draft.kind === 'identity') return { ...base, kind: 'identity', label: draft.label };
  return { ...base, kind: 'risk', label: draft.label };
}

export async function loadSourcesFromDir(
  dir: string,
  onProgress?: (progress: LoadProgress) => void,
  catalog: readonly CatalogEntry[] = SOURCE_CATALOG,
  options: { readonly fromUpstream?: boolean } = {},
): Promise<LoadedSource[]> {
  const loaded: LoadedSource[] = [];
  for (const entry of catalog) {
    if (!(await exists(join(dir, entry.folder)))) {
      onProgress?.({ source: entry.descriptor.slug, file: null, filesDone: 0, filesTotal: 0 });
      continue;
    }
    const folderReaders = catalog.filter((other) => other.folder === entry.folder);
    const source = await loadSource(dir, entry, folderReaders, options.fromUpstream ?? false, onProgress);
    if (source.stats.files > 0) loaded.push(source);
  }
  return supersede(loaded, catalog);
}
