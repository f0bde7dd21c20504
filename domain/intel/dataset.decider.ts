import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { CLAIM_BATCH_SIZE, datasetEventSchemas, type DatasetEvent } from './dataset.events.js';
import type { Claim, DatasetVersion, SourceDescriptor, TokenListing } from './intel.types.js';

/**
 * Imports of one source's data set. Importing the content already current is a no-op, so a daily
 * sync (or a restart) that finds nothing new appends nothing.
 */

export interface ImportDataset {
  readonly type: 'ImportDataset';
  readonly source: string;
  readonly version: string;
  readonly contentHash: string;
  readonly claims: readonly Claim[];
  readonly tokens: readonly TokenListing[];
  readonly importedAt: string;
  readonly descriptor: SourceDescriptor;
}

export type DatasetCommand = ImportDataset;

export interface DatasetState {
  /** The last completed import. */
  readonly current: DatasetVersion | null;
  /** An import whose Started event has been seen but not yet its Completed one. */
  readonly importing: DatasetVersion | null;
}

export const initialDatasetState = (): DatasetState => ({ current: null, importing: null });

function refuseInconsistent(command: ImportDataset): void {
  const problem =
    command.descriptor.slug !== command.source
      ? `descriptor slug '${command.descriptor.slug}' is not the source`
      : command.claims.find((claim) => claim.source !== command.source)
        ? 'a claim names another source'
        : command.tokens.find((token) => token.source !== command.source)
          ? 'a token listing names another source'
          : null;
  if (problem) throw fail('data_import_failed', `import of ${command.source} refused: ${problem}`, { source: command.source });
}

export function decideDataset(command: DatasetCommand, state: DatasetState): DatasetEvent[] {
  refuseInconsistent(command);
  if (state.current?.contentHash === command.contentHash) return [];
  const { source, version, contentHash, importedAt, descriptor } = command;
  const events: DatasetEvent[] = [
    {
      type: 'DatasetImportStarted',
      data: { source, version, contentHash, claimCount: command.claims.length, importedAt, descriptor },
    },
  ];
  for (let start = 0; start < command.claims.length; start += CLAIM_BATCH_SIZE) {
    events.push({ type: 'ClaimBatchImported', data: { source, batch: command.claims.slice(start, start + CLAIM_BATCH_SIZE) } });
  }
  if (command.tokens.length > 0) events.push({ type: 'TokensImported', data: { source, tokens: command.tokens } });
  events.push({ type: 'DatasetImportCompleted', data: { source, contentHash } });
  return events;
}

export function evolveDataset(state: DatasetState, event: DatasetEvent): DatasetState {
  switch (event.type) {
    case 'DatasetImportStarted': {
      const { source, version, contentHash, claimCount, importedAt } = event.data;
      return { ...state, importing: { source, version, contentHash, claimCount, importedAt } };
    }
    case 'DatasetImportCompleted':
      return state.importing?.contentHash === event.data.contentHash ? { current: state.importing, importing: null } : state;
    default:
      return state;
  }
}

export const datasetDecider: Decider<DatasetCommand, DatasetEvent, DatasetState> = {
  decide: decideDataset,
  evolve: evolveDataset,
  initialState: initialDatasetState,
  parse: parserFor<DatasetEvent>(datasetEventSchemas),
};
