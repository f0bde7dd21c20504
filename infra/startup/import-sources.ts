import { importDataset } from '../../commands/import-dataset.js';
import type { Services } from '../bootstrap.js';
import { loadSourcesFromDir } from '../sources/load-sources.js';

/**
 * Imports every configured source at start: from SVC_SOURCES_DIR when set, otherwise nothing is
 * imported at start and `npm run cli -- data sync` downloads the sources from their upstream URLs.
 * A source whose content is already current appends nothing.
 */
export async function importConfiguredSources(services: Services, log: (line: string) => void): Promise<void> {
  const dir = services.config.SVC_SOURCES_DIR;
  if (!dir) {
    log('SVC_SOURCES_DIR is not set: no data source imported at start (run `npm run cli -- data sync` to download them)');
    return;
  }
  const loaded = await loadSourcesFromDir(dir);
  let imported = 0;
  for (const source of loaded) {
    const result = await importDataset(services.commands, {
      source: source.source,
      version: source.version,
      contentHash: source.contentHash,
      claims: source.claims,
      tokens: source.tokens,
      descriptor: source.descriptor,
    });
    if (result.imported) imported++;
  }
  await services.projections.whenCaughtUp();
  log(`data sources: ${loaded.length} found in ${dir}, ${imported} imported, ${loaded.length - imported} already current`);
}
