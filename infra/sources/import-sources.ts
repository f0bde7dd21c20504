import { present } from '../../domain/shared/present.js';
import { cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import type { CommandDeps } from '../../commands/command-deps.js';
import { comparePositions, type Position } from '../../domain/ports/event-store.port.js';
import { importDataset } from '../../commands/import-dataset.js';
import { fail, hasCode } from '../../domain/shared/errors.js';
import { loadSourcesFromDir, type LoadedSource, type LoadProgress } from './load-sources.js';
import { SOURCE_CATALOG, type CatalogEntry } from './source-catalog.js';
import { supersede } from './supersede.js';
import { downloadSources, type DownloadProgress, type Fetch } from './upstream-download.js';
import type { Mirror } from './upstream-mirror.js';

/**
 * The three ways data gets in, all ending in one append per source (commands/import-dataset.ts):
 * a directory laid out like ../shared/data (SVC_SOURCES_DIR), a download from upstream (`data sync`),
 * and one source from a file or folder (`data import <source> <path>`). A source whose content is
 * already current appends nothing; a broken file fails its source whole, naming file and line.
 */

export interface ImportOutcome {
  readonly source: string;
  readonly status: 'imported' | 'current' | 'failed';
  readonly version: string | null;
  readonly content_hash: string | null;
  readonly claims: number;
  readonly tokens: number;
  readonly error: string | null;
  /** Where the source's append landed; null when nothing was appended (current or failed). Not printed. */
  readonly position: Position | null;
}

/** The last position the outcomes appended at: what a reader must have folded to see all of them. */
export function lastPositionOf(outcomes: readonly ImportOutcome[]): Position | null {
  let last: Position | null = null;
  for (const { position } of outcomes) if (position && (!last || comparePositions(position, last) > 0)) last = position;
  return last;
}

export async function importLoadedSources(commands: CommandDeps, loaded: readonly LoadedSource[]): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (const source of loaded) {
    const result = await importDataset(commands, {
      source: source.source,
      version: source.version,
      contentHash: source.contentHash,
      claims: source.claims,
      tokens: source.tokens,
      descriptor: source.descriptor,
    });
    outcomes.push({
      source: source.source,
      status: result.imported ? 'imported' : 'current',
      version: source.version,
      content_hash: source.contentHash,
      claims: source.claims.length,
      tokens: source.tokens.length,
      error: null,
      position: result.imported ? result.position : null,
    });
  }
  return outcomes;
}

export type SyncProgress = ({ phase: 'download' } & DownloadProgress) | ({ phase: 'parse' } & LoadProgress);

const failed = (source: string, error: string): ImportOutcome => ({
  source,
  status: 'failed',
  version: null,
  content_hash: null,
  claims: 0,
  tokens: 0,
  error,
  position: null,
});

/**
 * Downloads every source (or those named) into `<dataDir>/upstream`, replaced whole on success so
 * operators always find the last complete download there, then imports them.
 */
export async function syncFromUpstream(
  commands: CommandDeps,
  options: {
    readonly dataDir: string;
    readonly fetch: Fetch;
    readonly mirror: Mirror;
    readonly only?: readonly string[];
    readonly onProgress?: (progress: SyncProgress) => void;
  },
): Promise<ImportOutcome[]> {
  const catalog = options.only
    ? SOURCE_CATALOG.filter((e) => present(options.only, 'checked non-null in the condition before').includes(e.descriptor.slug))
    : SOURCE_CATALOG;
  const staging = await mkdtemp(join(options.dataDir, 'upstream.incoming-'));
  try {
    const downloads = await downloadSources({
      catalog,
      targetDir: staging,
      fetch: options.fetch,
      resolve: options.mirror,
      onProgress: (p) => options.onProgress?.({ phase: 'download', ...p }),
    });
    const arrived = catalog.filter((entry) => downloads.some((d) => d.source === entry.descriptor.slug && d.error === null));
    const { loaded, failures } = await loadEach(staging, arrived, (p) => options.onProgress?.({ phase: 'parse', ...p }), true);
    const outcomes = [
      ...downloads.flatMap((d) => (d.error === null ? [] : [failed(d.source, d.error)])),
      ...failures,
      ...(await importLoadedSources(commands, loaded)),
    ];
    const target = join(options.dataDir, 'upstream');
    if (!options.only) {
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
    }
    const order = (source: string) => catalog.findIndex((e) => e.descriptor.slug === source);
    return outcomes.sort((a, b) => order(a.source) - order(b.source));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Loads each source on its own, so that one broken file fails its source and not the others, then
 * applies `supersededBy` across those that loaded.
 */
async function loadEach(
  dir: string,
  catalog: readonly CatalogEntry[],
  onProgress: ((progress: LoadProgress) => void) | undefined,
  fromUpstream: boolean,
) {
  const loaded: LoadedSource[] = [];
  const failures: ImportOutcome[] = [];
  for (const entry of catalog) {
    try {
      loaded.push(...(await loadSourcesFromDir(dir, onProgress, [entry], { fromUpstream })));
    } catch (error) {
      failures.push(failed(entry.descriptor.slug, error instanceof Error ? error.message : String(error)));
    }
  }
  return { loaded: supersede(loaded, catalog), failures };
}

/** Imports every source found in a directory laid out like ../shared/data. */
export async function importFromDirectory(
  commands: CommandDeps,
  dir: string,
  onProgress?: (progress: LoadProgress) => void,
): Promise<ImportOutcome[]> {
  const { loaded, failures } = await loadEach(dir, SOURCE_CATALOG, onProgress, false);
  return [...failures, ...(await importLoadedSources(commands, loaded))];
}

/** The path a single file is read under: its own name when the source reads it, else the source's upstream name. */
function fileNameFor(entry: CatalogEntry, path: string): string {
  const name = basename(path);
  if (entry.files.some((spec) => spec.match.test(name))) return name;
  const canonical =
    entry.upstream.files?.length === 1
      ? present(entry.upstream.files[0], 'the list has exactly one file (checked just before)').path
      : undefined;
  if (canonical !== undefined && entry.files.some((spec) => spec.match.test(canonical))) return canonical;
  throw fail(
    'bad_request',
    `${entry.descriptor.slug} reads no file named '${name}' (expected a name matching ${entry.files.map((s) => s.match).join(' or ')})`,
  );
}

/**
 * A parse error names the file as the loader saw it, inside the staging folder (`ofac-sdn-official/SDN.CSV`):
 * said again with the path the operator gave, so that they find the file they passed.
 */
function namingGivenPath(error: unknown, stagedAs: string, given: string): unknown {
  if (!hasCode(error, 'data_import_failed') || typeof error.details?.file !== 'string') return error;
  const file = error.details.file;
  const named = file === stagedAs ? given : file.startsWith(`${stagedAs}/`) ? join(given, file.slice(stagedAs.length + 1)) : null;
  return named === null ? error : fail('data_import_failed', error.message.replace(file, named), { ...error.details, file: named });
}

/** `data import <source> <path>`: one source from a file, or from a folder laid out like its folder in ../shared/data. */
export async function importOneSource(
  commands: CommandDeps,
  source: string,
  path: string,
  onProgress?: (progress: LoadProgress) => void,
): Promise<ImportOutcome[]> {
  const entry = SOURCE_CATALOG.find((e) => e.descriptor.slug === source);
  if (!entry) throw fail('bad_request', `unknown source '${source}'; one of ${SOURCE_CATALOG.map((e) => e.descriptor.slug).join(', ')}`);
  const info = await stat(path).catch(() => null);
  if (!info) throw fail('bad_request', `no file or folder at ${path}`);
  const staging = await mkdtemp(join(tmpdir(), 'svc-import-'));
  try {
    const folder = join(staging, entry.folder);
    const staged = info.isDirectory() ? folder : join(folder, fileNameFor(entry, path));
    await cp(path, staged, { recursive: true });
    const loaded = await loadSourcesFromDir(staging, onProgress, [entry]).catch((error: unknown) => {
      throw namingGivenPath(error, relative(staging, staged), path);
    });
    if (loaded.length === 0) throw fail('bad_request', `${path}: no file that ${source} reads`);
    return importLoadedSources(commands, loaded);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
