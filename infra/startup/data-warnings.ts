import { dataDegradations } from '../../domain/intel/sanctions-data.js';
import type { Services } from '../bootstrap.js';
import type { ImportOutcome } from '../sources/import-sources.js';
import { SOURCE_CATALOG } from '../sources/source-catalog.js';

export const HOW_TO_LOAD_DATA =
  'load the data sources with SVC_SOURCES_DIR=<folder laid out like ../shared/data> at start, `npm run cli -- data sync` (downloads them from upstream), or `npm run cli -- data import <source> <path>` (one source from a file)';

/**
 * After the start's import (or its failure): one `warn` line per catalog source the service does not hold
 * (those that failed this time were named with their reason already), one line on how to load data, and
 * why the data makes the service degraded (no sanctions list: screening fails closed; a list past
 * SVC_SANCTIONS_MAX_AGE_DAYS). Silent when every source is held and fresh.
 */
export function warnAboutData(services: Services, outcomes: readonly ImportOutcome[], warn: (line: string) => void): void {
  const datasets = services.intel.datasets();
  const held = new Set(datasets.map((dataset) => dataset.source));
  const failed = new Set(outcomes.filter((outcome) => outcome.status === 'failed').map((outcome) => outcome.source));
  const absent = SOURCE_CATALOG.map((entry) => entry.descriptor.slug).filter((slug) => !held.has(slug));
  for (const slug of absent.filter((slug) => !failed.has(slug))) warn(`data source ${slug} not imported: no data for it was found`);
  if (absent.length > 0) warn(HOW_TO_LOAD_DATA);
  for (const reason of dataDegradations(
    datasets,
    services.commands.clock.now(),
    services.config.SVC_SANCTIONS_MAX_AGE_DAYS,
    services.config.SVC_REQUIRED_SANCTIONS,
  ))
    warn(reason);
}
