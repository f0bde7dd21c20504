import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../test/helpers/source-fixtures.js';
import { parseCsv } from './csv.js';
import { parseJsonFile } from './json-file.js';
import { xmlTokens } from './xml-tokenizer.js';

describe('CSV reader', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF and a DOS end-of-file byte', () => {
    const records = parseCsv('\uFEFFa,"b, c"\r\n"say ""hi""","multi\nline"\r\nlast,\r\n\x1a', 'f.csv');
    expect(records).toEqual([
      { fields: ['a', 'b, c'], line: 1 },
      { fields: ['say "hi"', 'multi\nline'], line: 2 },
      { fields: ['last', ''], line: 4 },
    ]);
  });

  it('names the line of every quoting error', () => {
    expect(thrownBy(() => parseCsv('a\nb,"open\n', 'f.csv')).message).toBe('f.csv, line 2: unterminated quoted field');
    expect(thrownBy(() => parseCsv('a\nb,c"d\n', 'f.csv')).message).toBe('f.csv, line 2: a quote inside an unquoted field');
    expect(thrownBy(() => parseCsv('a\n"b"c\n', 'f.csv')).message).toBe('f.csv, line 2: text after a closing quote');
  });
});

describe('XML tokenizer', () => {
  const tokens = (xml: string) => [...xmlTokens(xml, 'f.xml')];

  it('yields tags without namespace prefixes, decoded attributes and text, CDATA, and lines', () => {
    const xml =
      '<?xml version="1.0"?>\n<!-- note -->\n<x:Root xmlns:x="urn:x">\n  <Item ID="a&amp;b">1 &lt; 2 &#x41;</Item>\n  <Empty/><![CDATA[<raw>]]>\n</x:Root>';
    expect(tokens(xml)).toEqual([
      { type: 'open', name: 'Root', attributes: { x: 'urn:x' }, line: 3 },
      { type: 'open', name: 'Item', attributes: { ID: 'a&b' }, line: 4 },
      { type: 'text', text: '1 < 2 A', line: 4 },
      { type: 'close', name: 'Item', line: 4 },
      { type: 'open', name: 'Empty', attributes: {}, line: 5 },
      { type: 'close', name: 'Empty', line: 5 },
      { type: 'text', text: '<raw>', line: 5 },
      { type: 'close', name: 'Root', line: 6 },
    ]);
  });

  it('names the file and line of mis-nesting, truncation and unknown entities', () => {
    expect(thrownBy(() => tokens('<a>\n<b>\n</a>')).message).toBe('f.xml, line 3: </a> closes <b> of line 2');
    expect(thrownBy(() => tokens('<a>\n<b>text</b>\n')).message).toBe('f.xml, line 3: truncated: <a> of line 1 is never closed');
    expect(thrownBy(() => tokens('<a>\n&nbsp;</a>')).message).toBe('f.xml, line 2: unknown entity &nbsp;');
  });
});

describe('JSON reader', () => {
  it('names the line and column of a syntax error', () => {
    expect(thrownBy(() => parseJsonFile('{\n  "a": 1\n  "b": 2\n}', 'f.json')).message).toBe('f.json, line 3: invalid JSON at column 3');
  });
});
