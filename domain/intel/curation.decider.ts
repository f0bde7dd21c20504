import { isAddressOf } from '../shared/address.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { curationEventSchemas, type CurationEvent, type CuratorEntry } from './curation.events.js';
import { categoryOf, TAXONOMY } from './taxonomy.js';

/**
 * One curated entry: added once, retracted at most once. An entry must be checkable: a well-formed
 * address for its network, a category of the taxonomy, an http(s) evidence URL, and a name when it
 * claims an identity. Adding the same entry id again is a no-op (a retried CLI call), so is retracting
 * twice; retracting an entry that was never added is refused.
 */

export type CurationCommand =
  | ({ readonly type: 'AddCuratorEntry' } & CuratorEntry)
  | {
      readonly type: 'RetractCuratorEntry';
      readonly entryId: string;
      readonly reason: string;
      readonly curator: string;
      readonly retractedAt: string;
    };

export interface CurationState {
  readonly entry: CuratorEntry | null;
  readonly retracted: boolean;
}

export const initialCurationState = (): CurationState => ({ entry: null, retracted: false });

function refuseUncheckable(entry: CuratorEntry): void {
  const problem = !isAddressOf(entry.network, entry.address)
    ? `'${entry.address}' is not a ${entry.network} address`
    : categoryOf(TAXONOMY, entry.category) === null
      ? `'${entry.category}' is not a category of taxonomy ${TAXONOMY.version}`
      : !/^https?:\/\/\S+$/.test(entry.evidenceUrl)
        ? 'the evidence must be an http(s) URL'
        : entry.kind === 'identity' && entry.label === null
          ? 'an identity needs a name (--label)'
          : null;
  if (problem) throw fail('bad_request', `curated entry refused: ${problem}`);
}

export function decideCuration(command: CurationCommand, state: CurationState): CurationEvent[] {
  if (command.type === 'AddCuratorEntry') {
    if (state.entry) return [];
    const { type: _type, ...entry } = command;
    refuseUncheckable(entry);
    return [{ type: 'CuratorEntryAdded', data: entry }];
  }
  if (!state.entry) throw fail('not_found', `no curated entry ${command.entryId}`);
  if (state.retracted) return [];
  const { entryId, reason, curator, retractedAt } = command;
  return [{ type: 'CuratorEntryRetracted', data: { entryId, reason, curator, retractedAt } }];
}

export function evolveCuration(state: CurationState, event: CurationEvent): CurationState {
  switch (event.type) {
    case 'CuratorEntryAdded':
      return { entry: event.data, retracted: false };
    case 'CuratorEntryRetracted':
      return { ...state, retracted: true };
    default:
      return state;
  }
}

export const curationDecider: Decider<CurationCommand, CurationEvent, CurationState> = {
  decide: decideCuration,
  evolve: evolveCuration,
  initialState: initialCurationState,
  parse: parserFor<CurationEvent>(curationEventSchemas),
};
