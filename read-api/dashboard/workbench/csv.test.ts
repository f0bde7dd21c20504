import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';

describe('CSV export', () => {
  it('quotes separators, quotes and line breaks, and defuses formulas', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['=HYPERLINK("x")', 'line\nbreak'],
          [null, -1],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"\'=HYPERLINK(""x"")","line\nbreak"\r\n,-1\r\n');
  });
});
