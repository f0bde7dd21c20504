import { classifyMewDarklistComment, MEW_LIGHTLIST } from '../../domain/intel/native-tags.js';
import { isRecord, parseJsonFile, stringField } from './json-file.js';
import { isoDay, latestDay, malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';

/**
 * MyEtherWallet's `addresses-darklist.json` (addresses MEW warns about) and `addresses-lightlist.json`
 * (verified project addresses): arrays of `{address, comment, date}`. A darklist comment refines the
 * category (native-tags.ts); a lightlist comment is the project's name.
 */

/** MEW curates its lists by hand from reports; it does not re-verify them (the darklist is from 2018). */
const MEW_CONFIDENCE = 80;

export function parseMewAddresses(text: string, file: string): ParsedFile {
  const darklist = file.endsWith('addresses-darklist.json');
  if (!darklist && !file.endsWith('addresses-lightlist.json')) {
    throw malformed(file, 'file name', 'expected addresses-darklist.json or addresses-lightlist.json');
  }
  const entries = parseJsonFile(text, file);
  if (!Array.isArray(entries)) throw malformed(file, 'record 1', 'expected a JSON array');
  const out = new ParsedFileBuilder(file);
  const days: (string | null)[] = [];
  entries.forEach((entry: unknown, i) => {
    const where = `record ${i + 1}`;
    if (!isRecord(entry) || typeof entry.address !== 'string') throw malformed(file, where, 'expected {address, comment, date}');
    out.records += 1;
    const located = out.locate(entry.address, where);
    if (!located) return;
    const comment = stringField(entry, 'comment') ?? null;
    const seenAt = isoDay(entry.date);
    days.push(seenAt);
    const common = {
      address: located.address,
      scope: ParsedFileBuilder.scopeOf(located),
      confidence: MEW_CONFIDENCE,
      sourceUrl: null,
      seenAt,
    };
    if (darklist) {
      const { category } = classifyMewDarklistComment(comment ?? '');
      out.claims.push({ ...common, kind: 'risk', category, label: comment });
    } else if (comment) {
      // MEW is an Ethereum wallet: the names it verified are Ethereum's.
      out.claims.push({
        ...common,
        scope: 'ETH',
        kind: 'identity',
        category: MEW_LIGHTLIST.category,
        label: comment.replace(/\s+address$/i, ''),
      });
    } else {
      out.untagged += 1;
    }
  });
  out.dataDate = latestDay(days);
  return out.finish();
}
