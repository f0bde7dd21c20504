import { datasetDecider, type ImportDataset } from '../domain/intel/dataset.decider.js';
import { datasetStream } from '../domain/intel/dataset.events.js';
import type { Position } from '../domain/ports/event-store.port.js';
import type { CommandDeps } from './command-deps.js';

/**
 * Records one import of a source as events, in ONE append: nothing of a file is ever half-imported, and
 * importing the content already current appends nothing.
 */
export async function importDataset(
  deps: CommandDeps,
  input: Omit<ImportDataset, 'type' | 'importedAt'>,
): Promise<{ imported: boolean; position: Position | null }> {
  const outcome = await deps.executor.execute(
    datasetStream(input.source),
    datasetDecider,
    { type: 'ImportDataset', ...input, importedAt: deps.clock.now().toISOString() },
    { commandId: `import:${input.source}:${input.contentHash}` },
  );
  return { imported: outcome.events.length > 0, position: outcome.position };
}
