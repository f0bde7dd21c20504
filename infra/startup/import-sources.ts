import { stat } from 'node:fs/promises';
import { fail } from '../../domain/shared/errors.js';
import type { Services } from '../bootstrap.js';
import { importFromDirectory, lastPositionOf, syncFromUpstream, type ImportOutcome } from '../sources/import-sources.js';
import { httpFetch, parseMirror } from '../sources/upstream-mirror.js';
import { warnAboutData } from './data-warnings.js';

/**
 * The data sources at start. With SVC_SOURCES_DIR: imported from that directory before the service
 * answers. Without it: synced from upstream in the background (SVC_SYNC_ON_START=1, the default), so
 * that a slow or unreachable upstream never keeps the API from starting, and again every
 * SVC_SYNC_INTERVAL_HOURS; what was imported before stays current, and each failure is logged with its
 * source and reason. The start waits for the read models to fold the import's own appends, not the log's
 * head: processors resuming a killed process's work append meanwhile, and the start must not wait on them.
 * Once the data is in (or could not be), `warn` names each source not held, how to load data, and each
 * sanctions list past its age (data-warnings.ts). A SVC_SOURCES_DIR that is not a directory stops the
 * start: a typo must not start an empty service.
 */
export async function importConfiguredSources(
  services: Services,
  log: (line: string) => void,
  warn: (line: string) => void = log,
): Promise<{ readonly background: Promise<ImportOutcome[]> | null }> {
  const { SVC_SOURCES_DIR: dir, SVC_SYNC_ON_START: syncOnStart } = services.config;
  if (dir) {
    if (!(await stat(dir).catch(() => null))?.isDirectory()) {
      throw fail(
        'config_invalid',
        `SVC_SOURCES_DIR=${dir} is not a directory: point it at a folder laid out like ../shared/data, or unset it to sync from upstream`,
      );
    }
    const outcomes = await importFromDirectory(services.commands, dir);
    await services.projections.whenProcessed(lastPositionOf(outcomes));
    report(outcomes, `in ${dir}`, log, warn);
    warnAboutData(services, outcomes, warn);
    return { background: null };
  }
  if (syncOnStart === '0') {
    log('data sources: SVC_SOURCES_DIR is unset and SVC_SYNC_ON_START=0: nothing imported at start (run `npm run cli -- data sync`)');
    warnAboutData(services, [], warn);
    return { background: null };
  }
  log('data sources: SVC_SOURCES_DIR is unset: syncing from upstream in the background');
  let running: Promise<ImportOutcome[]> | null = null;
  const sync = (): Promise<ImportOutcome[]> =>
    (running ??= syncFromUpstream(services.commands, {
      dataDir: services.config.DATA_DIR,
      fetch: httpFetch(),
      mirror: parseMirror(services.config.SVC_UPSTREAM_MIRROR),
    })
      .then(
        async (outcomes) => {
          await services.projections.whenProcessed(lastPositionOf(outcomes));
          report(outcomes, 'from upstream', log, warn);
          warnAboutData(services, outcomes, warn);
          return outcomes;
        },
        (error: unknown) => {
          warn(
            `data sources: sync from upstream failed: ${error instanceof Error ? error.message : String(error)}; the service goes on with the data it has`,
          );
          warnAboutData(services, [], warn);
          return [];
        },
      )
      .finally(() => {
        running = null;
      }));
  // Upstream lists change daily; a restart is not needed to follow them (unref: never keeps the process alive).
  const hours = services.config.SVC_SYNC_INTERVAL_HOURS;
  if (hours > 0) setInterval(() => void sync(), hours * 3_600_000).unref();
  return { background: sync() };
}

function report(outcomes: readonly ImportOutcome[], where: string, log: (line: string) => void, warn: (line: string) => void): void {
  const count = (status: ImportOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  log(`data sources ${where}: ${count('imported')} imported, ${count('current')} already current, ${count('failed')} failed`);
  for (const failure of outcomes.filter((o) => o.status === 'failed')) warn(`data source ${failure.source} not imported: ${failure.error}`);
}
