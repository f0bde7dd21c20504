import { describe, expect, it } from 'vitest';
import { firstRepeatedKey } from './repeated-keys.js';

describe('repeated keys in a JSON body', () => {
  it('finds a key repeated at the top level', () => {
    expect(firstRepeatedKey('{"address":"x","address":"0xabc"}')).toEqual(['address']);
  });

  it('finds one at any depth, with its path through objects and arrays', () => {
    expect(firstRepeatedKey('{"a":{"b":1,"c":{"d":2,"d":3}}}')).toEqual(['a', 'c', 'd']);
    expect(firstRepeatedKey('{"list":[{"x":1},{"y":1,"y":2}]}')).toEqual(['list', 1, 'y']);
    expect(firstRepeatedKey('[[1,2],{"k":[{"z":0,"z":0}]}]')).toEqual([1, 'k', 0, 'z']);
  });

  it('compares keys decoded: an escaped spelling is the same key', () => {
    expect(firstRepeatedKey('{"network":"ETH","netw\\u006frk":"BSC"}')).toEqual(['network']);
  });

  it('accepts the same key in sibling objects, and keys spelled like values', () => {
    expect(firstRepeatedKey('{"a":{"k":1},"b":{"k":2},"c":"a","d":["a","a"]}')).toBeNull();
    expect(firstRepeatedKey('{"s":"a \\" , \\"s\\": {","t":"}"}')).toBeNull();
    expect(firstRepeatedKey('"just a string"')).toBeNull();
    expect(firstRepeatedKey('{}')).toBeNull();
  });
});
