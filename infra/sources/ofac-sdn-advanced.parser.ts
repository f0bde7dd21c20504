import { malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { sanctionDraft } from './sanction-draft.js';
import { xmlTokens } from './xml-tokenizer.js';

/**
 * OFAC's SDN_ADVANCED.XML: every "Digital Currency Address - <asset>" feature of a party becomes a
 * sanction claim naming the party (its primary Latin name), its programs, its list entry id and the
 * date the entry was created. The document lists parties first and their sanctions entries after,
 * so both are collected and joined on the profile id at the end.
 */

const DIGITAL_CURRENCY = 'Digital Currency Address - ';
const LAST_NAME_PART = '1520';
const PRIMARY_LATIN_NAME = '1';
const PROGRAM_MEASURE = '1';
export const OFAC_DETAILS_URL = 'https://sanctionssearch.ofac.treas.gov/Details.aspx?id=';

interface PartyAddress {
  readonly raw: string;
  readonly asset: string;
  readonly line: number;
}

interface Party {
  name: string | null;
  readonly addresses: PartyAddress[];
}

interface Entry {
  readonly id: string;
  dates: string[];
  programs: string[];
}

type Date3 = { year?: string; month?: string; day?: string };

const isoOf = ({ year, month, day }: Date3): string | null =>
  year && month && day ? `${year.padStart(4, '0')}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` : null;

/** "LAST, First Middle" for individuals (as SDN.CSV writes them), parts in order for entities. */
function fullName(parts: readonly { group: string; value: string }[], groupTypes: ReadonlyMap<string, string>): string | null {
  if (parts.length === 0) return null;
  const last = parts.filter((p) => groupTypes.get(p.group) === LAST_NAME_PART).map((p) => p.value);
  const others = parts.filter((p) => groupTypes.get(p.group) !== LAST_NAME_PART).map((p) => p.value);
  return last.length > 0 && others.length > 0 ? `${last.join(' ')}, ${others.join(' ')}` : [...last, ...others].join(' ');
}

export function parseOfacSdnAdvanced(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  const assets = new Map<string, string>(); // FeatureType ID → asset ticker
  const parties = new Map<string, Party>(); // Profile ID → party
  const entries = new Map<string, Entry>(); // Profile ID → entry
  const path: string[] = [];
  const issued: Date3 = {};

  let profile: { id: string; party: Party } | null = null;
  let identity: { primary: boolean; parts: { group: string; value: string }[]; groupTypes: Map<string, string> } | null = null;
  let inPrimaryAlias = false;
  let collectingName = false;
  let named = false;
  let currentPart: string | null = null;
  let featureAsset: string | null = null;
  let entry: Entry | null = null;
  let eventDate: Date3 | null = null;
  let measureIsProgram = false;
  let featureTypeId: string | null = null;

  for (const token of xmlTokens(text, file)) {
    if (token.type === 'open') {
      const { name, attributes: a } = token;
      path.push(name);
      if (name === 'FeatureType') featureTypeId = a.ID ?? null;
      else if (name === 'Profile') {
        if (!a.ID) throw malformed(file, `line ${token.line}`, 'Profile without an ID');
        profile = { id: a.ID, party: { name: null, addresses: [] } };
      } else if (name === 'Identity' && profile) {
        identity = { primary: a.Primary === 'true', parts: [], groupTypes: new Map() };
        named = false;
      } else if (name === 'Alias') inPrimaryAlias = identity?.primary === true && a.Primary === 'true';
      else if (name === 'DocumentedName') {
        collectingName = inPrimaryAlias && !named && (a.DocNameStatusID ?? PRIMARY_LATIN_NAME) === PRIMARY_LATIN_NAME;
      } else if (name === 'NamePartValue') currentPart = a.NamePartGroupID ?? null;
      else if (name === 'NamePartGroup' && identity && a.ID && a.NamePartTypeID) identity.groupTypes.set(a.ID, a.NamePartTypeID);
      else if (name === 'Feature' && profile) featureAsset = assets.get(a.FeatureTypeID ?? '') ?? null;
      else if (name === 'SanctionsEntry') {
        if (!a.ProfileID || !a.ID) throw malformed(file, `line ${token.line}`, 'SanctionsEntry without ProfileID or ID');
        entry = { id: a.ID, dates: [], programs: [] };
        entries.set(a.ProfileID, entry);
      } else if (name === 'EntryEvent') eventDate = {};
      else if (name === 'SanctionsMeasure') measureIsProgram = a.SanctionsTypeID === PROGRAM_MEASURE;
    } else if (token.type === 'close') {
      const name = path.pop();
      if (name === 'Profile' && profile) {
        parties.set(profile.id, profile.party);
        profile = null;
      } else if (name === 'Identity' && identity && profile) {
        if (identity.primary) profile.party.name = fullName(identity.parts, identity.groupTypes);
        identity = null;
      } else if (name === 'DocumentedName') {
        named ||= collectingName;
        collectingName = false;
      } else if (name === 'Alias') inPrimaryAlias = false;
      else if (name === 'NamePartValue') currentPart = null;
      else if (name === 'Feature') featureAsset = null;
      else if (name === 'EntryEvent' && entry && eventDate) {
        const day = isoOf(eventDate);
        if (day) entry.dates.push(day);
        eventDate = null;
      } else if (name === 'SanctionsEntry') entry = null;
      else if (name === 'SanctionsMeasure') measureIsProgram = false;
    } else {
      const parent = path.at(-1);
      const value = token.text.trim();
      if (parent === 'FeatureType' && featureTypeId && value.startsWith(DIGITAL_CURRENCY)) {
        assets.set(featureTypeId, value.slice(DIGITAL_CURRENCY.length).trim());
      } else if (parent === 'NamePartValue' && currentPart && identity && collectingName) {
        identity.parts.push({ group: currentPart, value });
      } else if (parent === 'VersionDetail' && featureAsset && profile) {
        profile.party.addresses.push({ raw: value, asset: featureAsset, line: token.line });
      } else if (parent === 'Comment' && measureIsProgram && entry && value !== '') {
        entry.programs.push(value);
      } else if (path.at(-2) === 'Date' && eventDate && (parent === 'Year' || parent === 'Month' || parent === 'Day')) {
        eventDate[parent.toLowerCase() as keyof Date3] = value;
      } else if (path.at(-2) === 'DateOfIssue' && (parent === 'Year' || parent === 'Month' || parent === 'Day')) {
        issued[parent.toLowerCase() as keyof Date3] = value;
      }
    }
  }

  out.dataDate = isoOf(issued);
  for (const [profileId, party] of parties) {
    const listed = entries.get(profileId);
    for (const { raw, asset, line } of party.addresses) {
      out.records += 1;
      const located = out.locate(raw, `line ${line}`);
      if (!located) continue;
      out.claims.push(
        sanctionDraft(located, listed ? `${OFAC_DETAILS_URL}${listed.id}` : null, {
          list: 'US',
          entity: party.name,
          program: listed && listed.programs.length > 0 ? listed.programs.join('; ') : null,
          listEntryId: listed?.id ?? null,
          listDate: listed ? ([...listed.dates].sort()[0] ?? null) : null,
          asset,
        }),
      );
    }
  }
  return out.finish();
}
