import { csvObjects } from './csv.js';
import { ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { usSanctionDraft } from './sanction-draft.js';

/** ultrasoundmoney/ofac-ethereum-addresses `data.csv`: `address,name`, EVM addresses with the SDN entity name. */
export function parseUltrasoundOfac(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  for (const { row, line } of csvObjects(text, file, ['address', 'name'])) {
    out.records += 1;
    const located = out.locate(row.address ?? '', `line ${line}`);
    const entity = row.name?.trim() || null;
    if (located) out.claims.push(usSanctionDraft(located, { entity }));
  }
  return out.finish();
}
