import { parseCsv } from './csv.js';
import { OFAC_DETAILS_URL } from './ofac-sdn-advanced.parser.js';
import { malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { sanctionDraft } from './sanction-draft.js';

/**
 * OFAC's legacy SDN.CSV: no header, 12 columns (ent_num, SDN_Name, SDN_Type, Program, Title,
 * Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks), `-0- ` for empty. Addresses
 * appear only in Remarks as `Digital Currency Address - <asset> <address>;`. OFAC cuts long Remarks
 * off mid-text, so the last item of a Remarks that does not end with '.' may be a truncated address:
 * only items closed by ';' (or by the final '.') are taken.
 */

const COLUMNS = 12;
const EMPTY = '-0-';
const ITEM = 'Digital Currency Address - ';

const valueOf = (field: string): string | null => (field.trim() === EMPTY || field.trim() === '' ? null : field.trim());

/** Multiple programs are written "DPRK3] [CYBER2". */
const programsOf = (field: string): string | null => valueOf(field)?.split('] [').join('; ') ?? null;

function addressItems(remarks: string): { asset: string; raw: string }[] {
  const items: { asset: string; raw: string }[] = [];
  const complete = remarks.trimEnd().endsWith('.');
  for (let at = remarks.indexOf(ITEM); at !== -1; at = remarks.indexOf(ITEM, at + ITEM.length)) {
    const start = at + ITEM.length;
    const semicolon = remarks.indexOf(';', start);
    const item = semicolon === -1 ? (complete ? remarks.trimEnd().slice(start, -1) : null) : remarks.slice(start, semicolon);
    const [asset, raw] = item?.trim().split(/\s+/) ?? [];
    if (asset && raw) items.push({ asset, raw });
  }
  return items;
}

export function parseOfacSdnCsv(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  for (const { fields, line } of parseCsv(text, file)) {
    if (fields.length !== COLUMNS) throw malformed(file, `line ${line}`, `${fields.length} columns, SDN.CSV has ${COLUMNS}`);
    const [entNum, name, , program, , , , , , , , remarks] = fields as [string, ...string[]];
    if (!/^\d+$/.test(entNum.trim())) throw malformed(file, `line ${line}`, `ent_num '${entNum}' is not a number`);
    for (const { asset, raw } of addressItems(remarks ?? '')) {
      out.records += 1;
      const located = out.locate(raw, `line ${line}`);
      if (!located) continue;
      const entity = valueOf(name ?? '');
      out.claims.push(
        sanctionDraft(located, `${OFAC_DETAILS_URL}${entNum.trim()}`, {
          list: 'US',
          entity,
          program: programsOf(program ?? ''),
          listEntryId: entNum.trim(),
          listDate: null,
          asset,
        }),
      );
    }
  }
  return out.finish();
}
