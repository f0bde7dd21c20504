import { present } from '../../domain/shared/present.js';
import { parseCsv } from './csv.js';
import { malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { sanctionDraft } from './sanction-draft.js';
import { addressesInText, ukDay } from './sanctions-text-addresses.js';

/**
 * OFSI's Consolidated List of Financial Sanctions Targets, CSV in its 2022 format (ConList.csv): a
 * first line `Last Updated,<dd/mm/yyyy>`, then a header row, then one row per name of a target, the
 * rows of one target sharing its `Group ID`. Columns are found by their header names: `Name 6` is the
 * surname or the entity's name and `Name 1`…`Name 5` the given names; `Alias Type` marks the
 * `Primary Name`; `Regime`, `Listed On` and `Other Information` (where addresses are written) follow.
 * Each address found in a target's Other Information becomes a sanction claim on the UK list.
 */

const REQUIRED = ['Name 6', 'Group ID', 'Other Information', 'Regime', 'Listed On'] as const;
export const OFSI_SEARCH_URL = 'https://sanctionssearchapp.ofsi.hmtreasury.gov.uk/';

interface Target {
  names: { primary: boolean; name: string }[];
  regime: string | null;
  listedOn: string | null;
  addresses: { raw: string; asset: string | null; line: number }[];
}

export function parseOfsiConList(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  const [first, header, ...rows] = parseCsv(text, file);
  if (!first || first.fields[0]?.trim() !== 'Last Updated') throw malformed(file, 'line 1', "expected 'Last Updated,<date>'");
  out.dataDate = ukDay(first.fields[1]);
  if (!out.dataDate) throw malformed(file, 'line 1', `no dd/mm/yyyy date in '${first.fields.join(',')}'`);
  if (!header) throw malformed(file, 'line 2', 'no header row');
  const column = new Map(header.fields.map((name, index) => [name.trim(), index]));
  const missing = REQUIRED.filter((name) => !column.has(name));
  if (missing.length > 0) throw malformed(file, `line ${header.line}`, `missing column(s) ${missing.join(', ')}`);
  const at = (fields: readonly string[], name: string): string =>
    column.has(name) ? (fields[present(column.get(name), 'column.has checked the name just before')] ?? '').trim() : '';

  const targets = new Map<string, Target>();
  for (const { fields, line } of rows) {
    if (fields.length !== header.fields.length)
      throw malformed(file, `line ${line}`, `${fields.length} columns, the header has ${header.fields.length}`);
    const group = at(fields, 'Group ID');
    if (!/^\d+$/.test(group)) throw malformed(file, `line ${line}`, `Group ID '${group}' is not a number`);
    const target = targets.get(group) ?? { names: [], regime: null, listedOn: null, addresses: [] };
    targets.set(group, target);
    const given = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5']
      .map((name) => at(fields, name))
      .filter(Boolean)
      .join(' ');
    const surname = at(fields, 'Name 6');
    const name = surname && given ? `${surname}, ${given}` : surname || given;
    if (name) target.names.push({ primary: /^primary name$/i.test(at(fields, 'Alias Type')), name });
    target.regime ??= at(fields, 'Regime') || null;
    target.listedOn ??= ukDay(at(fields, 'Listed On'));
    for (const found of addressesInText(at(fields, 'Other Information'))) target.addresses.push({ ...found, line });
  }

  for (const [group, target] of targets) {
    const entity = (target.names.find((n) => n.primary) ?? target.names[0])?.name ?? null;
    const seen = new Set<string>();
    for (const { raw, asset, line } of target.addresses) {
      if (seen.has(raw)) continue; // the same Other Information repeats on every alias row
      seen.add(raw);
      out.records += 1;
      const located = out.locate(raw, `line ${line}`);
      if (!located) continue;
      out.claims.push(
        sanctionDraft(located, OFSI_SEARCH_URL, {
          list: 'UK',
          entity,
          program: target.regime,
          listEntryId: group,
          listDate: target.listedOn,
          asset,
        }),
      );
    }
  }
  return out.finish();
}
