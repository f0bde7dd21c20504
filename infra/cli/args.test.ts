import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';

describe('parseArgs', () => {
  it('reads words, valued flags, inline values and switches', () => {
    expect(parseArgs(['data', 'import', 'ofac', '/p', '--user', 'u', '--usd=2', '--inspect'])).toEqual({
      words: ['data', 'import', 'ofac', '/p'],
      flags: { user: 'u', usd: '2', inspect: true },
    });
  });

  it('keeps the whole of an inline value that holds `=`', () => {
    expect(parseArgs(['--evidence=https://x.test/?a=b&c=d']).flags).toEqual({ evidence: 'https://x.test/?a=b&c=d' });
  });
});
