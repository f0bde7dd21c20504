import { isoDay, malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';
import { usSanctionDraft } from './sanction-draft.js';

/**
 * 1020-1795/OFAC_SDN_Wallet_List: `# Last Updated: <timestamp> UTC`, a blank line, then one address a
 * line in original case. The files are per chain (and one complete list), not per asset: no asset.
 */

const HEADER = '# Last Updated:';

export function parseOfacWalletList(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  const lines = text.split('\n');
  const header = lines[0]?.trim() ?? '';
  if (!header.startsWith(HEADER)) throw malformed(file, 'line 1', `expected '${HEADER} <date>'`);
  out.dataDate = isoDay(header.slice(HEADER.length));
  if (!out.dataDate) throw malformed(file, 'line 1', `no date in '${header}'`);
  lines.forEach((line, i) => {
    const raw = line.trim();
    if (i === 0 || raw === '' || raw.startsWith('#')) return;
    out.records += 1;
    const located = out.locate(raw, `line ${i + 1}`);
    if (located) out.claims.push(usSanctionDraft(located, {}));
  });
  return out.finish();
}
