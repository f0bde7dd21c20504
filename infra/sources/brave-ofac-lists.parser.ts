import { parseJsonFile } from './json-file.js';
import { malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { usSanctionDraft } from './sanction-draft.js';

/**
 * brave-intl's per-asset OFAC lists, `sanctioned_addresses_<ASSET>.txt` (one address a line) and
 * `.json` (an array of the same strings). The asset comes from the file name.
 */

const NAME = /sanctioned_addresses_([A-Z0-9]+)\.(txt|json)$/;

export function parseBraveOfacList(text: string, file: string): ParsedFile {
  const match = NAME.exec(file);
  if (!match) throw malformed(file, 'file name', 'expected sanctioned_addresses_<ASSET>.txt or .json');
  const [, asset, format] = match as unknown as [string, string, string];
  const out = new ParsedFileBuilder(file);
  const entries = format === 'json' ? jsonEntries(text, file) : textEntries(text);
  for (const { raw, where } of entries) {
    out.records += 1;
    const located = out.locate(raw, where);
    if (located) out.claims.push(usSanctionDraft(located, { asset }));
  }
  return out.finish();
}

function textEntries(text: string): { raw: string; where: string }[] {
  return text
    .split('\n')
    .map((raw, i) => ({ raw: raw.trim(), where: `line ${i + 1}` }))
    .filter(({ raw }) => raw !== '');
}

function jsonEntries(text: string, file: string): { raw: string; where: string }[] {
  const parsed = parseJsonFile(text, file);
  if (!Array.isArray(parsed)) throw malformed(file, 'record 1', 'expected a JSON array of addresses');
  return parsed.map((raw, i) => {
    if (typeof raw !== 'string') throw malformed(file, `record ${i + 1}`, 'expected an address string');
    return { raw, where: `record ${i + 1}` };
  });
}
