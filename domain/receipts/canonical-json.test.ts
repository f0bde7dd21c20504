import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, inputHashOf } from './canonical-json.js';

// The examples of RFC 8785 (JSON Canonicalization Scheme), sections 3.2.2, 3.2.3 and appendix B.
describe('canonicalJson (RFC 8785)', () => {
  it('encodes the RFC’s sample object: sorted keys, ES6 numbers, minimal string escapes', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts property names by their UTF-16 code units (section 3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Object.keys would put "1" first (an integer-like key): read the order from the text itself.
    const keys = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
    expect(keys.map((k) => k.codePointAt(0))).toEqual([0x0d, 0x31, 0x80, 0xf6, 0x20ac, 0x1f600, 0xfb33]);
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [9007199254740992, '9007199254740992'],
    [1e21, '1e+21'],
    [1e20, '100000000000000000000'],
    [295147905179352830000, '295147905179352830000'],
    [0.000001, '0.000001'],
    [1e-7, '1e-7'],
  ])('writes the number %s as %s (appendix B)', (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it('refuses what has no canonical form: NaN, Infinity, a lone surrogate', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson(Number.POSITIVE_INFINITY)).toThrow();
    expect(() => canonicalJson('\ud800')).toThrow();
  });

  it('hashes an input whatever the order of its fields', () => {
    expect(inputHashOf({ address: '0xab', network: 'ETH' })).toBe(inputHashOf({ network: 'ETH', address: '0xab' }));
    expect(inputHashOf({ address: '0xab', network: 'ETH' })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the canonicalize package’s encoding, byte for byte, on any JSON value (the receipts it signed stay the same bytes)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ unit: 'grapheme' }),
          fc.oneof(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true })),
        ),
        (value) => {
          const surrogates = Object.entries(value).some(([k, v]) => /\p{Cs}/u.test(k + String(v)));
          if (surrogates) expect(() => canonicalJson(value)).toThrow();
          else expect(canonicalJson(value)).toBe(canonicalize(value));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('drops undefined fields, writes undefined array items as null and dates by their toJSON, as the package does', () => {
    const value = { b: undefined, a: [undefined, new Date(0), { z: 1, y: undefined }], c: { toJSON: () => 'x' } };
    expect(canonicalJson(value)).toBe(canonicalize(value));
    expect(canonicalJson(value)).toBe('{"a":[null,"1970-01-01T00:00:00.000Z",{"z":1}],"c":"x"}');
  });

  it('refuses a circular value and a lone surrogate in a name', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/circular/);
    expect(() => canonicalJson({ '\udc00': 1 })).toThrow(/surrogate/);
    expect(() => canonicalJson(undefined)).toThrow();
  });
});
