import { SANCTIONS_CATEGORY } from '../../domain/intel/native-tags.js';
import { ParsedFileBuilder, type ClaimDraft, type LocatedAddress } from './parsed-file.js';

/** A sanction claim from a list that republishes OFAC's addresses with fewer details than OFAC. */
export function usSanctionDraft(located: LocatedAddress, details: { entity?: string | null; asset?: string | null }): ClaimDraft {
  const entity = details.entity ?? null;
  return {
    kind: 'sanction',
    address: located.address,
    scope: ParsedFileBuilder.scopeOf(located),
    category: SANCTIONS_CATEGORY,
    label: entity,
    confidence: 100,
    sourceUrl: null,
    seenAt: null,
    sanction: { list: 'US', entity, program: null, listEntryId: null, listDate: null, asset: details.asset ?? null },
  };
}
