import { malformed } from './parsed-file.js';

/**
 * RFC 4180 CSV: fields separated by commas, optionally in double quotes with "" for a quote, records
 * ended by LF or CRLF; a quoted field may span lines. A trailing DOS end-of-file byte (0x1A, as in
 * OFAC's SDN.CSV) and a leading byte-order mark are ignored. Any other quote out of place is an error
 * naming the line.
 */

export interface CsvRecord {
  readonly fields: readonly string[];
  /** 1-based line on which the record starts. */
  readonly line: number;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

export function parseCsv(text: string, file: string): CsvRecord[] {
  let end = text.length;
  while (end > 0 && [0x1a, LF, CR].includes(text.charCodeAt(end - 1))) end -= 1;
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const records: CsvRecord[] = [];
  if (position >= end) return records;
  let line = 1;
  let recordLine = 1;
  let fields: string[] = [];
  const endRecord = (): void => {
    records.push({ fields, line: recordLine });
    fields = [];
    line += 1;
    recordLine = line;
  };

  for (;;) {
    if (text.charCodeAt(position) === QUOTE) {
      const openedOn = line;
      let value = '';
      let cursor = position + 1;
      for (;;) {
        const close = text.indexOf('"', cursor);
        if (close === -1 || close >= end) throw malformed(file, `line ${openedOn}`, 'unterminated quoted field');
        value += text.slice(cursor, close);
        cursor = close + 1;
        if (text.charCodeAt(cursor) !== QUOTE) break;
        value += '"';
        cursor += 1;
      }
      line += countLines(value);
      position = cursor;
      const next = text.charCodeAt(position);
      if (position < end && next !== COMMA && next !== LF && next !== CR) {
        throw malformed(file, `line ${line}`, 'text after a closing quote');
      }
      fields.push(value);
    } else {
      let cursor = position;
      for (; cursor < end; cursor += 1) {
        const code = text.charCodeAt(cursor);
        if (code === COMMA || code === LF || code === CR) break;
        if (code === QUOTE) throw malformed(file, `line ${line}`, 'a quote inside an unquoted field');
      }
      fields.push(text.slice(position, cursor));
      position = cursor;
    }

    if (position >= end) break;
    const code = text.charCodeAt(position);
    position += code === CR && text.charCodeAt(position + 1) === LF ? 2 : 1;
    if (code === COMMA) {
      if (position >= end) fields.push('');
      else continue;
      break;
    }
    endRecord();
    if (position >= end) return records;
  }
  endRecord();
  return records;
}

function countLines(value: string): number {
  let count = 0;
  for (let at = value.indexOf('\n'); at !== -1; at = value.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** Records of a CSV whose first record is a header, as objects keyed by header name. */
export function csvObjects<Column extends string>(
  text: string,
  file: string,
  expectedHeader: readonly Column[],
): { row: Record<Column, string> & Record<string, string | undefined>; line: number }[] {
  const [header, ...rows] = parseCsv(text, file);
  if (!header || expectedHeader.some((name, i) => header.fields[i]?.trim() !== name)) {
    throw malformed(file, 'line 1', `expected the header ${expectedHeader.join(',')}`);
  }
  return rows.map(({ fields, line }) => {
    if (fields.length !== header.fields.length) {
      throw malformed(file, `line ${line}`, `${fields.length} fields where the header has ${header.fields.length}`);
    }
    // Every expected column is present: the header was checked above and the row has as many fields.
    const row = Object.fromEntries(header.fields.map((name, i) => [name.trim(), fields[i] ?? ''])) as Record<Column, string>;
    return { row, line };
  });
}
