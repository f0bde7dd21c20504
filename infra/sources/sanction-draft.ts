import type { SanctionDetail } from '../../domain/intel/intel.types.js';
import { SANCTIONS_CATEGORY } from '../../domain/intel/native-tags.js';
import { ParsedFileBuilder, type ClaimDraft, type LocatedAddress } from './parsed-file.js';

/** A sanction claim: a list's entry names the address's owner, with full confidence. */
export function sanctionDraft(located: LocatedAddress, sourceUrl: string | null, sanction: SanctionDetail): ClaimDraft {
  return {
    kind: 'sanction',
    address: located.address,
    scope: ParsedFileBuilder.scopeOf(located),
    category: SANCTIONS_CATEGORY,
    label: sanction.entity,
    confidence: 100,
    sourceUrl,
    seenAt: null,
    sanction,
  };
}

/** A sanction claim from a list that republishes OFAC's addresses with fewer details than OFAC. */
export function usSanctionDraft(located: LocatedAddress, details: { entity?: string | null; asset?: string | null }): ClaimDraft {
  return sanctionDraft(located, null, {
    list: 'US',
    entity: details.entity ?? null,
    program: null,
    listEntryId: null,
    listDate: null,
    asset: details.asset ?? null,
  });
}
